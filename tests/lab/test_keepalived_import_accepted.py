"""An operator's keepalived.conf (the worked example's, with its include) and the one the lab
generates from what it imported both pass `keepalived --config-test` in the director image; a
file keepalived refuses (an unknown keyword) fails the same check, so the check can fail."""
import subprocess
from pathlib import Path

import pytest

from harness.control.keepalived_conf import config
from harness.control.keepalived_settings import KeepalivedSettings
from harness.imports import keepalived_import

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "incident-0312"
IMAGE = "blackhole-lab/director:dev"
# keepalived checks that the interfaces it is told of exist: a veth pair stands in for them
STAND_IN = "ip link add eth0 type veth peer name eth1 && ip link set eth0 up && ip link set eth1 up"


def config_test(folder, name):
    return subprocess.run(
        ["docker", "run", "--rm", "--network", "none", "--cap-add", "NET_ADMIN", "--label", "org.blackhole-lab=1",
         "-v", f"{folder}:/conf:ro", "--entrypoint", "sh", IMAGE, "-c",
         f"{STAND_IN} && keepalived --config-test -f /conf/{name}"], capture_output=True, text=True, timeout=120)


def generated_from_import(tmp_path):
    imported = keepalived_import.read(EXAMPLE / "keepalived.conf")
    text = config(KeepalivedSettings(**imported.settings), "director", "10.213.1.10",
                  {"mysql": ("10.213.2.21", "10.213.2.22")}, vrrp=(True, "10.213.1.10", "10.213.2.9", "10.213.1.12"))
    (tmp_path / "generated.conf").write_text(text.replace("@FRONT_IF@", "eth0").replace("@BACK_IF@", "eth1"))
    return tmp_path


@pytest.mark.parametrize("which", ["imported", "generated"])
def test_keepalived_accepts_the_imported_file_and_the_one_generated_from_it(tmp_path, which):
    folder, name = (EXAMPLE, "keepalived.conf") if which == "imported" else (generated_from_import(tmp_path),
                                                                             "generated.conf")
    checked = config_test(folder, name)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_check_fails_a_file_keepalived_refuses(tmp_path):
    (tmp_path / "bad.conf").write_text("virtual_server 10.0.0.1 3306 {\n    no_such_keyword 3\n    protocol TCP\n"
                                       "    real_server 10.0.0.2 3306 {\n        TCP_CHECK {\n        }\n    }\n}\n")
    checked = config_test(tmp_path, "bad.conf")
    assert checked.returncode != 0 and "Unknown keyword 'no_such_keyword'" in checked.stdout + checked.stderr
