"""`blackhole explain KNOB=VALUE ...`: the model's answer (harness/answer) in plain words, the cures ranked."""
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from . import Question, answer, back_host_list, explain_haproxy, explain_kube, ranking, words
from .limits import Limit, kernel_limit
from ..databases import DATABASES, DEFAULT_DATABASE
from ..measure import kernel_model, predict
from ..measure.effects import BLACKHOLE, Effect
from ..load.clients import CLIENTS, DEFAULT_CLIENT, PROBE_NAMES, PROTOCOL_TITLES, Client
from ..settings import drivers
from ..settings.edge import unknown
from ..settings.kinds import SettingsError
from ..settings.registry import KNOBS as KNOB_TABLE

# explain's knobs and their defaults; what each may be is the settings registry's (harness/settings/).
DEFAULTS: dict[str, Any] = {"TCP_RETRIES2": 15, "TCP_USER_TIMEOUT_MS": 0, "READ_TIMEOUT_S": 0.0, "KEEPALIVE": "", "RTT_MS": 0.5,
            "HZ": kernel_model.HZ, "CLIENT": DEFAULT_CLIENT, "DELAY_LOOP": None, "CONNECT_TIMEOUT": None,
            "RETRY": None, "DELAY_BEFORE_RETRY": None, "EXPIRE_NODEST_CONN": None, "KUBE_PROXY": "",
            "NODE_GRACE_S": None, "HAPROXY": "", "DB_ENGINE": DEFAULT_DATABASE, "DNS_MOVED_AFTER_S": None,
            "HOST_LIST": False, "PROMOTED_AFTER_S": None, "NAME_CACHE": "none", "DNS_TTL_S": None}
KNOBS = {name: (DEFAULTS[name], KNOB_TABLE[name].meaning) for name in DEFAULTS}
WIDTH = 100                                          # the explanation's longest lines
AS_NUMBER = ("HZ", "EXPIRE_NODEST_CONN")              # choices the model counts with
KEEPALIVED_KNOBS = ("DELAY_LOOP", "CONNECT_TIMEOUT", "RETRY", "DELAY_BEFORE_RETRY", "EXPIRE_NODEST_CONN")


class ExplainError(SettingsError):
    pass


def parse_knobs(words: Sequence[str]) -> dict[str, Any]:
    """KNOB=VALUE words (a driver's settings by their own names among them) -> the model's inputs."""
    values = dict(DEFAULTS)
    driver_words = []
    named = [w.partition("=")[2] for w in words if w.partition("=")[0].upper() == "CLIENT"]
    client_settings = CLIENTS[named[-1]].settings if named and named[-1] in CLIENTS else {}
    for word in words:
        name, sep, text = word.partition("=")
        if not sep:
            raise ExplainError(f"{word!r}: expected KNOB=VALUE with KNOB one of {', '.join(KNOBS)}")
        if name.upper() not in KNOBS or name in client_settings:     # pgx's connect_timeout is not keepalived's
            driver_words.append((name, text))
            continue
        name = name.upper()
        values[name] = KNOB_TABLE[name].parse(text, name)
        if name in AS_NUMBER:
            values[name] = int(values[name])
    if values["CLIENT"] in PROBE_NAMES:          # the lab's probe, on the engine that name speaks
        engine_of = PROBE_NAMES[values["CLIENT"]]
        if any(w.partition("=")[0].upper() == "DB_ENGINE" for w in words) and values["DB_ENGINE"] != engine_of:
            raise ExplainError(f"CLIENT={values['CLIENT']} is the lab's probe on {engine_of}: not with "
                               f"DB_ENGINE={values['DB_ENGINE']}")
        values["CLIENT"], values["DB_ENGINE"] = DEFAULT_CLIENT, engine_of
    engine = DATABASES[values["DB_ENGINE"]]
    client = CLIENTS[values["CLIENT"]]
    if values["CLIENT"] != DEFAULT_CLIENT and client.protocol != engine.wire_protocol:
        raise ExplainError(f"CLIENT={client.name} is a {PROTOCOL_TITLES[client.protocol]} driver: not with "
                           f"DB_ENGINE={engine.name}")
    if values["READ_TIMEOUT_S"] and values["CLIENT"] != DEFAULT_CLIENT:
        own = f"its own {client.read_timeout}=..." if client.read_timeout else "none of its own"
        raise ExplainError(f"READ_TIMEOUT_S is the lab's probe's read timeout; CLIENT={client.name} has {own}")
    planes = [name for name, given in (("keepalived", any(values[k] is not None for k in KEEPALIVED_KNOBS)),
                                       ("HAPROXY", values["HAPROXY"]), ("KUBE_PROXY", values["KUBE_PROXY"]),
                                       ("DNS_MOVED_AFTER_S", values["DNS_MOVED_AFTER_S"] is not None),
                                       ("HOST_LIST", values["HOST_LIST"])) if given]
    if len(planes) > 1:
        raise ExplainError(f"{' and '.join(planes)}: one load balancer in front at a time"
                           + (" (a host list needs none)" if "HOST_LIST" in planes else ""))
    _check_host_list(values, client)
    _check_name_cache(values)
    values["SETTINGS"] = drivers.settings_of(values["CLIENT"], _known_settings(values["CLIENT"], driver_words))
    for name, _ in values["SETTINGS"]:
        if CLIENTS[values["CLIENT"]].settings[name].picks_a_server and not values["HOST_LIST"]:
            raise ExplainError(f"{name} changes nothing here: explain's client lists one host (a VIP, or a name), which "
                               "is the promoted server by the time its traffic reaches it; it chooses among the hosts "
                               "of a host list (HOST_LIST=1 PROMOTED_AFTER_S=...; hosts: in a scenario's cell, make scenario=dns-failover-pg)")
        if CLIENTS[values["CLIENT"]].settings[name].jvm_security and values["DNS_MOVED_AFTER_S"] is None:
            raise ExplainError(f"{name} changes nothing here: explain's client connects to a VIP's address and "
                               "looks no name up; it matters where the clients connect to a name (DNS_MOVED_AFTER_S=..., make "
                               "scenario=dns-failover)")
    if client.host_monitor and dict(values["SETTINGS"]).get("failureDetectionEnabled") is not False \
            and values["DNS_MOVED_AFTER_S"] is None:
        raise ExplainError(f"CLIENT={client.name}: explain does not answer for the wrapper's host monitor: whether its "
                           "checks meet the silent host depends on when the name or VIP it checks moves on "
                           "(docs/facts/dns.md): give DNS_MOVED_AFTER_S=... where it connects to a name; make "
                           "scenario=dns-failover measures it. With failureDetectionEnabled=false it answers as for "
                           "Connector/J")
    values["QUESTION"] = question_of(values)
    if values["HOST_LIST"]:
        try:
            back_host_list.keeps_writable(values["QUESTION"].cell)
        except ValueError as exc:
            raise ExplainError(str(exc)) from None
    return values


def _check_name_cache(values: Mapping[str, Any]) -> None:
    """NAME_CACHE=nscd and the record's TTL, under a name that moves."""
    cache, ttl = values["NAME_CACHE"] != "none", values["DNS_TTL_S"] is not None
    if (cache or ttl) and values["DNS_MOVED_AFTER_S"] is None:
        raise ExplainError("NAME_CACHE and DNS_TTL_S are of a name the clients connect to: with DNS_MOVED_AFTER_S=...")
    if cache != ttl:
        raise ExplainError("NAME_CACHE=nscd and DNS_TTL_S=... go together: nscd keeps an answer by the record's TTL, "
                           "and no client of the lab keeps one by it otherwise (the JVM keeps its own "
                           "networkaddress.cache.ttl)")


def _check_host_list(values: Mapping[str, Any], client: Client) -> None:
    """HOST_LIST=1 with its promotion's time, for a client that takes a host list."""
    if values["HOST_LIST"] != (values["PROMOTED_AFTER_S"] is not None):
        raise ExplainError("HOST_LIST=1 and PROMOTED_AFTER_S=... go together: the client lists both servers, the "
                           "dead primary first, and the replica is promoted that long after the death")
    if values["HOST_LIST"] and not (client.host_list or (client.name == DEFAULT_CLIENT
                                                         and DATABASES[values["DB_ENGINE"]]().probe_host_list)):
        takes = ", ".join(name for name, c in CLIENTS.items() if c.host_list)
        raise ExplainError(f"HOST_LIST=1: CLIENT={client.name} takes one host (a host list: {takes}; CLIENT=libpq, "
                           "the lab's probe on PostgreSQL)")


def _known_settings(client: str, words: Sequence[tuple[str, str]]) -> Sequence[tuple[str, str]]:
    """Each word a setting of some driver; anything else is no knob at all, said with what the named
    client or explain takes that is nearest."""
    for name, _ in words:
        if not drivers.clients_with(name):
            raise unknown(name, ("explain",), where="among explain's knobs", client=client)
    return words


def question_of(values: Mapping[str, Any]) -> Question:
    """explain's knobs as a Question (harness/answer): the cell as a scenario would write it, and
    the load balancer in front (keepalived's knobs, HAPROXY or KUBE_PROXY; else the seed's swap)."""
    client = values["CLIENT"]
    cell: dict[str, Any] = {"tcp_retries2": values["TCP_RETRIES2"]}
    if client != DEFAULT_CLIENT:
        cell["client"] = client
        if values["SETTINGS"]:
            cell[client] = dict(values["SETTINGS"])
    if values["TCP_USER_TIMEOUT_MS"]:
        cell["tcp_user_timeout_ms"] = values["TCP_USER_TIMEOUT_MS"]
    if values["READ_TIMEOUT_S"]:
        cell["read_timeout_s"] = values["READ_TIMEOUT_S"]
    if values["KEEPALIVE"]:
        cell["keepalive"] = values["KEEPALIVE"]
    rest = {"engine": values["DB_ENGINE"], "rtt_s": values["RTT_MS"] / 1000, "hz": values["HZ"]}
    if any(values[name] is not None for name in KEEPALIVED_KNOBS):
        settings = {name.lower(): values[name] for name in KEEPALIVED_KNOBS if values[name] is not None}
        return Question.of(cell, plane="keepalived", plane_settings=tuple(settings.items()), **rest)
    if values["HAPROXY"]:
        return Question.of(cell, plane="haproxy", plane_settings=explain_haproxy.control_settings(values["HAPROXY"]),
                           **rest)
    if values["DNS_MOVED_AFTER_S"] is not None:
        cache = (("cache", values["NAME_CACHE"]), ("ttl", values["DNS_TTL_S"])) if values["NAME_CACHE"] != "none" else ()
        return Question.of(cell, plane="dns", plane_settings=cache, name_moved_after_s=values["DNS_MOVED_AFTER_S"],
                           **rest)
    if values["HOST_LIST"]:
        cell["hosts"] = ["db-primary", "db-replica"]
        return Question.of(cell, plane="dns", promoted_after_s=values["PROMOTED_AFTER_S"], **rest)
    if values["KUBE_PROXY"]:
        return Question.of(cell, plane="kube-proxy", plane_settings=(("mode", values["KUBE_PROXY"]),),
                           node_grace_s=values["NODE_GRACE_S"], **rest)
    return Question.of(cell, **rest)


def _driver_lines(values: Mapping[str, Any]) -> list[str]:
    client = CLIENTS[values["CLIENT"]]
    lines = [f"{client.library}: {name}={value}: {client.settings[name].help}." for name, value in values["SETTINGS"]]
    if not client.via_libc and (values["TCP_USER_TIMEOUT_MS"] or values["KEEPALIVE"]):
        lines.append(f"{client.name} does not connect through libc: TCP_USER_TIMEOUT/keepalive preloaded by the lab's "
                     "libsockopts never reach its sockets (set them in the program instead).")
    if client.notes:
        lines.append(client.notes)
    if DATABASES[values["DB_ENGINE"]].wire_protocol == "mysql" and values["CLIENT"] != DEFAULT_CLIENT:
        lines.append(f"Against MySQL 9.7 (DB_ENGINE=mysql), a first login without TLS {client.mysql_login}")
    return [""] + lines if lines else []


def explain(values: Mapping[str, Any]) -> str:
    """The answer first, then how the model got there, then the cures ranked: every figure from the
    one Answer (harness/answer)."""
    question = values["QUESTION"]
    ranked = ranking.rank(question)
    found = ranked.yours
    lines = [words.headline(found), "", _knobs_line(values, question)]
    if not found.proxied:
        lines += [""] + _ladder_lines(question, kernel_limit(question))
    lines += [""] + words.limit_lines(found) + [""] + words.expectation_lines(found)
    lines += [""] + words.change_lines(found) + words.back_lines(found)
    if values["HAPROXY"]:
        lines += explain_haproxy.lines(question)
    if values["KUBE_PROXY"]:
        lines += explain_kube.lines(values["KUBE_PROXY"], values["NODE_GRACE_S"])
    if values["KEEPALIVE"]:
        lines += _idle_lines(question)
    lines += _driver_lines(values)
    lines += [""] + words.ranking_lines(ranked)
    engine = DATABASES[values["DB_ENGINE"]]
    if engine.client_cures:
        lines += textwrap.wrap(f"On {engine.title}: {engine.client_cures}", WIDTH)
    return "\n".join(lines)


def _knobs_line(values: Mapping[str, Any], question: Question) -> str:
    cell = question.cell
    uto = cell.tcp_user_timeout_ms
    plane = question.plane + (f" ({', '.join(f'{k}={v}' for k, v in question.plane_settings)})"
                              if question.plane_settings else "")
    if cell.hosts:
        plane = f"none (the client lists {', '.join(cell.hosts)}, in that order)"
    return (f"Knobs: tcp_retries2={values['TCP_RETRIES2']}, TCP_USER_TIMEOUT={'off' if not uto else f'{uto} ms'}, "
            f"read timeout={'none' if not cell.read_timeout_s else f'{cell.read_timeout_s:g} s'}, "
            f"client {_client_name(question)}, RTT {values['RTT_MS']:g} ms, HZ {values['HZ']}, load balancer {plane}.")


def _client_name(question: Question) -> str:
    """The client as the operator would call it: the lab's probe says which library it speaks through."""
    if question.cell.client != DEFAULT_CLIENT:
        return question.cell.client
    probe = DATABASES[question.engine].probe_library
    return f"the lab's probe ({probe[0]})" if probe else f"the lab's probe ({DEFAULT_CLIENT})"


def _ladder_lines(question: Question, kernel: Limit) -> list[str]:
    """The client kernel's side: the retransmissions of a request nothing answers."""
    cell = question.cell
    uto = cell.tcp_user_timeout_ms if cell.socket_options_reach_kernel else 0
    prediction = kernel_model.for_knobs(cell.knob("tcp_retries2"), uto, question.rtt_s, question.hz)
    rto0 = kernel_model.initial_rto_s(question.rtt_s, question.hz)
    lines = ["A request is sent and no ACK ever comes back: the server, or the path to it, is gone",
             "without a word (no RST, no FIN). The kernel retransmits with a doubling timeout.",
             f"The first timeout is {rto0 * 1000:.0f} ms (200 ms minimum + RTT, in whole timer ticks)."]
    if uto:
        lines.append(f"TCP_USER_TIMEOUT replaces the tcp_retries2 budget: the socket gives up "
                     f"{uto / 1000:g} s after the first retransmission.")
    else:
        lines += [f"tcp_retries2={cell.knob('tcp_retries2')} is not a count but a time budget: "
                  f"{prediction.budget_s:g} s, counted from the first retransmission,",
                  "checked only when the retransmission timer fires, so the error comes at the first firing past it."]
    lines += ["", f"  {'time':>10}  {'what':<28} {'since 1st retransmission':>24}"]
    for firing in prediction.schedule:
        since = f"{firing.elapsed_s:.3f} s" if "RTO" in firing.what or "ETIMEDOUT" in firing.what else ""
        lines.append(f"  {firing.at_s:>8.3f} s  {firing.what:<28} {since:>24}")
    lines.append(f"The kernel alone: {kernel.told} {words.span(kernel.window)} after the request "
                 "(each timer may fire up to one timer-wheel tick late: longer timers, coarser ticks).")
    return lines


def _idle_lines(question: Question) -> list[str]:
    """An idle connection at the death (nothing outstanding): keepalive finds the dead peer."""
    cell = question.cell
    idle = predict.predict(cell, Effect(BLACKHOLE), 0.0, 0.0, idle=(0.0, None), hz=question.hz)
    idle_s, interval, probes = cell.keepalive
    if idle.expected_s is None:
        return ["", f"An idle connection: {idle.basis}."]
    return ["", f"An idle connection (nothing outstanding) with keepalive {idle_s}/{interval}/{probes}: the first "
                f"probe goes out after {idle_s} s of silence, and the socket dies about {idle.expected_s:g} s after "
                f"the last data ({words.span(idle)}; {idle.basis}). Keepalive does nothing while a request is "
                "outstanding."]


class Moments(Protocol):
    """An incident's timeline (imports/timeline.py): seconds after the death of what it names."""
    def get(self, key: str) -> float | None: ...


def beside_incident(values: Mapping[str, Any], times: Moments) -> str:
    """The model's answer set beside the operator's timeline (seconds after the death)."""
    found = answer(values["QUESTION"])
    first = times.get("first_error")
    told = f"the application's first error {first:.0f} s after the death" if first is not None else "no first error given"
    model = "no error" if found.never else f"~{found.error.expected_s:.1f} s ({words.span(found.error)})"
    lines = [f"Your incident: {told}; the model: a query in flight at the death errs after {model} "
             "(one sent later, up to the moment the load balancer changed, errs that much after it was sent)."]
    changed, moved = times.get("lb_changed"), times.get("name_moved")
    if moved is not None:
        lines.append(f"Your database's name moved {moved:.0f} s after the death: the model takes that as given "
                     "(DNS_MOVED_AFTER_S).")
    if changed is not None and found.change is not None:
        lines.append(f"Your load balancer changed {changed:.0f} s after the death; the model: "
                     f"{words.span(found.change)}.")
    recovered = times.get("recovered")
    if recovered is not None and found.back is not None:
        lines.append(f"Your application worked again {recovered:.0f} s after the death; the model: "
                     f"{words.span(found.back)}.")
    return "\n".join(lines)


def usage() -> str:
    return "\n".join(f"  {name}=...  {text} (default {default!r})" for name, (default, text) in KNOBS.items())
