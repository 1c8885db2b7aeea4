"""What a cluster node is made of, prepared on this host: the Kubernetes programs
(scripts/ensure-kube.sh: built from the Go module proxy, once per machine) and the images its pods
run, both put into its guest's disk (guest/node_images.py); and, made afresh for each node and
pushed in as /opt/cluster, the API server's certificate and service-account key, a token, the
settings of the kubelet, containerd and the CNI bridge, and node-start (files/). Nothing is
pulled: the sandbox ("pause") image is built here from the lab's Debian base."""
import hashlib
import json
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...errors import LabError
from ...measure.sysctl_knobs import SYSCTL_KNOBS
from ...settings import machine
from ..compose import REPO
from ..images import LABEL

FILES = Path(__file__).resolve().parent / "files"
GUEST_DIR = "/opt/cluster"
API_PORT = 6443
SERVICE_RANGE = "10.96.0.0/24"
API_SERVICE_IP = "10.96.0.1"
POD_RANGE = "10.244.0.0/24"
GUEST_NODE_IP = "10.0.2.15"              # QEMU's user network gives the guest this address
NODE_NAME = "node"
TOKEN = "blackhole-lab-not-a-secret"     # reachable only on this host's loopback, through QEMU's forward
PAUSE_IMAGE = "blackhole-lab/pause:1"
PAUSE_BASE = "debian:bookworm-slim"
# The TCP knobs a cell sets, namespaced in the kernel but "unsafe" to kubelet (its safe set is a
# few port, ping and keepalive sysctls): a pod may set them only where the node allows them.
# The web servers' own (compose.yaml: a listen backlog that overflows only where a scenario asks).
SERVER_SYSCTLS = ("net.core.somaxconn", "net.ipv4.tcp_abort_on_overflow")
ALLOWED_UNSAFE_SYSCTLS = tuple(sorted({knob.sysctl for knob in SYSCTL_KNOBS.values()} | set(SERVER_SYSCTLS)))


def kube_programs() -> list[Path]:
    """The directories ensure-kube.sh built (or found) the programs in: the kube-proxy plane's
    (etcd, kube-apiserver, kube-proxy) and the rest of a node's."""
    found = []
    for programs in ("lab", "cluster"):
        result = subprocess.run([str(REPO / "scripts" / "ensure-kube.sh"), programs], capture_output=True, text=True)
        if result.returncode:
            raise LabError(f"cluster: building the Kubernetes programs ({programs}) failed: {result.stderr.strip()[-600:]}")
        found.append(Path(result.stdout.split()[-1]))
    return found


# Debian's, unpacked into the node's disk only (the lab's own guests do without them): kube-proxy's
# IPVS mode runs ipset; the pods' network is made by the CNI plugins.
DEBIAN_PACKAGES = ("ipset", "libipset13", "containernetworking-plugins")


def debian_packages() -> list[Path]:
    """The .deb files of DEBIAN_PACKAGES at this host's candidate versions (`apt-get download`),
    cached per machine."""
    cache = machine.cache_root() / "cluster" / "debs"
    cache.mkdir(parents=True, exist_ok=True)
    found = []
    for package in DEBIAN_PACKAGES:
        version = subprocess.run(["apt-cache", "policy", package], capture_output=True, text=True).stdout
        candidate = next((line.split()[1] for line in version.splitlines() if "Candidate:" in line), None)
        if candidate is None or candidate == "(none)":
            raise LabError(f"cluster: Debian's {package} has no candidate here (apt-get update?)")
        file_version = candidate.split(":")[-1]
        existing = sorted(cache.glob(f"{package}_{file_version}_*.deb"))
        if not existing:
            result = subprocess.run(["apt-get", "download", f"{package}={candidate}"], cwd=cache, capture_output=True,
                                    text=True, timeout=300)
            if result.returncode:
                raise LabError(f"cluster: apt-get download {package} failed: {result.stderr.strip()[-300:]}")
            existing = sorted(cache.glob(f"{package}_{file_version}_*.deb"))
        found += existing
    return found


def kubelet_config(allowed_unsafe_sysctls: Iterable[str] = ALLOWED_UNSAFE_SYSCTLS) -> dict[str, Any]:
    """KubeletConfiguration (JSON is YAML): no auth beyond loopback, cgroupfs (the guest has no
    systemd), eviction only near a full disk (the guest's overlay is small and short-lived)."""
    return {
        "apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration",
        "authentication": {"anonymous": {"enabled": True}, "webhook": {"enabled": False}},
        "authorization": {"mode": "AlwaysAllow"},
        "cgroupDriver": "cgroupfs", "containerRuntimeEndpoint": "unix:///run/containerd/containerd.sock",
        "failSwapOn": False, "resolvConf": "/etc/resolv.conf", "serializeImagePulls": False,
        "evictionHard": {"memory.available": "50Mi", "nodefs.available": "1%", "imagefs.available": "1%"},
        "imageGCHighThresholdPercent": 100, "imageGCLowThresholdPercent": 99,
        "allowedUnsafeSysctls": list(allowed_unsafe_sysctls),
    }


def cni_config() -> dict[str, Any]:
    """The pods' bridge. The firewall plugin lets a pod's own traffic and its answers through the
    node's FORWARD chain, whose policy the guest's dockerd sets to DROP: without it one pod reached
    another only through a Service (kube-proxy's rules accept that), and a replica never reached
    its primary."""
    return {"cniVersion": "0.4.0", "name": "pods", "plugins": [
        {"type": "bridge", "bridge": "cni0", "isGateway": True, "ipMasq": False, "hairpinMode": True,
         "ipam": {"type": "host-local", "ranges": [[{"subnet": POD_RANGE}]], "routes": [{"dst": "0.0.0.0/0"}]}},
        {"type": "portmap", "capabilities": {"portMappings": True}},
        {"type": "firewall", "backend": "iptables"}]}


def containerd_config() -> str:
    """containerd 1.6 (Debian's, in the guest): CRI on, Debian's CNI plugins, the local sandbox image."""
    return "\n".join([
        "version = 2",
        '[plugins."io.containerd.grpc.v1.cri"]',
        f'  sandbox_image = "docker.io/{PAUSE_IMAGE}"',
        '[plugins."io.containerd.grpc.v1.cri".cni]',
        '  bin_dir = "/usr/lib/cni"',
        '  conf_dir = "/etc/cni/net.d"', ""])


def kubeconfig(server: str, certificate_authority: str) -> dict[str, Any]:
    cluster = {"server": server, "certificate-authority": certificate_authority}
    return {"apiVersion": "v1", "kind": "Config", "current-context": "blackhole-lab",
            "clusters": [{"name": "blackhole-lab", "cluster": cluster}],
            "users": [{"name": "blackhole-lab", "user": {"token": TOKEN}}],
            "contexts": [{"name": "blackhole-lab", "context": {"cluster": "blackhole-lab", "user": "blackhole-lab"}}]}


def _openssl(directory: Path, *arguments: str) -> None:
    result = subprocess.run(["openssl", *arguments], cwd=directory, capture_output=True, text=True)
    if result.returncode:
        raise LabError(f"cluster: openssl {arguments[0]} failed: {result.stderr.strip()[-400:]}")


def prepare(directory: Path, allowed_unsafe_sysctls: Iterable[str] = ALLOWED_UNSAFE_SYSCTLS) -> Path:
    """What /opt/cluster holds besides bin/ (the programs, on the guest's disk: kube_programs), made
    afresh in directory: the keys, the settings, node-start."""
    directory = Path(directory)
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    _openssl(directory, "genrsa", "-out", "sa.key", "2048")
    _openssl(directory, "rsa", "-in", "sa.key", "-pubout", "-out", "sa.pub")
    _openssl(directory, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30", "-subj", "/CN=kube-apiserver",
             "-addext", f"subjectAltName=IP:127.0.0.1,IP:{GUEST_NODE_IP},IP:{API_SERVICE_IP},DNS:kubernetes",
             "-keyout", "apiserver.key", "-out", "apiserver.crt")
    (directory / "tokens.csv").write_text(f'{TOKEN},blackhole-lab,blackhole-lab,"system:masters"\n')
    (directory / "kubelet.json").write_text(json.dumps(kubelet_config(allowed_unsafe_sysctls), indent=1) + "\n")
    (directory / "10-pods.conflist").write_text(json.dumps(cni_config(), indent=1) + "\n")
    (directory / "containerd.toml").write_text(containerd_config())
    (directory / "kubeconfig").write_text(json.dumps(
        kubeconfig(f"https://127.0.0.1:{API_PORT}", certificate_authority=f"{GUEST_DIR}/apiserver.crt"), indent=1) + "\n")
    for name in ("node-start", "supervise"):
        shutil.copy(FILES / name, directory / name)
        (directory / name).chmod(0o755)
    return directory


PAUSE_DOCKERFILE = f'FROM {PAUSE_BASE}\nLABEL {LABEL}=1\nSTOPSIGNAL SIGKILL\nENTRYPOINT ["sleep", "infinity"]\n'


def build_pause_image() -> str:
    """The sandbox image: the lab's Debian base sleeping (a pod's sandbox holds its namespaces and
    runs nothing). Returns what it is built from (the Dockerfile, its base's id), for the disk's key."""
    result = subprocess.run(["docker", "build", "-q", "-t", PAUSE_IMAGE, "-"], input=PAUSE_DOCKERFILE,
                            capture_output=True, text=True, timeout=600)
    if result.returncode:
        raise LabError(f"cluster: building the sandbox image failed: {result.stderr.strip()[-400:]}")
    base = subprocess.run(["docker", "image", "inspect", "-f", "{{.Id}}", PAUSE_BASE], capture_output=True, text=True)
    return hashlib.sha256((PAUSE_DOCKERFILE + base.stdout.strip()).encode()).hexdigest()[:16]
