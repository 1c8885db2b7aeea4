import pytest
import yaml

from harness.lab import ClientCell, ComposeLab, HostEngine, LabError, LabRequest, netns_cells, resolve_datapath


class EngineWithoutIpvs(HostEngine):
    def has_ipvs(self):
        return False


def test_forcing_ipvs_on_a_kernel_without_it_is_a_clear_error():
    with pytest.raises(LabError, match="no IPVS"):
        resolve_datapath("ipvs", has_ipvs=False)
    assert resolve_datapath("auto", has_ipvs=False) == "nftables"
    assert resolve_datapath("auto", has_ipvs=True) == "ipvs"


def test_unknown_datapath_is_rejected():
    with pytest.raises(LabError, match="LB_DATAPATH"):
        resolve_datapath("ebpf", has_ipvs=True)


def test_constructing_a_lab_touches_nothing(tmp_path):
    ComposeLab(LabRequest(project="unit", workdir=tmp_path / "lab"), engine=EngineWithoutIpvs())
    assert not (tmp_path / "lab").exists()


def test_each_cell_becomes_a_client_service_with_its_own_sysctls(tmp_path):
    cells = [ClientCell("r5", (("net.ipv4.tcp_retries2", 5),)), ClientCell("r8", (("net.ipv4.tcp_retries2", 8),))]
    lab = ComposeLab(LabRequest(project="unit", cells=cells, workdir=tmp_path), engine=EngineWithoutIpvs())
    files = lab.compose_files()
    services = yaml.safe_load((tmp_path / "compose.cells.yaml").read_text())["services"]
    assert set(services) == {"client-r5", "client-r8"}
    assert services["client-r5"]["sysctls"]["net.ipv4.tcp_retries2"] == "5"
    assert services["client-r8"]["labels"] == {"org.blackhole-lab": "1", "org.blackhole-lab.owner": "${LAB_OWNER:-}",
                                               "org.blackhole-lab.cell": "r8"}
    assert services["client-r5"]["networks"] == ["front"]
    assert len(files) == 2
    assert lab.docker.client_config.compose_files == files
    env = (tmp_path / "lab.env").read_text()
    assert "LB_DATAPATH=nftables" in env


def test_cells_in_network_namespaces_share_one_client_container_with_the_capabilities_it_needs(tmp_path):
    cells = [ClientCell("r5", (("net.ipv4.tcp_retries2", 5),)), ClientCell("r8", (("net.ipv4.tcp_retries2", 8),))]
    lab = ComposeLab(LabRequest(project="unit", cells=cells, workdir=tmp_path, cell_namespaces="netns", servers=("db-primary",)), engine=EngineWithoutIpvs())
    lab.compose_files()
    services = yaml.safe_load((tmp_path / "compose.cells.yaml").read_text())["services"]
    assert list(services) == [netns_cells.HOST_SERVICE]
    assert set(services[netns_cells.HOST_SERVICE]["cap_add"]) == {"NET_ADMIN", "SYS_ADMIN"}
    # the CPU weight of the two containers it stands for, at most the director's and servers' together
    assert services[netns_cells.HOST_SERVICE]["cpu_shares"] == 2 * 1024
    assert netns_cells.cpu_shares(100, 3) == 3 * 1024 and netns_cells.cpu_shares(0, 3) == 1024
    assert lab.shape.started() == ["director", "db-primary", netns_cells.HOST_SERVICE]
    with pytest.raises(LabError, match="cell namespaces must be one of"):
        ComposeLab(LabRequest(project="unit", cells=cells, cell_namespaces="vm"), engine=EngineWithoutIpvs())


def test_network_namespaces_get_addresses_below_dockers_range_and_refuse_past_it():
    addresses = netns_cells.plan(["r5", "r8", "r5"], "10.213.4")
    assert addresses == {"r5": "10.213.4.20", "r8": "10.213.4.21"}
    assert max(int(a.rsplit(".", 1)[1]) for a in netns_cells.plan(map(str, range(100)), "10.0.0").values()) < 128
    with pytest.raises(ValueError, match="at most 100"):
        netns_cells.plan(map(str, range(101)), "10.0.0")


def test_each_namespace_starts_from_a_client_containers_sysctls_then_its_own():
    script = netns_cells.setup_script([("r5", (("net.ipv4.tcp_retries2", 5),)), ("default", ())],
                                      {"r5": "10.0.0.20", "default": "10.0.0.21"}, ["net.ipv4.tcp_retries2"])
    lines = script.splitlines()
    assert "inherited_net_ipv4_tcp_retries2=$(sysctl -n net.ipv4.tcp_retries2)" in lines
    [r5_sysctls] = [line for line in lines if line.startswith("ip netns exec r5 ")]
    [default_sysctls] = [line for line in lines if line.startswith("ip netns exec default ")]
    assert "net.ipv4.tcp_retries2=5" in r5_sysctls and "inherited" not in r5_sysctls
    assert "net.ipv4.tcp_retries2=${inherited_net_ipv4_tcp_retries2}" in default_sysctls
    assert "ip -n r5 addr add 10.0.0.20/24 dev eth0" in lines
    assert netns_cells.command_in("r5", ["ss", "-tin"]) == ["nsenter", "--net=/run/netns/r5", "--", "ss", "-tin"]
