"""A single-node Kubernetes cluster in a guest kernel (`make cluster-up`): pods from the lab's own
images, a pod's TCP sysctl where the node allows it and, where it does not, a refusal before
anything starts (cluster-check, from the kubelets' own configuration) that the kubelet's agrees
with, a Service through the cluster's kube-proxy in IPVS mode, and nothing left after
`make cluster-down`.
The witnesses are the cluster's own: the API server's pod status and logs, the kernel's sysctl as
the pod read it, the node's IPVS table (ipvsadm), and this host's process list."""
import json
import os
import subprocess
import sys

import pytest

from harness.lab.cluster.api import wait_for
from harness.lab.cluster.pods import CLIENT_IMAGE, WEB_IMAGE, pod, service
from harness.lab.compose import REPO
from tests.cluster.conftest import FIGURES, NAMESPACE, NOT_ALLOWED, POD_S, phase, wait_running

pytestmark = pytest.mark.cluster
WEB, CLIENT, FORBIDDEN = "web", "client", "forbidden"

CLIENT_SCRIPT = """
import json, socket, sys
retries2 = open("/proc/sys/net/ipv4/tcp_retries2").read().strip()
for attempt in range(60):
    try:
        s = socket.create_connection((sys.argv[1], 80), timeout=5)
        s.sendall(b"GET / HTTP/1.0\\r\\n\\r\\n")
        answer = b""
        while chunk := s.recv(4096):
            answer += chunk
        print(json.dumps({"tcp_retries2": retries2, "answer": answer.decode().split("\\r\\n\\r\\n", 1)[1].strip()}))
        sys.exit(0)
    except OSError as exc:
        error = str(exc)
        import time; time.sleep(2)
print(json.dumps({"tcp_retries2": retries2, "error": error}))
sys.exit(1)
"""


def test_a_service_through_kube_proxy_ipvs_reaches_a_pod_whose_client_has_its_own_tcp_retries2(node):
    api = node.api()
    state = node.state()
    assert all(state["timings"][k] > 0 for k in ("guest_s", "api_ready_s", "node_s", "total_s")), state
    api.create(f"{NAMESPACE}/pods", pod(WEB, WEB_IMAGE, labels={"app": WEB}))
    cluster_ip = api.create(f"{NAMESPACE}/services", service(WEB, {"app": WEB}, 80))["spec"]["clusterIP"]
    web_ip = wait_running(api, WEB, "web_pod_running_s")
    api.create(f"{NAMESPACE}/pods", pod(CLIENT, CLIENT_IMAGE, ["python3", "-c", CLIENT_SCRIPT, cluster_ip],
                                        sysctls={"net.ipv4.tcp_retries2": 5}))
    FIGURES["client_pod_done_s"] = wait_for("the client pod to finish",
                                            lambda: phase(api, CLIENT) in ("Succeeded", "Failed"), POD_S, poll_s=0.5)
    said = json.loads(api.request(f"{NAMESPACE}/pods/{CLIENT}/log").strip().splitlines()[-1])
    assert phase(api, CLIENT) == "Succeeded", said
    # the kernel's value in the pod's network namespace, set by the runtime from the pod's spec
    # (a new namespace starts at the kernel's 15)
    assert said["tcp_retries2"] == "5", said
    assert said["answer"] == WEB, said                  # nginx answers with its hostname: the pod's name
    # the node's own IPVS table: the Service's address, the web pod behind it
    table = node.guest_command(f"ipvsadm -Ln -t {cluster_ip}:80")
    assert f"{web_ip}:80" in table, table


def cluster_check(node, scenario_file):
    return subprocess.run([sys.executable, "-m", "harness", "cluster-check", str(scenario_file)], cwd=REPO,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "KUBECONFIG": str(node.kubeconfig_path)})


def scenario_with(tmp_path, cells):
    """lvs-switchover with these cells (YAML flow mappings)."""
    text = (REPO / "scenarios" / "lvs-switchover.yaml").read_text()
    path = tmp_path / "cells.yaml"
    path.write_text(text.replace("  - tcp_retries2: 15\n", "".join(f"  - {cell}\n" for cell in cells)))
    return path


def test_a_cell_the_node_does_not_allow_is_refused_before_anything_starts_as_the_kubelet_refuses_it(node, tmp_path):
    api = node.api()
    pods_before = [p["metadata"]["name"] for p in api.get(f"{NAMESPACE}/pods")["items"]]
    refused = cluster_check(node, scenario_with(tmp_path, ["{tcp_retries2: 5}",
                                                           "{tcp_retries2: 5, tcp_syn_linear_timeouts: 0}"]))
    print(refused.stdout + refused.stderr)
    assert refused.returncode == 2, refused
    [line] = [line for line in refused.stderr.splitlines() if "cell " in line]
    assert "cell r5-synlin0:" in line and f"{NOT_ALLOWED}=0" in line and "allowedUnsafeSysctls" in line, line
    # the node's setting as its kubelet reported it (/configz), not as this test asked for it
    assert "net.ipv4.tcp_retries2" in refused.stdout and NOT_ALLOWED not in refused.stdout, refused.stdout
    assert [p["metadata"]["name"] for p in api.get(f"{NAMESPACE}/pods")["items"]] == pods_before, "it started something"
    allowed = cluster_check(node, scenario_with(tmp_path, ["{tcp_retries2: 5}", "{tcp_keepalive_time: 30}"]))
    assert allowed.returncode == 0 and "lets all 2 cell(s) run" in allowed.stdout, allowed
    # The kubelet's own verdict on the refused cell's pod sysctls, and on one no cell can ask for.
    for name, sysctls, named in ((FORBIDDEN, {"net.ipv4.tcp_retries2": 5, NOT_ALLOWED: 0}, NOT_ALLOWED),
                                 (f"{FORBIDDEN}-sack", {"net.ipv4.tcp_sack": 0}, "net.ipv4.tcp_sack")):
        api.create(f"{NAMESPACE}/pods", pod(name, CLIENT_IMAGE, ["true"], sysctls=sysctls))
        FIGURES[f"{name}_refused_s"] = wait_for("the kubelet's verdict", lambda: phase(api, name) == "Failed", POD_S)
        status = api.get(f"{NAMESPACE}/pods/{name}")["status"]
        assert status.get("reason") == "SysctlForbidden", status
        assert named in status.get("message", ""), status
