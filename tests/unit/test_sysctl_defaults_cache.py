import json

from harness.lab.engine import HostEngine


def test_the_kernels_defaults_are_read_once_per_boot_and_then_from_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv("BLACKHOLE_STATE", str(tmp_path / "labs"))
    first = HostEngine().sysctl_defaults()
    assert first["tcp_retries2"] == "15"                   # a new namespace starts from the kernel's default
    [cache] = tmp_path.glob("sysctl-defaults-*.json")
    cache.write_text(json.dumps({**first, "tcp_retries2": "4"}))
    assert HostEngine().sysctl_defaults()["tcp_retries2"] == "4"     # the file, not a new namespace
