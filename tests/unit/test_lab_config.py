import pytest
import yaml

from harness.lab import ClientCell, ComposeLab, HostEngine, LabError, resolve_datapath


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
    ComposeLab(project="unit", workdir=tmp_path / "lab", engine=EngineWithoutIpvs())
    assert not (tmp_path / "lab").exists()


def test_each_cell_becomes_a_client_service_with_its_own_sysctls(tmp_path):
    cells = [ClientCell("r5", (("net.ipv4.tcp_retries2", 5),)), ClientCell("r8", (("net.ipv4.tcp_retries2", 8),))]
    lab = ComposeLab(project="unit", cells=cells, workdir=tmp_path, engine=EngineWithoutIpvs())
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
