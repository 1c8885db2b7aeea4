"""The lab's programs as pods (harness/lab/cluster/pods.py): a cell's pod carries its sysctls as pod
sysctls and its socket options for libsockopts, and runs the probe with options the probe's own
parser (images/client/probe.py) reads as meant."""
import importlib.util

from harness.lab import REPO
from harness.lab.cluster import pods
from harness.load import probe
from harness.scenario.model import Cell


def probe_program():
    spec = importlib.util.spec_from_file_location("probe_program", REPO / "images" / "client" / "probe.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_cells_pod_has_its_sysctls_its_socket_options_and_the_probe_alone():
    cell = Cell("r5-ut3000-rt2", (("tcp_retries2", 5),), tcp_user_timeout_ms=3000, read_timeout_s=2)
    manifest = pods.probe_pod("probe-x", cell, "http", "10.96.0.7", 100, 900)
    spec = manifest["spec"]
    assert spec["securityContext"]["sysctls"] == [{"name": "net.ipv4.tcp_retries2", "value": "5"}]
    [container] = spec["containers"]
    assert container["image"] == pods.CLIENT_IMAGE and container["imagePullPolicy"] == "Never"
    env = {e["name"]: e["value"] for e in container["env"]}
    assert env == {"LD_PRELOAD": probe.SOCKOPTS_LIBRARY, "SOCKOPT_TCP_USER_TIMEOUT_MS": "3000"}
    command = container["command"]
    assert command[0] == "probe"
    args = probe_program().parse_args(command[1:])
    assert (args.proto, args.host, args.port, args.interval_ms, args.duration_s, args.read_timeout_s) == (
        "http", "10.96.0.7", 80, 100, 900, 2)
    assert not args.stop_on_eof, "a pod's stdin is closed: the probe would stop at once"
    assert manifest["metadata"]["labels"] == {"blackhole-lab/cell": "r5-ut3000-rt2"}


def test_a_cell_without_sysctls_or_options_asks_the_cluster_for_nothing():
    spec = pods.probe_pod("probe-d", Cell("default"), "mysql", "10.96.0.8", 100, 60)["spec"]
    assert "securityContext" not in spec
    assert [e["name"] for e in spec["containers"][0]["env"]] == ["LD_PRELOAD"]


def test_a_gated_pod_is_ready_only_while_the_lab_says_it_serves():
    spec = pods.pod("web-a", pods.WEB_IMAGE, labels={"app": "w"}, gated=True)["spec"]
    assert spec["readinessGates"] == [{"conditionType": pods.SERVING}]
    [condition] = pods.serving(False, "2026-11-27T02:00:00Z")["status"]["conditions"]
    assert (condition["type"], condition["status"]) == (pods.SERVING, "False")
    assert pods.serving(True, "2026-11-27T02:00:00Z")["status"]["conditions"][0]["status"] == "True"
    assert "readinessGates" not in pods.pod("web-b", pods.WEB_IMAGE)["spec"]
    assert pods.service("w", {"app": "w"}, 80)["spec"] == {"selector": {"app": "w"},
                                                          "ports": [{"port": 80, "targetPort": 80}]}
