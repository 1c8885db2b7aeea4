"""`blackhole explain KNOB=VALUE ...`: the kernel model's prediction in plain words."""
import textwrap

from . import explain_haproxy, explain_kube
from ..control import control_plane
from ..control.keepalived_settings import TIMERS_LATE_S, KeepalivedSettings, lb_noticed
from ..databases import DATABASES, DEFAULT_DATABASE
from ..measure import kernel_model, predict
from ..load.clients import CLIENTS, DEFAULT_CLIENT, PROTOCOL_TITLES
from ..settings import drivers
from ..settings.edge import unknown
from ..settings.kinds import SettingsError
from ..settings.registry import KNOBS as KNOB_TABLE

# What the lab measured about a driver that its documentation leaves open (README: the client zoo).
DRIVER_NOTES = {
    "libmariadb": "Measured (client-zoo-short, MariaDB Connector/C 3.3.20): MYSQL_OPT_READ_TIMEOUT=3 ended the wait "
                  "3.08 s after the fault: the value counts once, not three times as MySQL's manual says of "
                  "libmysqlclient's read timeout.",
    "go": "go-sql-driver/mysql reports a dead connection as 'invalid connection' (driver.ErrBadConn is only returned "
          "before a query was sent, so database/sql does not retry it).",
    "pgx": "Measured (client-zoo-pg, pgx v5.7.6): when the kernel gives up, pgx reports 'unexpected EOF' (the "
           "ETIMEDOUT is lost); its cure is a context deadline per query (queryTimeout here). Go's runtime never "
           "takes TCP_USER_TIMEOUT from a preloaded library, and libpq's tcp_user_timeout in pgx's connection "
           "string goes to the server as a run-time setting.",
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

# explain's knobs and their defaults; what each may be is the settings registry's (harness/settings/).
DEFAULTS = {"TCP_RETRIES2": 15, "TCP_USER_TIMEOUT_MS": 0, "READ_TIMEOUT_S": 0.0, "KEEPALIVE": "", "RTT_MS": 0.5,
            "HZ": kernel_model.HZ, "CLIENT": DEFAULT_CLIENT, "DELAY_LOOP": None, "CONNECT_TIMEOUT": None,
            "RETRY": None, "DELAY_BEFORE_RETRY": None, "EXPIRE_NODEST_CONN": None, "KUBE_PROXY": "",
            "NODE_GRACE_S": None, "HAPROXY": "", "DB_ENGINE": DEFAULT_DATABASE}
KNOBS = {name: (DEFAULTS[name], KNOB_TABLE[name].meaning) for name in DEFAULTS}
WIDTH = 100                                          # the explanation's longest lines
AS_NUMBER = ("HZ", "EXPIRE_NODEST_CONN")              # choices the model counts with
KEEPALIVED_KNOBS = ("DELAY_LOOP", "CONNECT_TIMEOUT", "RETRY", "DELAY_BEFORE_RETRY", "EXPIRE_NODEST_CONN")


class ExplainError(SettingsError):
    pass


def parse_knobs(words):
    """KNOB=VALUE words (a driver's settings by their own names among them) -> the model's inputs."""
    values = dict(DEFAULTS)
    driver_words = []
    for word in words:
        name, sep, text = word.partition("=")
        if not sep:
            raise ExplainError(f"{word!r}: expected KNOB=VALUE with KNOB one of {', '.join(KNOBS)}")
        if name.upper() not in KNOBS:
            driver_words.append((name, text))
            continue
        name = name.upper()
        values[name] = KNOB_TABLE[name].parse(text, name)
        if name in AS_NUMBER:
            values[name] = int(values[name])
    engine = DATABASES[values["DB_ENGINE"]]
    client = CLIENTS[values["CLIENT"]]
    if values["CLIENT"] != DEFAULT_CLIENT and client.protocol != engine.wire_protocol:
        raise ExplainError(f"CLIENT={client.name} is a {PROTOCOL_TITLES[client.protocol]} driver: not with "
                           f"DB_ENGINE={engine.name}")
    values["SETTINGS"] = drivers.settings_of(values["CLIENT"], _known_settings(values["CLIENT"], driver_words))
    if values["SETTINGS"]:
        values["READ_TIMEOUT_S"] = CLIENTS[values["CLIENT"]].read_timeout_s(values["SETTINGS"]) or values["READ_TIMEOUT_S"]
    return values


def _known_settings(client, words):
    """Each word a setting of some driver; anything else is no knob at all, said with the nearest."""
    for name, _ in words:
        if not drivers.clients_with(name):
            raise unknown(name, ("explain",), where="among explain's knobs")
    return words


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
    if DATABASES[values["DB_ENGINE"]].wire_protocol == "mysql":
        lines.append(f"Against MySQL 9.7 (DB_ENGINE=mysql), a first login without TLS {MYSQL_AUTH_NOTES[client.name]}")
    return [""] + lines if lines else []


def explain(values):
    retries2, user_timeout_ms = values["TCP_RETRIES2"], values["TCP_USER_TIMEOUT_MS"]
    if not CLIENTS[values["CLIENT"]].via_libc:
        user_timeout_ms = 0           # preloaded, it never reaches the socket (said below)
    rtt_s, hz = values["RTT_MS"] / 1000, values["HZ"]
    prediction = kernel_model.for_knobs(retries2, user_timeout_ms, rtt_s, hz)
    rto0 = kernel_model.initial_rto_s(rtt_s, hz)
    lines = [_answer(values, prediction, user_timeout_ms), "",
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
    engine = DATABASES[values["DB_ENGINE"]]
    lines += ["", f"Expected: ETIMEDOUT ({engine.kernel_gave_up}) about {prediction.detect_s:.1f} s after the request, "
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
        lines += explain_kube.lines(values["KUBE_PROXY"], values["NODE_GRACE_S"], prediction)
    if values["HAPROXY"]:
        limit = f"TCP_USER_TIMEOUT {user_timeout_ms} ms" if user_timeout_ms else f"tcp_retries2={retries2}"
        lines += explain_haproxy.lines(values["HAPROXY"], values["READ_TIMEOUT_S"],
                                       f"{limit}, {prediction.detect_s:.1f} s")
    lines += ["", "Cures: TCP_USER_TIMEOUT or a read timeout (per socket), a lower tcp_retries2 (per namespace),",
              "or a load balancer that resets the flows of a removed server (nodest=reset, drain)."]
    if engine.client_cures:
        lines += textwrap.wrap(f"On {engine.title}: {engine.client_cures}", WIDTH)
    return "\n".join(lines)


def _answer(values, prediction, user_timeout_ms):
    """The one line the question is about: what ends a busy client's wait, and when."""
    if values["HAPROXY"]:
        return explain_haproxy.answer(values["HAPROXY"], values["READ_TIMEOUT_S"])
    timeout = values["READ_TIMEOUT_S"]
    if timeout and timeout < prediction.detect_s:
        setting = CLIENTS[values["CLIENT"]].read_timeout if values["SETTINGS"] else "the read timeout"
        return (f"Answer: the application's {setting} ends a busy client's wait after about {timeout:g} s "
                f"(the kernel alone: {prediction.detect_s:.1f} s).")
    limit = f"TCP_USER_TIMEOUT={user_timeout_ms} ms" if user_timeout_ms else f"tcp_retries2={values['TCP_RETRIES2']}"
    return f"Answer: the kernel ({limit}) ends a busy client's wait after about {prediction.detect_s:.1f} s."


def beside_incident(values, times):
    """The model's answer set beside the operator's timeline (seconds after the death)."""
    prediction = kernel_model.for_knobs(values["TCP_RETRIES2"], values["TCP_USER_TIMEOUT_MS"]
                                        if CLIENTS[values["CLIENT"]].via_libc else 0, values["RTT_MS"] / 1000, values["HZ"])
    model = min(prediction.detect_s, values["READ_TIMEOUT_S"] or prediction.detect_s)
    first = times.get("first_error")
    told = f"the application's first error {first:.0f} s after the death" if first is not None else "no first error given"
    lines = [f"Your incident: {told}; the model: a query in flight at the death errs after ~{model:.1f} s "
             "(one sent later, up to the moment the load balancer changed, errs that much after it was sent)."]
    changed = times.get("lb_changed")
    if changed is not None and any(values[name] is not None for name in KEEPALIVED_KNOBS[:4]):
        given = {name.lower(): values[name] for name in KEEPALIVED_KNOBS[:4] if values[name] is not None}
        notice = lb_noticed(KeepalivedSettings(**given))
        lines.append(f"Your load balancer changed {changed:.0f} s after the death; keepalived's timers put that "
                     f"{notice.earliest_s:g}-{notice.latest_s - TIMERS_LATE_S:g} s after it.")
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


def expected_errors_s(scenario):
    """(the first fault, each cell's expected error time after it where the model expects one)."""
    first, modelled, _ = _effects_by_cell(scenario)
    windows = [predict.predict(c, effect, scenario.probe.interval_ms / 1000, 0.0) for c, effect in modelled]
    return first, [w.expected_s for w in windows if w.expected_s is not None]


def _effects_by_cell(scenario):
    """(the first fault step, [(cell, the effect its flows see)], whether the control plane's own
    model gave them: else the fault's own effect, before the plane reacts)."""
    faults = [step for step in scenario.steps if step.kind == "fault"]
    # the fault the run's times count from: the first its flows notice (run_record.first_fault)
    first = next((step for step in faults if step.effect().flows_notice), faults[0])
    effect, plane = first.effect(), control_plane(scenario.control, scenario.control_settings)
    director = {variant: service for service, variant in plane.directors().items()}
    unchecked = {s for step in faults[:faults.index(first)] for s in step.make_fault().unchecked()}
    if dict(first.params).get("target") in unchecked:         # the plane no longer checks it: its model does not apply
        by_model = [None for _ in scenario.cells]
    else:
        by_model = [plane.effect_by_model(effect, director[c.director or None]) for c in scenario.cells]
    modelled = any(e is not None for e in by_model)
    return first, [(c, e or effect) for c, e in zip(scenario.cells, by_model)], modelled


def expectation(scenario):
    """What the model expects of a failover scenario's run, in a line (said before it starts)."""
    first, expected = expected_errors_s(scenario)
    told = (f"the first error after ~{max(expected):.3g} s in the slowest cell" if expected
            else "no error in any cell")
    if _effects_by_cell(scenario)[2]:
        told += f" with {scenario.control}'s own model (its changes, read after the run, decide the windows)"
    elif scenario.control != "manual":
        told += f" before {scenario.control} reacts (its reaction, read after the run, decides the windows)"
    return (f"{first.name} ({first.effect().kind}): the kernel model expects {told}; observation limit "
            f"{scenario.observe_s:g} s after the fault")


def usage():
    return "\n".join(f"  {name}=...  {text} (default {default!r})" for name, (default, text) in KNOBS.items())
