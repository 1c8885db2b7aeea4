"""What every lab backend must do (harness/lab/base.py's Lab), checked on a real lab: run by
tests/lab/test_lab_contract.py on this host, tests/guest/test_lab_contract.py in a guest and
tests/cluster/test_cluster_lab_contract.py on a Kubernetes cluster.

A lab with the director, one web server and one client cell; each check bounds what the backend
does with what an independent witness saw (the container's own clock, its own process list, the
engine's labels or the cluster's API server), not with the backend's own answers alone. The
witness is the place's own tool: DockerWitness here, the cluster's in its test."""
import subprocess
import time

import pytest

from harness.errors import LabError
from harness.lab import ClientCell, ComposeLab, LabRequest, labelled_leftovers
from harness.topology import BACK, DIRECTOR, FRONT

CELL = ClientCell("r5", (("net.ipv4.tcp_retries2", 5),))
SERVER = "web-a"


class DockerWitness:
    """A Compose lab's witness: its engine's own `docker` command line and labels."""
    where = ("host", "guest")

    def __init__(self, engine, docker):
        self.engine, self.docker = engine, docker

    def addresses(self, lab, service):
        return sorted(subprocess.run([*self.docker, "inspect", "-f", "{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}",
                                      lab.container_name(service)], capture_output=True, text=True,
                                     check=True).stdout.split())

    def same_front_network(self, lab, one, other):
        return one.rsplit(".", 1)[0] == other.rsplit(".", 1)[0]

    def kill(self, lab, service):
        subprocess.run([*self.docker, "kill", lab.container_name(service)], capture_output=True, check=True)

    def director_log_names_datapath(self, log, datapath):
        return f'"datapath": "{datapath}"' in log

    def describes_its_tools(self, described):
        return bool(described["docker_compose"])

    def leftovers(self, project):
        left = labelled_leftovers(self.engine, project=project)
        return {kind: found for kind, found in left.items() if found}


def lab_for(engine, project):
    return ComposeLab(LabRequest(project=project, cells=[CELL], servers=(SERVER,)), engine=engine)


def refused_by_preflight_before_anything_starts(lab, witness):
    """A preflight that refuses stops up() before a single node exists."""
    asked = []

    def refuse(kernel):
        asked.append((kernel.kernel_release(), kernel.has_sysctl("/proc/sys/net/ipv4/tcp_retries2")))
        raise LabError("refused")
    with pytest.raises(LabError, match="refused"):
        lab.up(preflight=refuse)
    lab.down()
    [(release, has_retries2)] = asked
    assert release and has_retries2 is True
    assert witness.leftovers(lab.project) == {}


def check_a_running_lab(lab, witness):
    assert {DIRECTOR, SERVER, CELL.service} <= set(lab.services())
    assert lab.problems() == {}
    lab.wait_healthy(300)

    # exec: output, exit status, input; check=True turns a failure into a LabError naming the node
    assert lab.exec(CELL.service, ["sh", "-c", "echo out; echo err >&2"]).stdout == "out\n"
    assert lab.exec(CELL.service, ["sh", "-c", "exit 3"], check=False).returncode == 3
    with pytest.raises(LabError, match=CELL.service):
        lab.exec(CELL.service, ["false"])
    assert lab.exec(CELL.service, ["cat"], stdin="through stdin").stdout == "through stdin"
    # the cell's namespace is its own: its sysctl as the cell asked, read by the kernel itself
    assert lab.exec(CELL.service, ["cat", "/proc/sys/net/ipv4/tcp_retries2"]).stdout.strip() == "5"
    assert [r.stdout for r in lab.exec_each([(DIRECTOR, ["echo", "a"]), (SERVER, ["echo", "b"])])] == ["a\n", "b\n"]

    # spawn: a process of its own with a pipe to its stdin, ending when that closes
    process = lab.spawn(CELL.service, ["sh", "-c", "read line; echo got $line"])
    out, _ = process.communicate("ping\n", timeout=60)
    assert (process.returncode, out) == (0, "got ping\n")
    assert lab.placement(CELL.service) == (CELL.service, None)

    # addresses: what the engine itself says the container has
    networks = lab.networks_of(DIRECTOR)
    assert set(networks) >= {FRONT, BACK}
    for service in (DIRECTOR, SERVER, CELL.service):
        assert witness.addresses(lab, service) == lab.addresses(service), service
    assert witness.same_front_network(lab, lab.address(CELL.service, FRONT), networks[FRONT])

    # the lab's clock is the one its nodes stamp with: a container's own reading lies between two of ours
    before = lab.now()
    theirs = float(lab.exec(CELL.service, ["date", "+%s.%N"]).stdout)
    after = lab.now()
    assert before - 0.005 <= theirs <= after + 0.005, (before, theirs, after)

    # the place: what env.json will say of it
    described = lab.describe()
    assert described["kernel"] == lab.kernel_release() == lab.kernel.kernel_release()
    assert described["where"]["where"] in witness.where and witness.describes_its_tools(described)
    assert set(described["images"]) >= {DIRECTOR, SERVER, CELL.service}
    assert lab.datapath in ("ipvs", "nftables") and lab.datapath == ("ipvs" if lab.kernel.has_ipvs() else "nftables")
    # the kernel's defaults, read in a new namespace: docs/facts/kernel.md's (tcp_retries2 15, tcp_syn_retries 6),
    # IPVS's own sysctls exactly where the kernel has IPVS
    facts = described["kernel_facts"]
    defaults = facts["sysctl_defaults"]
    assert defaults["tcp_retries2"] == "15" and defaults["tcp_syn_retries"] == "6", defaults
    assert any(name.startswith("vs/") for name in defaults) == lab.kernel.has_ipvs(), sorted(defaults)
    assert facts["hz"] == lab.kernel.hz()

    # logs: the node's own output, timestamped (the director's start prints the datapath it set up)
    assert witness.director_log_names_datapath(lab.logs(DIRECTOR), lab.datapath)

    # restart: the server's process is a new one, and the lab is whole again
    pid_before = lab.exec(SERVER, ["cat", "/proc/1/stat"]).stdout.split()[21]      # start time of its PID 1
    lab.restart(SERVER)
    lab.wait_healthy(300)
    assert lab.exec(SERVER, ["cat", "/proc/1/stat"]).stdout.split()[21] != pid_before
    assert lab.problems() == {}

    # a node that goes away is a problem the lab reports
    witness.kill(lab, SERVER)
    deadline = time.monotonic() + 30
    while SERVER not in lab.problems() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert SERVER in lab.problems()


def down_leaves_nothing(lab, witness):
    lab.down()
    assert witness.leftovers(lab.project) == {}
    lab.down()                      # again: nothing to do, no error
