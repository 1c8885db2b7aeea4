"""explain's answer over settings generated from the registries (every client and its read and
connect timeouts, 0 among their values; the kernel's knobs; keepalived, HAProxy, kube-proxy or the
seed's swap in front): the headline is the body's conclusion, and no answer is shorter than the
earliest limit that can fire nor longer than the first one that must, those limits worked out here
from the settings and the facts (tests/simulator, docs/facts/), not by the harness."""
import random
import re

from harness.answer import explain
from harness.databases import DATABASES
from harness.load.clients import CLIENTS, DEFAULT_CLIENT
from tests.kernel_facts import rules_span

FIGURE = re.compile(r"after about ([\d.]+) s")


def generated(rng):
    """One explain question as a user types it: knob words and a driver's settings by name."""
    engine = rng.choice(sorted(DATABASES))
    clients = [name for name, c in CLIENTS.items() if (name == DEFAULT_CLIENT or c.protocol == DATABASES[engine].wire_protocol)
               and not c.host_monitor]        # explain refuses a host monitor (test_host_monitor.py)
    client = rng.choice([c for c in clients if c != "sysbench"])
    words = [f"DB_ENGINE={engine}", f"CLIENT={client}", f"TCP_RETRIES2={rng.choice((3, 5, 8, 15))}"]
    spec = CLIENTS[client]
    for name in (spec.read_timeout, spec.connect_timeout):
        if name and rng.random() < 0.7:
            setting = spec.settings[name]
            seconds = rng.choice((0, 0, 1, 3, 10, 60))
            words.append(f"{name}={f'{seconds}s' if setting.kind == 'go_duration' else max(setting.minimum, round(seconds / setting.unit_s))}")
    if client == DEFAULT_CLIENT and rng.random() < 0.5:
        words.append(f"READ_TIMEOUT_S={rng.choice((0, 2, 5))}")
    if rng.random() < 0.3:
        words.append(f"TCP_USER_TIMEOUT_MS={rng.choice((0, 3000, 20000))}")
    front = rng.choice(("manual", "keepalived", "haproxy", "kube-proxy"))
    if front == "keepalived":
        words += [f"DELAY_LOOP={rng.choice((2, 5, 60))}", f"CONNECT_TIMEOUT={rng.choice((1, 5))}",
                  f"RETRY={rng.choice((0, 1, 3))}", f"EXPIRE_NODEST_CONN={rng.choice((0, 1))}"]
    elif front == "haproxy":
        haproxy = [f"inter={rng.choice((1, 2))}", f"fall={rng.choice((2, 3))}"]
        haproxy += rng.sample(["shutdown_sessions=true", "timeout_server=10", "server_tcp_retries2=5"], rng.randint(0, 3))
        words.append("HAPROXY=" + " ".join(haproxy))
    elif front == "kube-proxy":
        words += [f"KUBE_PROXY={rng.choice(('ipvs', 'nftables'))}", f"NODE_GRACE_S={rng.choice((10, 40))}"]
    return words


def armed(values):
    """[(soonest, latest)] s after the death of every limit the settings arm, worked out from the
    settings themselves: a read timeout that is not 0, the client's kernel (unless a proxy ACKs all
    it sends), a director's reset after keepalived's failing checks, HAProxy's limits."""
    client, cell = CLIENTS[values["CLIENT"]], dict(values["SETTINGS"])
    found = []
    timeout = cell.get(client.read_timeout)
    if timeout not in (None, 0, "0", "0s"):
        setting = client.settings[client.read_timeout]
        seconds = float(timeout[:-1]) if setting.kind == "go_duration" else timeout * setting.unit_s
        found.append((seconds, seconds + 0.2))
    if values["READ_TIMEOUT_S"]:
        found.append((values["READ_TIMEOUT_S"], values["READ_TIMEOUT_S"] + 0.2))
    haproxy = dict(w.split("=") for w in values["HAPROXY"].split())
    if not haproxy:
        uto = values["TCP_USER_TIMEOUT_MS"] / 1000 if client.via_libc else 0
        found.append((uto + 0.4, uto + 0.45 + uto / 8) if uto else rules_span(values["TCP_RETRIES2"]))
    if values["EXPIRE_NODEST_CONN"] == 1:
        retry, connect = values["RETRY"] or 0, values["CONNECT_TIMEOUT"] or 5
        failing = (retry + 1) * connect + retry * 1.0
        found.append((failing, 2 * (failing + (values["DELAY_LOOP"] or 60) + 0.5) + 0.5))
    if "timeout_server" in haproxy:
        found.append((10.0, 10.3))
    if haproxy.get("shutdown_sessions"):
        inter, fall = float(haproxy["inter"]), int(haproxy["fall"])
        found.append((fall * inter + (fall - 1) * inter, inter + fall * inter + (fall - 1) * inter + 0.6))
    if haproxy:
        low, high = rules_span(int(haproxy.get("server_tcp_retries2", 15)))
        found.append((low, high + 0.5))
    return found


def test_the_headline_is_the_bodys_conclusion_and_lies_between_the_limits_that_can_and_must_fire():
    rng = random.Random(5)
    for _ in range(600):
        words = generated(rng)
        values = explain.parse_knobs(words)
        text = explain.explain(values)
        lines = text.splitlines()
        headline = float(FIGURE.search(lines[0]).group(1))
        [expected] = [line for line in lines if line.startswith("Expected:")]
        body = float(re.search(r"about ([\d.]+) s after the death", expected).group(1))
        assert headline == body, (words, lines[0], expected)
        listed = [float(m.group(1)) for line in lines for m in [re.match(r"\s+([\d.]+) s  the ", line)] if m]
        assert headline == min(listed), (words, lines[0], listed)
        limits = armed(values)
        assert min(low for low, _ in limits) - 0.06 <= headline <= min(high for _, high in limits), (words, lines[0],
                                                                                                      limits)


def test_a_zero_that_means_forever_never_answers_zero():
    for words in (["CLIENT=jdbc", "socketTimeout=0"], ["CLIENT=go", "readTimeout=0"], ["CLIENT=go", "readTimeout=0s"],
                  ["CLIENT=pgx", "DB_ENGINE=postgres", "queryTimeout=0"], ["CLIENT=node-postgres", "DB_ENGINE=postgres",
                                                                             "query_timeout=0"],
                  ["CLIENT=libmariadb", "MYSQL_OPT_READ_TIMEOUT=0"], ["CLIENT=node", "timeout=0"]):
        first = explain.explain(explain.parse_knobs(words)).splitlines()[0]
        assert first.startswith("Answer: the kernel (tcp_retries2=15)"), (words, first)
