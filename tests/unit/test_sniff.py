"""An incident's folder as the operator has it: files known by their content whatever their names
(harness/imports/sniff.py, imports.from_dir), what is not read named with what it looks like."""
import shutil
from pathlib import Path

import pytest

from harness import imports
from harness.errors import InvalidInput
from harness.imports import sniff

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "incident-0312"
KEEPALIVED_MAIN = "global_defs {\n router_id lb1\n}\ninclude vs-mysql.conf\n"
KEEPALIVED_VS = ("virtual_server 10.20.0.10 3306 {\n delay_loop 60\n lb_algo rr\n lb_kind NAT\n protocol TCP\n"
                 " real_server 10.20.1.21 3306 {\n  TCP_CHECK {\n   connect_timeout 5\n  }\n }\n}\n")


def operators_folder(tmp_path):
    shutil.copy(EXAMPLE / "sysctl.txt", tmp_path / "sysctl-a.txt")
    (tmp_path / "client.txt").write_text("# orders-api, from its application.yml\n"
                                         "jdbc:mysql://db-vip:3306/orders?connectTimeout=5000\n")
    (tmp_path / "lb.conf").write_text(KEEPALIVED_MAIN)
    (tmp_path / "vs-mysql.conf").write_text(KEEPALIVED_VS)
    (tmp_path / "timeline.yml").write_text("backend_died: 2026-03-12T03:12:04Z\napp_recovered: 2026-03-12T03:28:02Z\n")
    (tmp_path / "notes.txt").write_text("the on-call's notes: primary froze, no RST seen\n")
    return tmp_path


def test_each_file_is_read_by_what_it_holds_whatever_its_name(tmp_path):
    incident = imports.from_dir(str(operators_folder(tmp_path)))
    assert dict(incident.sysctl.cell)["tcp_retries2"] == 15 and incident.driver.client == "jdbc"
    assert incident.keepalived is not None and incident.incident_times.get("recovered") == 958
    lines = incident.lines()
    for name, what in (("sysctl-a.txt", "a sysctl -a dump"), ("client.txt", "connection strings"),
                       ("lb.conf", "a keepalived.conf"), ("timeline.yml", "a timeline")):
        assert f"{tmp_path}/{name}: read as {what}" in "\n".join(lines), name
    # the file lb.conf includes is part of it, not a second keepalived.conf
    assert not any("vs-mysql.conf: read as" in line for line in lines)
    assert any(line.startswith(f"{tmp_path}/notes.txt: not read: none of the formats") for line in lines)


def test_two_files_of_one_kind_are_refused_by_name(tmp_path):
    operators_folder(tmp_path)
    shutil.copy(EXAMPLE / "sysctl.txt", tmp_path / "sysctl-db.txt")
    with pytest.raises(InvalidInput, match="sysctl-a.txt and sysctl-db.txt are each a sysctl -a dump: one at a time"):
        imports.from_dir(str(tmp_path))


def test_a_folder_with_nothing_the_lab_reads_says_what_each_file_looks_like(tmp_path):
    (tmp_path / "blob.bin").write_bytes(b"\x00\x01\x02")
    (tmp_path / "app.log").write_text("jdbc:mysql://db/app\nERROR Communications link failure\n")
    with pytest.raises(InvalidInput) as refused:
        imports.from_dir(str(tmp_path))
    said = str(refused.value)
    assert "app.log: connection strings mixed with other lines" in said and "blob.bin: binary data" in said


@pytest.mark.parametrize("text, reader", [
    ("net.ipv4.tcp_retries2 = 15\nkernel.osrelease = 6.12.1\n", "sysctl.txt"),
    (KEEPALIVED_VS, "keepalived.conf"),
    ("defaults\n mode tcp\nbackend db\n server a 10.0.0.1:3306 check\n", "haproxy.cfg"),
    ("jdbcUrl=jdbc:mysql://db/app\nmaximumPoolSize=10\n", "hikari.properties"),
    ("# a comment\nuser:pw@tcp(db:3306)/app?readTimeout=2s\n", "driver.url"),
    ("[client]\nread-timeout=3\n", "my.cnf"),
    ('{"connectTimeout": 10000}', "mysql2.json"),
    ("died: 03:12\nrecovered: 03:28\n", "incident.yaml"),
    ("hello\n", None),
])
def test_each_format_by_its_marks(text, reader):
    assert sniff.kind(text)[0] == reader
