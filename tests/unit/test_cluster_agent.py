"""A cluster given only by its kubeconfig: which node the lab takes, and its node agent's pod and exec."""
import pytest

from harness.errors import LabError
from harness.lab.cluster import agent, place
from harness.lab.cluster.node import ClusterNode


def test_cluster_ups_own_kubeconfig_keeps_the_guest_node_and_another_gets_the_agent(tmp_path):
    own = ClusterNode()
    assert isinstance(place.node_for(None), ClusterNode)
    assert isinstance(place.node_for(str(own.kubeconfig_path)), ClusterNode)
    other = tmp_path / "kubeconfig"
    other.write_text("{}")
    assert isinstance(place.node_for(str(other)), agent.RemoteNode)
    with pytest.raises(LabError, match="no such file"):
        place.node_for(str(tmp_path / "missing"))


def test_the_agent_is_a_privileged_pod_in_the_nodes_pid_and_network_namespaces_on_the_lab_node():
    spec = agent.agent_pod("lab-1", "node-b", "blackhole-lab/client:dev")["spec"]
    assert spec["nodeName"] == "node-b" and spec["hostPID"] and spec["hostNetwork"]
    [container] = spec["containers"]
    assert container["securityContext"] == {"privileged": True} and container["imagePullPolicy"] == "Never"
    assert spec["tolerations"] == [{"operator": "Exists"}]


def test_a_node_command_runs_in_pid_1s_namespaces_through_kubectl_exec():
    argv = agent.AgentShell("/k/kubectl", "/c/config", "lab-1").argv("ipvsadm -Ln")
    assert argv[:8] == ["/k/kubectl", "--kubeconfig", "/c/config", "-n", "lab-1", "exec", "-i", agent.AGENT]
    assert argv[argv.index("--") + 1:] == ["nsenter", "-t", "1", "-m", "-u", "-i", "-n", "-p", "--", "bash", "-c",
                                           "ipvsadm -Ln"]
    # the exec sessions that run() uses: the same exec into the agent, their loop in PID 1's namespaces
    sessions = agent.AgentShell("/k/kubectl", "/c/config", "lab-1").sessions
    assert sessions.transport == argv[:argv.index("--") + 1] and sessions.enter is True


class Nodes:
    def __init__(self, items):
        self.items = items

    def get(self, path):
        assert path == "/api/v1/nodes"
        return {"items": self.items}


def node(name, ready=True, unschedulable=False):
    return {"metadata": {"name": name}, "spec": {"unschedulable": unschedulable},
            "status": {"conditions": [{"type": "Ready", "status": "True" if ready else "False"}]}}


def test_the_lab_takes_the_first_ready_schedulable_node_unless_one_is_named(tmp_path, monkeypatch):
    monkeypatch.delenv("BLACKHOLE_NODE", raising=False)
    remote = agent.RemoteNode(tmp_path / "k")
    remote._api = Nodes([node("c"), node("a", ready=False), node("b", unschedulable=True), node("d")])
    assert remote.pinned_node() == "c"
    monkeypatch.setenv("BLACKHOLE_NODE", "d")
    assert agent.RemoteNode(tmp_path / "k").pinned_node() == "d"
    monkeypatch.delenv("BLACKHOLE_NODE")
    none_ready = agent.RemoteNode(tmp_path / "k")
    none_ready._api = Nodes([node("a", ready=False)])
    with pytest.raises(LabError, match="no Ready node"):
        none_ready.pinned_node()


def test_a_kernel_without_its_config_is_known_by_its_jiffies_over_two_seconds():
    from harness.lab.engine import hz_from_jiffies

    def read(hz, took_s=2.0, late_s=0.0):
        """Two samples of (now ns, jiffies) took_s apart, the second's jiffies read late_s after its clock."""
        start_ns, start_jiffies = 88986200328402, 4317138755
        return (f"{start_ns} {start_jiffies}\n"
                f"{start_ns + int(took_s * 1e9)} {start_jiffies + int((took_s + late_s) * hz)}\n")
    assert [hz_from_jiffies(read(hz)) for hz in (100, 250, 300, 1000)] == [100, 250, 300, 1000]
    assert hz_from_jiffies(read(250, late_s=0.12)) == 250           # a slow read, still 250 and not 300
    assert hz_from_jiffies(read(250, late_s=0.2)) is None           # 275 jiffies/s: neither, said as unknown
    assert hz_from_jiffies("") is None and hz_from_jiffies("awk: cannot open /proc/timer_list\n") is None
