import pytest
import yaml

from harness import lab as lab_module
from harness.lab import ClientCell, Lab, LabError


def test_forcing_ipvs_on_a_kernel_without_it_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(lab_module, "host_has_ipvs", lambda: False)
    with pytest.raises(LabError, match="no IPVS"):
        lab_module.resolve_datapath("ipvs")
    assert lab_module.resolve_datapath("auto") == "nftables"


def test_unknown_datapath_is_rejected():
    with pytest.raises(LabError, match="LB_DATAPATH"):
        lab_module.resolve_datapath("ebpf")


def test_each_cell_becomes_a_client_service_with_its_own_sysctls(tmp_path, monkeypatch):
    monkeypatch.setattr(lab_module, "host_has_ipvs", lambda: False)
    cells = [ClientCell("r5", (("net.ipv4.tcp_retries2", 5),)), ClientCell("r8", (("net.ipv4.tcp_retries2", 8),))]
    lab = Lab(project="unit", cells=cells, workdir=tmp_path)
    services = yaml.safe_load((tmp_path / "compose.cells.yaml").read_text())["services"]
    assert set(services) == {"client-r5", "client-r8"}
    assert services["client-r5"]["sysctls"]["net.ipv4.tcp_retries2"] == "5"
    assert services["client-r8"]["labels"] == {"org.blackhole-lab": "1", "org.blackhole-lab.cell": "r8"}
    assert services["client-r5"]["networks"] == ["front"]
    assert "LB_DATAPATH=nftables" in (tmp_path / "lab.env").read_text()
    assert len(lab.docker.client_config.compose_files) == 2
