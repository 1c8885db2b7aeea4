"""Every keyword keepalived.conf(5) documents in the blocks the lab reads is in the importer's table
(harness/imports/keepalived_keywords.py), and each one, written into a configuration of its own, is
read as its table says: used, named as having no bearing, named as not modelled. A keyword that is
not keepalived's is refused at its line with the nearest one."""
from pathlib import Path

import pytest

from harness.errors import InvalidInput
from harness.imports import keepalived_import, keepalived_keywords as table, keepalived_tree

DOCUMENTED = Path(__file__).parent / "fixtures" / "keepalived-2.2.7-keywords.txt"
ARGS = {"lvs_method": "NAT", "lb_kind": "NAT", "protocol": "TCP", "lvs_sched": "rr", "lb_algo": "rr",
        "sorry_server": "10.0.0.3 3306", "lvs_timeouts": "tcp 900", "lvs_sync_daemon": "eth0 v",
        "inhibit_on_failure": "", "nopreempt": "", "preempt": "", "delay_loop": "6", "connect_timeout": "3",
        "retry": "1", "nb_get_retry": "1", "delay_before_retry": "1", "misc_timeout": "3", "advert_int": "1"}
BASE = ("{globals}virtual_server 10.0.0.10 3306 {{\n{vs}\n sorry_server 10.0.0.2 3306\n real_server 10.0.0.1 3306 {{\n"
        "{rs}\n  {checker} {{\n{chk}\n  }}\n{after}\n }}\n}}\n")


def documented():
    sections = {}
    for line in DOCUMENTED.read_text().splitlines():
        if line and not line.startswith("#"):
            names, _, words = line.partition(": ")
            sections[names] = words.split()
    return sections


def test_every_documented_keyword_is_classified():
    sections = documented()
    missing = {"global_defs": [w for w in sections["global_defs"] if w not in table.GLOBAL_DEFS],
               "vrrp_instance": [w for w in sections["vrrp_instance"] if w not in table.VRRP_INSTANCE],
               "virtual_server": [w for w in sections["virtual_server real_server checker"]
                                  if not any(w in t for t in (table.VIRTUAL_SERVER, table.REAL_SERVER, table.CHECKER))]}
    assert not any(missing.values()), missing
    assert sum(len(words) for words in sections.values()) == 293        # the fixture read whole


def config_with(section, keyword):
    line = f"{keyword} {ARGS.get(keyword, 'x')}".rstrip()
    parts = {"globals": "", "vs": "", "rs": "", "checker": "TCP_CHECK", "chk": "", "after": ""}
    if section == "global_defs":
        parts["globals"] = f"global_defs {{\n {line}\n}}\n"
    elif section == "vrrp_instance":
        parts["globals"] = f"vrrp_instance v {{\n {line}\n}}\n"
    elif section == "virtual_server":
        parts["vs"] = f" {line}"
    elif keyword in table.CHECKERS:
        parts["checker"] = keyword
        parts["chk"] = '   misc_path "/bin/true"' if keyword == "MISC_CHECK" else ""
    elif keyword in table.OTHER_CHECKERS:
        parts["after"] = f"  {keyword} {{\n  }}"
    elif section == "real_server":
        parts["rs"] = f"  {line}"
    else:
        parts["checker"] = "MISC_CHECK" if keyword.startswith("misc") else "TCP_CHECK"
        parts["chk"] = f"   {line}" + ('\n   misc_path "/bin/true"' if keyword == "misc_timeout" else "")
    return BASE.format(**parts)


CASES = [(section, keyword, verdict) for section in table.SECTIONS
         for keyword, (verdict, _) in table.SECTIONS[section].items() if keyword != "real_server"]


@pytest.mark.parametrize(("section", "keyword", "verdict"), CASES, ids=[f"{s}-{k}" for s, k, _ in CASES])
def test_each_keyword_is_read_as_its_table_says(section, keyword, verdict):
    found = keepalived_import.interpret(keepalived_tree.parse_text(config_with(section, keyword), "k.conf"), "k.conf")
    if verdict == table.USED:
        assert any(keyword in line for line in found.used), found.used
    elif verdict == table.NO_BEARING:
        assert keyword in found.no_bearing and table.SECTIONS[section][keyword][1] in "\n".join(found.lines())
    else:
        assert any(f": {keyword}" in line for line in found.not_modelled), found.not_modelled


@pytest.mark.parametrize(("text", "says"), [
    (config_with("virtual_server", "dealy_loop"), r"k.conf:2: dealy_loop: not a keyword of keepalived.conf\(5\) in "
                                                  r"virtual_server \(keepalived 2.2.7\); did you mean delay_loop\?"),
    (config_with("checker", "conect_timeout"), "did you mean connect_timeout"),
    (config_with("real_server", "inhibit_on_failure").replace("inhibit_on_failure", "inhibit_on_failure maybe"),
     "inhibit_on_failure maybe: on, off"),
])
def test_a_keyword_that_is_not_keepalived_s_is_refused_at_its_line(text, says):
    with pytest.raises(InvalidInput, match=says):
        keepalived_import.interpret(keepalived_tree.parse_text(text, "k.conf"), "k.conf")


def test_inhibit_on_failure_off_is_off():
    text = config_with("real_server", "inhibit_on_failure").replace("inhibit_on_failure", "inhibit_on_failure off")
    assert keepalived_import.interpret(keepalived_tree.parse_text(text, "k.conf"), "k.conf").settings[
        "inhibit_on_failure"] is False
