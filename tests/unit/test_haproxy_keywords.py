"""Every keyword HAProxy's configuration manual (2.6) documents for a defaults, listen or backend
section, and every server option, is in the importer's tables (harness/imports/haproxy_keywords.py);
each one, written into a backend of its own, is read as its table says."""
from pathlib import Path

import pytest

from harness.imports import haproxy_import, haproxy_keywords as table

DOCUMENTED = Path(__file__).parent / "fixtures" / "haproxy-2.6-keywords.txt"
PRIMARY = "  server a 10.0.0.1:3306 check inter 1s fall 3"
BACKUP = "  server b 10.0.0.2:3306 check backup"
PROXY_ARGS = {"mode": "tcp", "retries": "3", "timeout check": "2s", "timeout client": "30m", "timeout connect": "5s",
              "timeout server": "30m", "timeout tunnel": "1h", "srvtcpka-cnt": "3", "srvtcpka-idle": "5s",
              "srvtcpka-intvl": "1s", "default-server": "inter 2s", "bind": ":3306 tcp-ut 3s",
              "option mysql-check": "user haproxy"}
SERVER_ARGS = {"inter": "1s", "fastinter": "1s", "downinter": "1s", "fall": "3", "rise": "2", "tcp-ut": "3s",
               "on-marked-down": "shutdown-sessions", "on-marked-up": "shutdown-backup-sessions"}


def documented():
    found = {}
    for line in DOCUMENTED.read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, words = line.partition(": ")
            found[name] = [w.strip() for w in words.split(" | ")] if name == "proxy" else words.split()
    return found


def test_every_documented_keyword_is_classified():
    found = documented()
    assert [k for k in found["proxy"] if k not in table.PROXY] == []
    assert [k for k in found["server"] if k not in table.SERVER] == []
    assert (len(found["proxy"]), len(found["server"])) == (181, 99)      # the fixture read whole


PROXY_CASES = [k for k in table.PROXY if k != "server"]
SERVER_CASES = [k for k in table.SERVER if k not in ("backup", "no-check")]   # test_haproxy_import holds those two


@pytest.mark.parametrize("keyword", PROXY_CASES)
def test_each_section_keyword_is_read_as_its_table_says(keyword):
    text = f"listen db\n  {keyword} {PROXY_ARGS.get(keyword, 'x')}\n{PRIMARY}\n{BACKUP}\n"
    found = haproxy_import.interpret(text)
    verdict = table.PROXY[keyword][0]
    if verdict == table.USED:
        assert any(keyword.split()[-1] in line for line in found.used), found.used
    elif verdict == table.NO_BEARING:
        assert keyword in found.no_bearing
    else:
        assert any(line.startswith(f"haproxy.cfg:2: {keyword}") for line in found.not_modelled), found.not_modelled


@pytest.mark.parametrize("option", SERVER_CASES)
def test_each_server_option_is_read_as_its_table_says(option):
    said = option if option in table.SERVER_FLAGS else f"{option} {SERVER_ARGS.get(option, 'x')}"
    found = haproxy_import.interpret(f"backend db\n{PRIMARY} {said}\n{BACKUP}\n")
    verdict = table.SERVER[option][0]
    if verdict == table.USED:
        assert any(option in line for line in found.used), found.used
    elif verdict == table.NO_BEARING:
        assert f"server {option}" in found.no_bearing
    else:
        assert any(f"server ... {option}:" in line for line in found.not_modelled), found.not_modelled
