"""The cluster node's settings (harness/lab/cluster/assets.py) and the guest's forwarded ports."""
from pathlib import Path

from harness.databases import DATABASES
from harness.lab.cluster import assets
from harness.lab.cluster.node import pod_images
from harness.lab.guest.qemu import Vm


def test_a_forwarded_guest_port_is_on_this_hosts_loopback_only():
    vm = Vm(Path("/tmp/x"), None, None, None, None, "tcg", forwards=(6443,))
    vm.port, vm.forwarded = 2222, {6443: 3333}
    vm.kernel = type("K", (), {"vmlinuz": "/k"})()
    [netdev] = [arg for arg in vm.command() if arg.startswith("user,")]
    assert netdev.split(",")[2:] == ["restrict=on", "hostfwd=tcp:127.0.0.1:2222-:22", "hostfwd=tcp:127.0.0.1:3333-:6443"]


def test_pods_get_the_clients_the_web_servers_and_the_chosen_database_engine():
    assert pod_images("mysql") == ["blackhole-lab/client:dev", "blackhole-lab/web:dev", DATABASES["mysql"].image]
    assert pod_images("mariadb")[-1] == DATABASES["mariadb"].image != DATABASES["mysql"].image


def test_the_kubeconfig_names_its_server_its_token_and_the_certificate_to_trust():
    config = assets.kubeconfig("https://127.0.0.1:4444", certificate_authority="/c/apiserver.crt")
    [cluster], [user] = config["clusters"], config["users"]
    assert cluster["cluster"] == {"server": "https://127.0.0.1:4444", "certificate-authority": "/c/apiserver.crt"}
    assert user["user"]["token"] == assets.TOKEN
    assert config["contexts"][0]["context"] == {"cluster": cluster["name"], "user": user["name"]}


def test_containerds_sandbox_is_the_image_the_node_imports():
    assert f'sandbox_image = "docker.io/{assets.PAUSE_IMAGE}"' in assets.containerd_config()
    assert "net.ipv4.tcp_retries2" in assets.kubelet_config()["allowedUnsafeSysctls"]
