"""A pod's network namespace as its node sees it (the CNI plugins made it, under /run/netns),
through the lab's node shell (node_shell.NodeShell): commands in it, and its silent cut."""
from ...errors import LabError
from .faces import Shell

# A request the server's kernel ACKed just before the cut still gets its answer out: cut both
# ways at once, a client whose query was ACKed and not yet answered has nothing to retransmit
# and waits for ever (an app hang, not a blackhole: seen on the cluster, a sysbench connection
# silent until the run's 1100 s limit after the seed's swap). Twice the slowest answer the probe
# saw from a busy TCG guest (0.47 s); silent_kill's exec between its two cuts takes about as long.
ANSWERS_IN_FLIGHT_S = 1.0
CUT_TABLE = "blackhole-cut"


def run_in(shell: Shell, pod_ip: str, command: str, timeout: float = 60) -> str:
    """A command run on the node inside the network namespace that holds pod_ip, its output."""
    found = shell.run(f"for ns in $(ip netns list | cut -d' ' -f1); do ip -n $ns -4 -o addr show | "
                      f"grep -q ' {pod_ip}/' && echo $ns; done; true", timeout=timeout).stdout.split()
    if len(found) != 1:
        raise LabError(f"cluster: {len(found)} network namespaces on the node hold {pod_ip}: {found}")
    return shell.run(f"ip netns exec {found[0]} {command}", timeout=timeout).stdout


def cut_silently(shell: Shell, pod_ip: str) -> tuple[float, float]:
    """Drop everything into a pod, then, ANSWERS_IN_FLIGHT_S later, everything out of it, in
    its own network namespace: nothing answers and nothing is sent, not even a reset or an
    ICMP error; ARP is still answered, as by a host whose stack stopped. Returns (started,
    landed) of the first cut, the death, on the node's clock, which its pods' programs
    stamp their records with."""
    chain = f"add chain inet {CUT_TABLE} %s {{ type filter hook %s priority -300; policy drop; }}"
    inbound = f"add table inet {CUT_TABLE}; {chain % ('in', 'input')}"
    out = run_in(shell, pod_ip, f"sh -c \"date +%s.%N && nft '{inbound}' && date +%s.%N && "
                                f"sleep {ANSWERS_IN_FLIGHT_S} && nft '{chain % ('out', 'output')}'\"")
    started, landed = map(float, out.split())
    return started, landed


def heal_cut(shell: Shell, pod_ip: str) -> None:
    """Undo cut_silently: the pod's network answers again."""
    run_in(shell, pod_ip, f"nft delete table inet {CUT_TABLE}")
