"""Thousands of mangled keepalived.conf and haproxy.cfg files, and hundreds of each other file an
incident folder holds (the corpus's files with lines dropped, doubled, swapped, words replaced,
bytes flipped, and plain random bytes): each one is read or refused with InvalidInput, never a traceback, and both outcomes occur (a fuzz that only ever
refuses, or only accepts, tests nothing)."""
import random
from pathlib import Path

import pytest

from harness.errors import InvalidInput
from harness.imports import haproxy_import, keepalived_import, keepalived_tree
from tests.unit.test_keepalived_import import SAMPLE

HERE = Path(__file__).parent
REPO = HERE.parents[1]
KEEPALIVED = [SAMPLE, *(p.read_text() for p in sorted((REPO / "examples").rglob("*.conf")))]
HAPROXY = [(HERE / "fixtures" / "haproxy" / "incident-haproxy.cfg").read_text(),
           "defaults db\n  mode tcp\n  timeout server 30m\nlisten mysql from db\n  bind :3306\n"
           "  server a 10.0.0.1:3306 check inter 1s fall 3\n  server b 10.0.0.2:3306 check backup\n"
           ".if 1\n  no option redispatch\n.endif\n"]
WORDS = ["{", "}", "#", "!", "0", "-1", "1e9", "nan", "backup", "check", "from", "no", "option", ".if", ".endif",
         "include", "\x1b[31m", "timeout", "server", "retry", "misc_timeout", "lvs_method", "DR", "", "\t", "\"", "'"]


def mangled(text, rng):
    lines = text.splitlines()
    for _ in range(rng.randint(1, 4)):
        if not lines:
            break
        at = rng.randrange(len(lines))
        how = rng.randrange(6)
        if how == 0:
            del lines[at]
        elif how == 1:
            lines.insert(at, lines[at])
        elif how == 2:
            other = rng.randrange(len(lines))
            lines[at], lines[other] = lines[other], lines[at]
        elif how == 3:
            words = lines[at].split() or [""]
            words[rng.randrange(len(words))] = rng.choice(WORDS)
            lines[at] = " ".join(words)
        elif how == 4:
            lines[at] = lines[at][: rng.randrange(len(lines[at]) + 1)]
        else:
            chars = list(lines[at]) or [" "]
            chars[rng.randrange(len(chars))] = chr(rng.randrange(0, 256))
            lines[at] = "".join(chars)
    return "\n".join(lines) + "\n"


def random_bytes(rng):
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400))).decode("latin-1")


def read_keepalived(text, folder):
    return keepalived_import.interpret(keepalived_tree.parse_text(text, "k.conf", folder), "k.conf")


def read_haproxy(text, _):
    return haproxy_import.interpret(text, "h.cfg")


@pytest.mark.parametrize(("reader", "corpus"), [(read_keepalived, KEEPALIVED), (read_haproxy, HAPROXY)],
                         ids=["keepalived", "haproxy"])
def test_mangled_files_are_read_or_refused_never_a_traceback(reader, corpus, tmp_path):
    rng = random.Random(2026)
    outcomes = {"read": 0, "refused": 0}
    for n in range(2500):
        text = random_bytes(rng) if n % 10 == 0 else mangled(rng.choice(corpus), rng)
        try:
            found = reader(text, tmp_path)
        except InvalidInput as refusal:
            assert str(refusal).strip(), text
            outcomes["refused"] += 1
        else:
            assert found.lines() is not None
            outcomes["read"] += 1
    print(f"{reader.__name__}: {outcomes}")
    assert outcomes["read"] > 100 and outcomes["refused"] > 100, outcomes


TEXT_CORPUS = {
    "driver.url": [(REPO / "examples" / "incident-two-services" / "client.txt").read_text(),
                   "u:p@tcp(db:3306)/app?readTimeout=2s&timeout=1s\n", "mysql+pymysql://u@db/app?read_timeout=3\n"],
    "hikari.properties": ["jdbcUrl=jdbc:mysql://db/app?socketTimeout=3000\nmaximumPoolSize=10\nconnectionTimeout=30000\n"],
    "my.cnf": ["[client]\nconnect-timeout=3\nread-timeout=5\n"],
    "application.properties": ["spring.datasource.url=jdbc:mysql://db/app?socketTimeout=3000\n"
                               "spring.datasource.hikari.connection-timeout=3000\nserver.port=8080\n"],
    "application.yml": ["spring:\n  datasource:\n    url: jdbc:mysql://db/app?socketTimeout=3000\n"
                        "    hikari:\n      maximum-pool-size: 2\n"],
    "mysql2.json": ['{"host": "db", "connectTimeout": 3000}\n'],
    "incident.yaml": [(REPO / "examples" / "incident-two-services" / "incident.yaml").read_text()],
    "incident.log": ["Mar 12 03:12:04 ops on-call: died\nMar 12 03:13:07 lb-1 Keepalived[812]: Removing service "
                     "[10.20.1.21]:tcp:3306 from VS [10.20.0.10]:tcp:3306\n2026-03-12T03:27:41Z ERROR Communications "
                     "link failure\n"],
    "sysctl.txt": [(REPO / "examples" / "incident-defaults" / "sysctl.txt").read_text()],
}


@pytest.mark.parametrize("reader", sorted(TEXT_CORPUS))
def test_every_other_file_an_incident_folder_holds_is_read_or_refused_never_a_traceback(reader):
    from harness import imports
    rng, outcomes = random.Random(2027), {"read": 0, "refused": 0}
    for n in range(300):
        text = random_bytes(rng) if n % 10 == 0 else mangled(rng.choice(TEXT_CORPUS[reader]), rng)
        try:
            imports.TEXT_READERS[reader](text, "x")
        except InvalidInput:
            outcomes["refused"] += 1
        else:
            outcomes["read"] += 1
    assert outcomes["read"] > 10 and outcomes["refused"] > 10, outcomes
