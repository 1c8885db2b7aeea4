"""The blackhole through the cluster's own kube-proxy (IPVS): client pods hold keep-alive
connections to a Service; the pod behind it is cut off silently (its stack stops answering, as a
hung or partitioned server's) and its readiness turned off, as its failing readiness probe would.
Its endpoint turns not ready and kube-proxy takes it out, but graceful termination keeps it in the
IPVS table at weight 0 while the blackholed connections last. Each client waits for its own
kernel, then reconnects to the pod that is left. (The pod is not deleted during the hang: its
address gone from the node's bridge, the node would answer the retransmissions with ICMP host
unreachable, which is not silent.)
The witnesses are outside the harness: docs/facts/kernel.md's ranges, counted from each client's own
failed send; the node's IPVS table (ipvsadm); the pods' names as nginx answers them."""
import re
import time

import pytest

from harness.lab.cluster import pod_network
from harness.lab.cluster.api import wait_for
from harness.lab.cluster.pods import WEB_IMAGE, pod, probe_pod, service, serving
from harness.measure import probe_log, recovery
from harness.scenario.model import Cell
from tests.cluster.conftest import FIGURES, NAMESPACE, POD_S, wait_running
from tests.kernel_facts import SEND_STAMP_S, assert_within, blackhole_bounds, user_timeout_bounds

pytestmark = pytest.mark.cluster
SERVICE, OLD, NEW = "web-bh", "web-bh-a", "web-bh-b"
R5 = Cell("r5", (("tcp_retries2", 5),))
R5_UT3000 = Cell("r5-ut3000", (("tcp_retries2", 5),), tcp_user_timeout_ms=3000)
CELLS = (R5, R5_UT3000)
PROBE_S = 900                # each probe's own limit: pods start slowly under TCG
ANSWERS_BEFORE = 20          # operations each client completes on the old pod before the cut
AFTER_CUT_S = 120            # the fault to every client back (r5: ~13 s; TCG slows the reconnect)


def pod_name(cell):
    return f"probe-{cell.name}"


def operations(api, cell):
    return probe_log.parse(api.request(f"{NAMESPACE}/pods/{pod_name(cell)}/log"))


def set_serving(api, name, ready):
    api.patch(f"{NAMESPACE}/pods/{name}/status", serving(ready, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))


def endpoint_ready(api, address):
    """The ready condition of the endpoint with this address in the Service's EndpointSlices (None: none has it)."""
    slices = api.get(f"/apis/discovery.k8s.io/v1/namespaces/default/endpointslices"
                     f"?labelSelector=kubernetes.io/service-name%3D{SERVICE}")["items"]
    for endpoint in (e for s in slices for e in s.get("endpoints") or ()):
        if address in endpoint["addresses"]:
            return endpoint.get("conditions", {}).get("ready")
    return None


def base_rto_s(node, client_ip, cluster_ip):
    """The RTO the client's kernel holds for its connection to the Service (ss, in its pod's namespace)."""
    shown = pod_network.run_in(node.shell(), client_ip, f"ss -tin dst {cluster_ip}")
    rto = re.search(r"\brto:([\d.]+)", shown)
    assert rto, shown
    return float(rto.group(1)) / 1000


def test_a_pod_cut_off_and_made_not_ready_blackholes_each_client_until_its_kernel_gives_up(node):
    api = node.api()
    api.create(f"{NAMESPACE}/pods", pod(OLD, WEB_IMAGE, labels={"app": SERVICE}, gated=True))
    cluster_ip = api.create(f"{NAMESPACE}/services", service(SERVICE, {"app": SERVICE}, 80))["spec"]["clusterIP"]
    old_ip = wait_running(api, OLD, "blackhole_old_pod_running_s")
    set_serving(api, OLD, True)
    for cell in CELLS:
        api.create(f"{NAMESPACE}/pods", probe_pod(pod_name(cell), cell, "http", cluster_ip, 100, PROBE_S))
    client_ips = {cell.name: wait_running(api, pod_name(cell), f"blackhole_{cell.name}_running_s") for cell in CELLS}
    wait_for("every client answered by the old pod", lambda: all(
        sum(op["ok"] and op["server"] == OLD for op in operations(api, cell)) >= ANSWERS_BEFORE for cell in CELLS),
        POD_S)
    # The second pod joins only now: every client's connection is to the old one.
    api.create(f"{NAMESPACE}/pods", pod(NEW, WEB_IMAGE, labels={"app": SERVICE}, gated=True))
    new_ip = wait_running(api, NEW, "blackhole_new_pod_running_s")
    set_serving(api, NEW, True)
    wait_for("kube-proxy to add the new pod", lambda: f"{new_ip}:80" in node.guest_command(
        f"ipvsadm -Ln -t {cluster_ip}:80"), 120)
    rtos = {cell.name: base_rto_s(node, client_ips[cell.name], cluster_ip) for cell in CELLS}
    # the socket option reached the client's socket, as its kernel reads it back
    connected = [r for r in probe_log.records(api.request(f"{NAMESPACE}/pods/{pod_name(R5_UT3000)}/log"))
                 if "connected" in r]
    assert connected and connected[0]["sockopts"].get("tcp_user_timeout_ms") == 3000, connected[:1]

    started, t_fault, _ = pod_network.cut_silently(node.shell(), old_ip, 80)
    cut = time.monotonic()
    set_serving(api, OLD, False)
    FIGURES["blackhole_cut_took_s"] = round(t_fault - started, 3)
    # The endpoint controller's answer, then kube-proxy's: the old pod kept at weight 0 while its
    # flows remain
    FIGURES["blackhole_endpoint_not_ready_s"] = wait_for(
        "the EndpointSlice to say the old pod is not ready", lambda: endpoint_ready(api, old_ip) is not True, 120,
        poll_s=0.5)
    weight_zero = re.compile(rf"{re.escape(old_ip)}:80\s+\S+\s+0\s+[1-9]")
    table = {}

    def drained():
        table["shown"] = node.guest_command(f"ipvsadm -Ln -t {cluster_ip}:80")
        return bool(weight_zero.search(table["shown"]))
    FIGURES["blackhole_kube_proxy_weight0_s"] = wait_for("kube-proxy to set the old pod's weight to 0", drained, 120,
                                                         poll_s=0.5)
    FIGURES["blackhole_weight0_after_cut_s"] = round(time.monotonic() - cut, 1)
    assert f"{new_ip}:80" in table["shown"], table["shown"]

    outcomes = {}

    def all_back():
        for cell in CELLS:
            outcomes[cell.name] = recovery.probe_outcome(operations(api, cell), t_fault)
        return all(o.recover_s is not None for o in outcomes.values())
    wait_for("every client back on the new pod", all_back, AFTER_CUT_S, poll_s=2)
    FIGURES["blackhole"] = {name: {**o.__dict__, "base_rto_s": rtos[name]} for name, o in outcomes.items()}
    print(FIGURES["blackhole"], table["shown"])
    for cell, bounds in ((R5, blackhole_bounds(5, SEND_STAMP_S, rtos["r5"])),
                         (R5_UT3000, user_timeout_bounds(3.0, SEND_STAMP_S))):
        outcome = outcomes[cell.name]
        assert outcome.server_before == OLD and outcome.server_after == NEW, outcome
        assert outcome.error, outcome
        assert_within(outcome.stall_s, bounds, f"{cell.name} in the cluster (from its failed send; "
                                               f"{outcome.detect_s} s after the cut)")
    assert outcomes["r5-ut3000"].detect_s < outcomes["r5"].detect_s
    for name in (OLD, NEW, *map(pod_name, CELLS)):
        api.delete(f"{NAMESPACE}/pods/{name}", grace_period_s=0)
