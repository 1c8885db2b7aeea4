"""The operator's files: a sysctl -a dump and a driver's connection string, read as their
documentation writes them (the examples below are the documentation's own), every parameter used
or named, malformed input refused with file:line, and fuzzed: never a traceback."""
import random
import re
import string
from pathlib import Path

import pytest

from harness import imports
from harness.errors import InvalidInput
from harness.imports import driver_url, sysctl_dump
from harness.answer import explain

REPO = Path(__file__).resolve().parents[2]
# sysctl(8): `sysctl -a` prints `key = value`; unreadable keys as `sysctl: permission denied on key ...`
DUMP = """kernel.osrelease = 6.1.0-28-amd64
net.ipv4.tcp_retries2 = 5
net.ipv4.tcp_syn_retries = 6
net.ipv4.vs.expire_nodest_conn = 1
net.ipv4.tcp_fin_timeout = 60
net.ipv4.tcp_rmem = 4096	131072	6291456
net.core.somaxconn = 4096
vm.swappiness = 60
sysctl: permission denied on key 'net.ipv6.conf.all.stable_secret'
"""


def test_a_dump_gives_the_cells_knobs_the_directors_and_names_the_rest():
    dump = sysctl_dump.parse(DUMP, "dump.txt")
    assert dump.kernel_release == "6.1.0-28-amd64"
    assert dump.cell == (("tcp_retries2", 5), ("tcp_syn_retries", 6))
    assert dump.director == (("EXPIRE_NODEST_CONN", 1),)
    assert [key for key, _ in dump.not_modelled] == ["net.ipv4.tcp_fin_timeout", "net.core.somaxconn"]
    assert [key for key, _ in dump.no_bearing] == ["net.ipv4.tcp_rmem"] and dump.others == 1
    assert dump.notes == ("permission denied on key 'net.ipv6.conf.all.stable_secret'",)
    text = "\n".join(dump.lines())
    assert "not modelled (2): net.ipv4.tcp_fin_timeout, net.core.somaxconn" in text


@pytest.mark.parametrize("line, says", [
    ("net.ipv4.tcp_retries2 15", "dump.txt:2: 'net.ipv4.tcp_retries2 15': not `key = value`"),
    ("net.ipv4.tcp_retries2 = 0", "dump.txt:2: net.ipv4.tcp_retries2: 0 is outside what the kernel takes (1-255)"),
    ("net.ipv4.tcp_retries2 = five", "dump.txt:2: net.ipv4.tcp_retries2: 'five' is not a whole number"),
    # a key twice (an edited dump): the answer would move from 938 s to 13 s on which line came last
    ("net.ipv4.tcp_retries2 = 15\nnet.ipv4.tcp_retries2 = 5",
     "dump.txt:3: net.ipv4.tcp_retries2: set again (line 2: '15' there, '5' here)"),
    ("kernel.osrelease = 6.12.1", "dump.txt:2: kernel.osrelease: set again (line 1: the same value)"),
])
def test_a_malformed_dump_line_is_refused_with_file_and_line(line, says):
    with pytest.raises(InvalidInput, match=f"^{re.escape(says)}"):
        sysctl_dump.parse(f"kernel.osrelease = 6.12.1\n{line}\n", "dump.txt")


@pytest.mark.parametrize("url, client, used, not_modelled", [
    # Connector/J's manual, "Connection URL Syntax"
    ("jdbc:mysql://localhost:3306/sakila?profileSQL=true", "jdbc", (), ("profileSQL",)),
    ("jdbc:mysql://db:3306/app?socketTimeout=3000&connectTimeout=1000&tcpKeepAlive=false", "jdbc",
     (("socketTimeout", 3000), ("connectTimeout", 1000), ("tcpKeepAlive", False)), ()),
    ("jdbc:mysql:loadbalance://a:3306,b:3306/app?socketTimeout=500", "jdbc", (("socketTimeout", 500),), ("hosts",)),
    # go-sql-driver/mysql's README, "DSN (Data Source Name)"
    ("user:password@tcp(localhost:5555)/dbname?tls=skip-verify&autocommit=true", "go", (), ("tls", "autocommit")),
    ("user:password@/dbname", "go", (), ()),
    ("id:password@tcp(your-amazonaws-uri.com:3306)/dbname?readTimeout=2s&timeout=1s", "go",
     (("readTimeout", "2s"), ("timeout", "1s")), ()),
    # SQLAlchemy's MySQL dialect page (PyMySQL)
    ("mysql+pymysql://scott:tiger@localhost/foo?charset=utf8mb4&read_timeout=3", "pymysql",
     (("read_timeout_s", 3.0),), ("charset",)),
])
def test_a_connection_string_names_its_client_and_each_parameter(url, client, used, not_modelled):
    found = driver_url.parse(url)
    assert found.client == client and found.settings + found.cell == used
    assert tuple(name for name, _ in found.not_modelled) == not_modelled


@pytest.mark.parametrize("url, says", [
    ("user@unix(/path/to/socket)/dbname", "the lab's clients connect over TCP"),
    ("jdbc:mysql://db/app?socketTimeout=soon", "jdbc's socketTimeout takes a whole number"),
    ("mysql+mysqldb://scott:tiger@localhost/foo", "the zoo's Python client is PyMySQL"),
    ("postgres://x", "not a JDBC URL"),
    ("", "empty"),
    # a near miss of a setting the lab reads, refused as on the command line (read as not modelled,
    # the answer would be the driver's default's: no read timeout)
    ("jdbc:mysql://db/app?socketTimout=3000", "socketTimout=3000: not a setting of MySQL Connector/J .*; did you mean "
                                              "socketTimeout"),
    ("u@tcp(db:3306)/app?readtimeout=2s", "did you mean readTimeout"),
    ("mysql+pymysql://u@db/app?read_timout=3", "read_timout=3: not a setting of PyMySQL; did you mean read_timeout"),
    # where one connection string is expected (a pool's jdbcUrl), two are refused, not one guessed
    ("# orders (Java)\njdbc:mysql://a/b\n# billing (Go)\nu@tcp(b:3306)/c\n", "lines 2 and 4: 2 connection strings"),
])
def test_a_connection_string_the_lab_cannot_use_is_refused(url, says):
    with pytest.raises(InvalidInput, match=says):
        driver_url.parse(url)


def test_the_worked_example_is_answered_from_its_folder():
    incident = imports.from_dir(str(REPO / "examples" / "incident-0312"))
    assert incident.driver.client == "jdbc" and dict(incident.sysctl.cell)["tcp_retries2"] == 15
    answer = explain.explain(explain.parse_knobs(incident.explain_words()))
    assert answer.startswith("Answer: the kernel (tcp_retries2=15) ends a busy client's wait after about 938.0 s")
    cured = explain.explain(explain.parse_knobs(incident.explain_words() + ["socketTimeout=3000"]))
    assert cured.startswith("Answer: the application's socketTimeout=3000 ends a busy client's wait after about 3.0 s")


def test_the_parsers_answer_or_refuse_every_input():
    rng = random.Random(3)
    pieces = [*DUMP.splitlines(), "jdbc:mysql://h/d?", "@tcp(", ")/", "?", "&", "=", "mysql+pymysql://", "%ZZ",
              "socketTimeout=", "readTimeout=", "9" * 30, " = ", "\t", "é"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces + list(string.printable)) for _ in range(rng.randint(0, 12)))
        for parse in (sysctl_dump.parse, driver_url.parse):
            try:
                parse(text)
            except InvalidInput:
                pass


KEEPALIVED_SAMPLE = (REPO / "tests" / "replay_incident" / "keepalived.conf").read_text()
TIMELINE_SAMPLE = (REPO / "tests" / "replay_incident" / "incident.yaml").read_text()
PIECES = ["{", "}", "delay_loop", "retry", "connect_timeout", "lb_kind", "NAT", "DR", "2", "-1", "x", "\n", '"', "#",
          "!", "vrrp_instance v {", "advert_int", "nopreempt", "died:", "recovered:", "03:12", "99:99", "940", ": ",
          "real_server 1.2.3.4 3306 {", "MISC_CHECK {", "misc_timeout 0.5", "lvs_timeouts tcp"]


def mutated(text, rng):
    """The text with a few of its words dropped, doubled or replaced: near misses of a valid file."""
    words = re.split(r"(\s+)", text)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(words))
        words[i] = rng.choice(["", words[i] * 2, rng.choice(PIECES)])
    return "".join(words)


def test_keepalived_conf_and_the_timeline_answer_or_refuse_every_input():
    from harness.imports import keepalived_import, keepalived_tree, timeline
    rng, answered = random.Random(11), {"keepalived": 0, "timeline": 0}
    for _ in range(3000):
        for name, sample, read in (
                ("keepalived", KEEPALIVED_SAMPLE,
                 lambda t: keepalived_import.interpret(keepalived_tree.parse_text(t, "f.conf"), "f.conf")),
                ("timeline", TIMELINE_SAMPLE, timeline.parse)):
            try:
                read(mutated(sample, rng))
                answered[name] += 1
            except InvalidInput:
                pass
    assert all(100 < n < 2900 for n in answered.values()), answered      # near misses both ways
