"""A single-node Kubernetes cluster in a guest kernel (`make cluster-up`): pods from the lab's own
images, a pod's TCP sysctl where the node allows it and a refusal where it does not, a Service
through the cluster's kube-proxy in IPVS mode, and nothing left after `make cluster-down`.
The witnesses are the cluster's own: the API server's pod status and logs, the kernel's sysctl as
the pod read it, the node's IPVS table (ipvsadm), and this host's process list."""
import json
import time

import pytest

from harness.lab.cluster import ClusterNode
from harness.lab.cluster.api import wait_for
from harness.lab.compose import REPO
from harness.lab.guest.qemu import running_guests

pytestmark = pytest.mark.cluster
NAMESPACE = "/api/v1/namespaces/default"
WEB, CLIENT, FORBIDDEN = "web", "client", "forbidden"
POD_S = 600                 # created -> Running/Succeeded (TCG: the spike's pod took 13.5 s)

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


def pod(name, image, command=None, sysctls=None, labels=None):
    container = {"name": name, "image": image, "imagePullPolicy": "Never"}
    if command:
        container["command"] = command
    spec = {"containers": [container], "restartPolicy": "Never", "terminationGracePeriodSeconds": 1}
    if sysctls:
        spec["securityContext"] = {"sysctls": [{"name": k, "value": str(v)} for k, v in sysctls.items()]}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "labels": labels or {}}, "spec": spec}


FIGURES = {}                # what the tests measured, stored with the start's timings in results/bench/


@pytest.fixture(scope="module")
def node():
    node = ClusterNode(home=REPO / ".lab" / "cluster-test")
    guests_before = set(running_guests())
    try:
        node.up()
        yield node
        bench = REPO / "results" / "bench"
        bench.mkdir(parents=True, exist_ok=True)
        (bench / f"cluster-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}.json").write_text(
            json.dumps({"up": node.state(), "pods": FIGURES}, indent=1) + "\n")
    finally:
        node.down()
    assert set(running_guests()) <= guests_before, "the cluster's QEMU outlived cluster-down"
    assert not node.home.exists()


def phase(api, name):
    return api.get(f"{NAMESPACE}/pods/{name}")["status"].get("phase")


def test_a_service_through_kube_proxy_ipvs_reaches_a_pod_whose_client_has_its_own_tcp_retries2(node):
    api = node.api()
    state = node.state()
    assert all(state["timings"][k] > 0 for k in ("guest_s", "api_ready_s", "node_s", "total_s")), state
    api.create(f"{NAMESPACE}/pods", pod(WEB, "blackhole-lab/web:dev", labels={"app": WEB}))
    service = api.create(f"{NAMESPACE}/services", {
        "apiVersion": "v1", "kind": "Service", "metadata": {"name": WEB},
        "spec": {"selector": {"app": WEB}, "ports": [{"port": 80, "targetPort": 80}]}})
    cluster_ip = service["spec"]["clusterIP"]
    FIGURES["web_pod_running_s"] = wait_for("the web pod Running", lambda: phase(api, WEB) == "Running", POD_S,
                                            poll_s=0.5)
    web_ip = api.get(f"{NAMESPACE}/pods/{WEB}")["status"]["podIP"]
    api.create(f"{NAMESPACE}/pods", pod(CLIENT, "blackhole-lab/client:dev", ["python3", "-c", CLIENT_SCRIPT, cluster_ip],
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


def test_a_pod_asking_for_a_sysctl_the_node_does_not_allow_is_refused_by_the_kubelet(node):
    api = node.api()
    api.create(f"{NAMESPACE}/pods", pod(FORBIDDEN, "blackhole-lab/client:dev", ["true"],
                                        sysctls={"net.ipv4.tcp_sack": 0}))
    wait_for("the kubelet's verdict", lambda: phase(api, FORBIDDEN) == "Failed", POD_S)
    status = api.get(f"{NAMESPACE}/pods/{FORBIDDEN}")["status"]
    assert status.get("reason") == "SysctlForbidden", status
    assert "net.ipv4.tcp_sack" in status.get("message", ""), status
