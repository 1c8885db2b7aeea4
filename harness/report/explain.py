"""`blackhole explain KNOB=VALUE ...`: the kernel model's prediction in plain words."""
from ..measure import kernel_model

KNOBS = {
    "TCP_RETRIES2": (int, 15, "net.ipv4.tcp_retries2 (per network namespace)"),
    "TCP_USER_TIMEOUT_MS": (int, 0, "TCP_USER_TIMEOUT socket option, ms (0: off)"),
    "READ_TIMEOUT_S": (float, 0.0, "application read timeout, s (0: none)"),
    "KEEPALIVE": (str, "", "keepalive IDLE/INTERVAL/PROBES in s, for an idle connection (e.g. 5/1/3)"),
    "RTT_MS": (float, 0.5, "round-trip time of the path, ms"),
    "HZ": (int, kernel_model.HZ, "the kernel's CONFIG_HZ (timer granularity)"),
}


class ExplainError(ValueError):
    pass


def parse_knobs(words):
    values = {name: default for name, (_, default, _) in KNOBS.items()}
    for word in words:
        name, sep, text = word.partition("=")
        name = name.upper()
        if not sep or name not in KNOBS:
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
    return values


def explain(values):
    retries2, user_timeout_ms = values["TCP_RETRIES2"], values["TCP_USER_TIMEOUT_MS"]
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
    lines += ["", "Cures: TCP_USER_TIMEOUT or a read timeout (per socket), a lower tcp_retries2 (per namespace),",
              "or a load balancer that resets the flows of a removed server (nodest=reset, drain)."]
    return "\n".join(lines)


def usage():
    return "\n".join(f"  {name}=...  {text} (default {default!r})" for name, (_, default, text) in KNOBS.items())
