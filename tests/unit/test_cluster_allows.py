"""What a cluster lets a cell do (harness/lab/cluster/allows.py), held to Kubernetes' own source: the
kubelet's safe sysctls as v1.34.2 lists them (the version scripts/ensure-kube.sh builds, from the
Go module proxy), and its pattern matching."""
import base64
import json
import re
import subprocess
from pathlib import Path

import pytest

from harness.errors import LabError
from harness.lab.cluster import allows
from harness.lab.cluster.api import KubeApi
from harness.scenario.model import Cell

KUBERNETES = re.search(r"^KUBERNETES=(\S+)", (Path(__file__).parents[2] / "scripts" / "ensure-kube.sh").read_text(),
                       re.M).group(1)
R5 = Cell("r5", (("tcp_retries2", 5),))
KEEPALIVE = Cell("kt30", (("tcp_keepalive_time", 30),))
SYNLIN = Cell("r5-synlin0", (("tcp_retries2", 5), ("tcp_syn_linear_timeouts", 0)))


def kubernetes_source(path):
    """A file of the Kubernetes source the cluster's programs are built from (fetched from the Go
    module proxy where this machine has not built them yet)."""
    found = subprocess.run(["go", "mod", "download", "-json", f"k8s.io/kubernetes@{KUBERNETES}"], cwd="/",
                           capture_output=True, text=True, timeout=900)
    assert found.returncode == 0, found.stderr
    return (Path(json.loads(found.stdout)["Dir"]) / path).read_text()


def test_the_safe_set_is_kubernetes_own():
    source = kubernetes_source("pkg/kubelet/sysctl/safe_sysctls.go")
    listed = source.split("var safeSysctls = []sysctl{", 1)[1].split("\n}\n", 1)[0]
    assert set(re.findall(r'name:\s+"([^"]+)"', listed)) == set(allows.SAFE_SYSCTLS)


def test_a_node_allows_its_safe_set_its_exact_names_and_its_prefixes():
    node = allows.NodeAllows("n", ("net.ipv4.tcp_retries2", "net.ipv4.tcp_syn*"))
    assert node.allows("net.ipv4.tcp_keepalive_time")                     # safe: needs nothing
    assert node.allows("net.ipv4.tcp_retries2") and node.allows("net/ipv4/tcp_retries2")
    assert node.allows("net.ipv4.tcp_syn_linear_timeouts") and node.allows("net.ipv4.tcp_syn_retries")
    assert not node.allows("net.ipv4.tcp_retries1") and not node.allows("net.ipv4.tcp_rto_max_ms")
    assert not allows.NodeAllows("n", ()).allows("net.ipv4.tcp_retries2")


def test_a_refused_cell_gets_one_line_naming_the_kubelet_setting():
    node = allows.NodeAllows("node", ("net.ipv4.tcp_retries2",))
    assert allows.refusals([R5, KEEPALIVE], [node]) == []
    [line] = allows.refusals([R5, SYNLIN], [node])
    assert line.startswith("cell r5-synlin0: ") and "net.ipv4.tcp_syn_linear_timeouts=0" in line
    assert "allowedUnsafeSysctls" in line and "--allowed-unsafe-sysctls" in line and "net.ipv4.tcp_retries2" in line
    # one node that allows it is enough for the cell's pod to run there
    assert allows.refusals([SYNLIN], [node, allows.NodeAllows("other", ("net.ipv4.*",))]) == []
    assert allows.refusals([R5], []) == ["the cluster has no node to run a pod on"]


def test_a_kubeconfig_with_a_token_and_inline_ca_data(tmp_path):
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=t",
                    "-keyout", str(tmp_path / "k.key"), "-out", str(tmp_path / "ca.crt")], check=True, capture_output=True)
    data = base64.b64encode((tmp_path / "ca.crt").read_bytes()).decode()
    config = {"apiVersion": "v1", "current-context": "c", "contexts": [{"name": "c", "context": {"cluster": "k", "user": "u"}}],
              "clusters": [{"name": "k", "cluster": {"server": "https://127.0.0.1:1/", "certificate-authority-data": data}}],
              "users": [{"name": "u", "user": {"token": "t"}}]}
    path = tmp_path / "kubeconfig"
    path.write_text(json.dumps(config))
    api = KubeApi.from_kubeconfig(path)
    assert (api.server, api.token) == ("https://127.0.0.1:1", "t")
    assert (tmp_path / ".kubeconfig.ca.crt").read_bytes() == (tmp_path / "ca.crt").read_bytes()
    del config["users"][0]["user"]["token"]
    path.write_text(json.dumps(config))
    with pytest.raises(LabError, match="bearer token"):
        KubeApi.from_kubeconfig(path)
    path.write_text("current-context: nowhere\n")
    with pytest.raises(LabError, match="no usable current context"):
        KubeApi.from_kubeconfig(path)


def test_a_pods_sysctl_no_node_allows_is_named_with_the_setting():
    nodes = [allows.NodeAllows("node", ("net.ipv4.tcp_retries2",))]
    assert allows.pod_refusals(nodes, {"web-a": {"net.core.somaxconn": "4096", "net.ipv4.tcp_syncookies": "1"},
                                       "client-r5": {"net.ipv4.tcp_retries2": "5"}}) == [
        "no node lets pod web-a set net.core.somaxconn: add it to the kubelet's allowedUnsafeSysctls "
        "(--allowed-unsafe-sysctls)"]
