"""`blackhole explain KNOB=VALUE ...`: the kernel model's prediction in plain words."""
from . import explain_kube
from ..control.keepalived_settings import TIMERS_LATE_S, KeepalivedSettings, lb_noticed
from ..measure import kernel_model, predict
from ..load.clients import CLIENTS, DEFAULT_CLIENT, go_duration_s

# What the lab measured about a driver that its documentation leaves open (README: the client zoo).
DRIVER_NOTES = {
    "libmariadb": "Measured (client-zoo-short, MariaDB Connector/C 3.3.20): MYSQL_OPT_READ_TIMEOUT=3 ended the wait "
                  "3.08 s after the fault: the value counts once, not three times as MySQL's manual says of "
                  "libmysqlclient's read timeout.",
    "go": "go-sql-driver/mysql reports a dead connection as 'invalid connection' (driver.ErrBadConn is only returned "
          "before a query was sent, so database/sql does not retry it).",
    "hikari": "Measured (client-zoo-short, HikariCP 5.1.0, pool of 3, tcp_retries2=5): the fault catches the pool's "
              "idle connections too. HikariCP checks a connection before a borrow only if it was idle longer than "
              "aliveBypassWindowMs (500 ms): each dead one then costs validationTimeout (5 s): back after 23.7 s, "
              "not 13.7. With the check skipped it hands each dead one out and its query waits out the budget "
              "again: back after 40.8 s.",
    "sysbench": "sysbench 1.0.20 has no read timeout of its own: only the kernel's knobs (tcp_retries2, "
                "TCP_USER_TIMEOUT, which the preloaded libsockopts sets on its libc sockets) bound its wait.",
}

# tests/lab/test_mysql_auth.py: a first login to MySQL 9.7 (caching_sha2_password only), server
# cache cold, no TLS (the zoo's settings). What it needs, per client, as measured.
MYSQL_AUTH_NOTES = {
    "pymysql": "logs in (PyMySQL 1.0.2 asks for the server's RSA key, with python3-cryptography installed; "
               "without it: RuntimeError \"'cryptography' package is required\").",
    "jdbc": "fails: \"Public Key Retrieval is not allowed\"; allowPublicKeyRetrieval=true (or TLS) fixes it.",
    "hikari": "fails as the pool sees it: \"Connection is not available, request timed out\" after "
              "connectionTimeout (the cause, Public Key Retrieval, is not shown); allowPublicKeyRetrieval=true fixes it.",
    "go": "logs in (go-sql-driver/mysql v1.7.1 asks for the server's RSA key).",
    "node": "logs in (mysql2 3.11.3 asks for the server's RSA key).",
    "libmariadb": "logs in (MariaDB Connector/C 3.3.20 fetches the server's RSA key unasked).",
    "sysbench": "logs in (MariaDB Connector/C 3.3.20 fetches the server's RSA key unasked).",
}

KNOBS = {
    "TCP_RETRIES2": (int, 15, "net.ipv4.tcp_retries2 (per network namespace)"),
    "TCP_USER_TIMEOUT_MS": (int, 0, "TCP_USER_TIMEOUT socket option, ms (0: off)"),
    "READ_TIMEOUT_S": (float, 0.0, "application read timeout, s (0: none)"),
    "KEEPALIVE": (str, "", "keepalive IDLE/INTERVAL/PROBES in s, for an idle connection (e.g. 5/1/3)"),
    "RTT_MS": (float, 0.5, "round-trip time of the path, ms"),
    "HZ": (int, kernel_model.HZ, "the kernel's CONFIG_HZ (timer granularity)"),
    "CLIENT": (str, DEFAULT_CLIENT, f"the client ({', '.join(CLIENTS)}); its own settings follow as "
                                    "setting=value, e.g. CLIENT=jdbc socketTimeout=3000"),
    # keepalived in front (harness/control/keepalived.py): given any of these, when it notices a dead server
    "DELAY_LOOP": (float, None, "keepalived: s between checks (its default 60)"),
    "CONNECT_TIMEOUT": (float, None, "keepalived: s a check waits for its connect (its default 5)"),
    "RETRY": (int, None, "keepalived: failed attempts after the first (its default 1)"),
    "DELAY_BEFORE_RETRY": (float, None, "keepalived: s between those attempts (its default 1)"),
    "EXPIRE_NODEST_CONN": (int, None, "the director's net.ipv4.vs.expire_nodest_conn, 0 or 1 (default 0)"),
    # kube-proxy in front (harness/control/kube_proxy.py)
    "KUBE_PROXY": (str, "", "kube-proxy's mode in front: ipvs or nftables (default: none)"),
    "NODE_GRACE_S": (float, None, "kube-proxy: the node-monitor grace period, s (Kubernetes' default 40)"),
}
KEEPALIVED_KNOBS = ("DELAY_LOOP", "CONNECT_TIMEOUT", "RETRY", "DELAY_BEFORE_RETRY", "EXPIRE_NODEST_CONN")


class ExplainError(ValueError):
    pass


def parse_knobs(words):
    values = {name: default for name, (_, default, _) in KNOBS.items()}
    driver_words = []
    for word in words:
        name, sep, text = word.partition("=")
        if sep and name.upper() not in KNOBS:
            driver_words.append((name, text))
            continue
        name = name.upper()
        if not sep:
            raise ExplainError(f"{word!r}: expected KNOB=VALUE with KNOB one of {', '.join(KNOBS)}")
        kind = KNOBS[name][0]
        try:
            values[name] = kind(text)
        except ValueError:
            raise ExplainError(f"{name}: {text!r} is not a {kind.__name__}") from None
    if values["KEEPALIVE"]:
        parts = values["KEEPALIVE"].split("/")
        if len(parts) != 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
            raise ExplainError(f"KEEPALIVE: {values['KEEPALIVE']!r} is not IDLE/INTERVAL/PROBES, e.g. 5/1/3")
    values["SETTINGS"] = _driver_settings(values["CLIENT"], driver_words)
    if values["SETTINGS"]:
        values["READ_TIMEOUT_S"] = CLIENTS[values["CLIENT"]].read_timeout_s(values["SETTINGS"]) or values["READ_TIMEOUT_S"]
    return values


def _driver_settings(client, words):
    if client not in CLIENTS:
        raise ExplainError(f"CLIENT: {client!r} is not one of {', '.join(CLIENTS)}")
    spec = CLIENTS[client].settings
    settings = []
    for name, text in words:
        if name not in spec:
            known = ", ".join(spec) or "none"
            raise ExplainError(f"{name}: neither a knob ({', '.join(KNOBS)}) nor a setting of {client} ({known})")
        kind = spec[name].kind
        if kind is bool:
            value = {"true": True, "false": False}.get(text.lower())
        elif kind is int:
            value = int(text) if text.isdigit() else None
        else:
            value = text if go_duration_s(text) is not None else None
        if value is None:
            raise ExplainError(f"{name}: {text!r} is not {'true/false' if kind is bool else 'a whole number' if kind is int else 'a duration like 2s'}")
        settings.append((name, value))
    return tuple(settings)


def _driver_lines(values, prediction):
    client = CLIENTS[values["CLIENT"]]
    lines = []
    for name, value in values["SETTINGS"]:
        lines.append(f"{client.library}: {name}={value}: {client.settings[name].meaning}.")
    timeout = values["READ_TIMEOUT_S"]
    if client.read_timeout and dict(values["SETTINGS"]).get(client.read_timeout) is not None:
        if timeout < prediction.detect_s:
            lines.append(f"So the application is told after ~{timeout:g} s, long before the kernel would give up "
                         f"({prediction.detect_s:.1f} s), and can reconnect (through the VIP, to the new server).")
        else:
            lines.append(f"That is longer than the kernel's own {prediction.detect_s:.1f} s: the kernel ends the wait first.")
    if not client.via_libc and (values["TCP_USER_TIMEOUT_MS"] or values["KEEPALIVE"]):
        lines.append(f"{client.name} does not connect through libc: TCP_USER_TIMEOUT/keepalive preloaded by the lab's "
                     "libsockopts never reach its sockets (set them in the program instead).")
    note = DRIVER_NOTES.get(client.name)
    if note:
        lines.append(note)
    lines.append(f"Against MySQL 9.7 (DB_ENGINE=mysql), a first login without TLS {MYSQL_AUTH_NOTES[client.name]}")
    return [""] + lines if lines else []


def explain(values):
    retries2, user_timeout_ms = values["TCP_RETRIES2"], values["TCP_USER_TIMEOUT_MS"]
    if not CLIENTS[values["CLIENT"]].via_libc:
        user_timeout_ms = 0           # preloaded, it never reaches the socket (said below)
    rtt_s, hz = values["RTT_MS"] / 1000, values["HZ"]
    prediction = kernel_model.for_knobs(retries2, user_timeout_ms, rtt_s, hz)
    rto0 = kernel_model.initial_rto_s(rtt_s, hz)
    lines = [
        f"Knobs: tcp_retries2={retries2}, TCP_USER_TIMEOUT={'off' if not user_timeout_ms else f'{user_timeout_ms} ms'}, "
        f"read timeout={values['READ_TIMEOUT_S'] or 'none'}, RTT {values['RTT_MS']:g} ms, HZ {hz}.",
        "",
        "A request is sent and no ACK ever comes back: the server, or the path to it, is gone",
        "without a word (no RST, no FIN). The kernel retransmits with a doubling timeout.",
        f"The first timeout is {rto0 * 1000:.0f} ms (200 ms minimum + RTT, in whole timer ticks).",
    ]
    if user_timeout_ms:
        lines.append(f"TCP_USER_TIMEOUT replaces the tcp_retries2 budget: the socket gives up "
                     f"{user_timeout_ms / 1000:g} s after the first retransmission.")
    else:
        lines.append(f"tcp_retries2={retries2} is not a count but a time budget: {prediction.budget_s:g} s, "
                     "counted from the first retransmission,")
        lines.append("checked only when the retransmission timer fires, so the error comes at the first "
                     "firing past it.")
    lines += ["", f"  {'time':>10}  {'what':<28} {'since 1st retransmission':>24}"]
    for firing in prediction.schedule:
        since = f"{firing.elapsed_s:.3f} s" if "RTO" in firing.what or "ETIMEDOUT" in firing.what else ""
        lines.append(f"  {firing.at_s:>8.3f} s  {firing.what:<28} {since:>24}")
    lines += ["", f"Expected: ETIMEDOUT (MySQL error 2013) about {prediction.detect_s:.1f} s after the request, "
                  f"between {prediction.earliest_s:.1f} and {prediction.latest_s:.1f} s",
              "(each timer may fire up to one timer-wheel tick late: longer timers, coarser ticks)."]
    if values["READ_TIMEOUT_S"] and values["READ_TIMEOUT_S"] < prediction.detect_s:
        lines.append(f"But the application's read timeout of {values['READ_TIMEOUT_S']:g} s ends the wait first.")
    if values["KEEPALIVE"]:
        idle, interval, probes = map(int, values["KEEPALIVE"].split("/"))
        ka = kernel_model.keepalive(idle, interval, probes, user_timeout_ms / 1000)
        lines += ["", f"An idle connection (nothing outstanding) with keepalive {idle}/{interval}/{probes}: "
                      f"the first probe goes out after {idle} s of silence,",
                  f"and the socket dies {ka.detect_s:g} s after the last data ({ka.limit}). "
                  "Keepalive does nothing while a request is outstanding."]
    if values["CLIENT"] != DEFAULT_CLIENT:
        lines += _driver_lines(values, prediction)
    if any(values[name] is not None for name in KEEPALIVED_KNOBS):
        lines += _keepalived_lines(values, prediction, rto0)
    if values["KUBE_PROXY"]:
        if values["KUBE_PROXY"] not in explain_kube.MODES:
            raise ExplainError(f"KUBE_PROXY must be one of {', '.join(explain_kube.MODES)}, not {values['KUBE_PROXY']!r}")
        lines += explain_kube.lines(values["KUBE_PROXY"], values["NODE_GRACE_S"], prediction)
    lines += ["", "Cures: TCP_USER_TIMEOUT or a read timeout (per socket), a lower tcp_retries2 (per namespace),",
              "or a load balancer that resets the flows of a removed server (nodest=reset, drain)."]
    return "\n".join(lines)


def _keepalived_lines(values, prediction, rto0):
    """keepalived in front: when it takes a silently dead server out, and what the client sees after."""
    given = {name.lower(): values[name] for name in KEEPALIVED_KNOBS[:4] if values[name] is not None}
    settings = KeepalivedSettings(**given)
    notice = lb_noticed(settings)
    worst = notice.latest_s - TIMERS_LATE_S
    lines = ["", f"keepalived in front: delay_loop {settings.delay_loop:g} s, connect_timeout {settings.connect_timeout:g} "
                 f"s, retry {settings.retry}, delay_before_retry {settings.delay_before_retry:g} s. It takes a silently "
                 f"dead server out {notice.earliest_s:g}-{worst:g} s after its death",
             "(delay_loop + (retry+1) x connect_timeout + retry x delay_before_retry at worst: \"LB noticed\")."]
    if values["EXPIRE_NODEST_CONN"] == 1:
        reset = kernel_model.first_retransmission_after(worst, rto0)
        lines.append(f"With expire_nodest_conn=1 the removal resets the flow at the client's next retransmission: "
                     f"~{reset:.1f} s after the death,")
        lines.append(f"{reset - worst:.1f} s after the LB noticed (\"client noticed\"), unless its own limit comes first.")
    else:
        lines.append("With expire_nodest_conn=0 (the kernel's default; keepalived never sets it) the removal does "
                     "nothing to the flow:")
        lines.append(f"the client still waits for its own limit, {prediction.detect_s:.1f} s after the death, "
                     f"{prediction.detect_s - worst:.1f} s after the LB noticed.")
    return lines


def expectation(scenario):
    """What the model expects of a failover scenario's run, in a line (said before it starts)."""
    first = next(step for step in scenario.steps if step.kind == "fault")
    effect = first.effect()
    windows = [predict.predict(c, effect, scenario.probe.interval_ms / 1000, 0.0) for c in scenario.cells]
    expected = [w.expected_s for w in windows if w.expected_s is not None]
    told = (f"the first error after ~{max(expected):.3g} s in the slowest cell" if expected
            else "no error in any cell")
    if scenario.control != "manual":
        told += f" before {scenario.control} reacts (its reaction, read after the run, decides the windows)"
    return (f"{first.name} ({effect.kind}): the kernel model expects {told}; observation limit "
            f"{scenario.observe_s:g} s after the fault")


def usage():
    return "\n".join(f"  {name}=...  {text} (default {default!r})" for name, (_, default, text) in KNOBS.items())
