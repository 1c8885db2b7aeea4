"""A pod's network namespace as its node sees it (the CNI plugins made it, under /run/netns),
through the lab's node shell (node_shell.NodeShell): commands in it, and its silent cut."""
import shlex
from collections.abc import Collection

from ...errors import LabError
from ...faults.answers_out import AnswersOut, ss_command, wait_until_answered
from .faces import Shell

CUT_TABLE = "blackhole-cut"


def netns_of(shell: Shell, pod_ip: str, timeout: float = 60) -> str:
    """The node's network namespace that holds pod_ip."""
    found = shell.run(f"for ns in $(ip netns list | cut -d' ' -f1); do ip -n $ns -4 -o addr show | "
                      f"grep -q ' {pod_ip}/' && echo $ns; done; true", timeout=timeout).stdout.split()
    if len(found) != 1:
        raise LabError(f"cluster: {len(found)} network namespaces on the node hold {pod_ip}: {found}")
    return found[0]


def run_in(shell: Shell, pod_ip: str, command: str, timeout: float = 60) -> str:
    """A command run on the node inside the network namespace that holds pod_ip, its output."""
    return shell.run(f"ip netns exec {netns_of(shell, pod_ip, timeout)} {command}", timeout=timeout).stdout


def cut_silently(shell: Shell, pod_ip: str, port: int, other_servers: Collection[str] = ()) -> tuple[float, float, AnswersOut]:
    """Drop everything into the server's pod, then, once the requests its kernel already took have
    their answers out (faults/answers_out.py: read from ss in the pod's own namespace, at most
    ANSWERS_OUT_LIMIT_S), everything out of it: nothing answers and nothing is sent, not even a
    reset or an ICMP error; ARP is still answered, as by a host whose stack stopped. A request
    ACKed just before a cut of both ways at once would leave its client waiting for ever with
    nothing to retransmit (an app hang, not a blackhole: seen on the cluster, a sysbench connection
    silent until the run's 1100 s limit). Returns (started, landed) of the first cut, the death,
    on the node's clock, which its pods' programs stamp their records with, and what the wait saw.
    port: the server's; other_servers: the other server pods' addresses (their replication is not a
    client's request)."""
    netns = netns_of(shell, pod_ip)
    chain = f"add chain inet {CUT_TABLE} %s {{ type filter hook %s priority -300; policy drop; }}"
    inbound = f"add table inet {CUT_TABLE}; {chain % ('in', 'input')}"
    out = shell.run(f"ip netns exec {netns} sh -c \"date +%s.%N && nft '{inbound}' && date +%s.%N\"").stdout
    started, landed = map(float, out.split())
    look = " ".join(shlex.quote(word) for word in ss_command(port))
    answers = wait_until_answered(lambda: shell.run(f"ip netns exec {netns} {look}").stdout, other_servers)
    shell.run(f"ip netns exec {netns} nft '{chain % ('out', 'output')}'")
    return started, landed, answers


def heal_cut(shell: Shell, pod_ip: str) -> None:
    """Undo cut_silently: the pod's network answers again."""
    run_in(shell, pod_ip, f"nft delete table inet {CUT_TABLE}")
