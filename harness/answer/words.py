"""An answer (__init__.py) and a ranking (ranking.py) in plain words: the headline, the limits that
may end the wait, the expectation, the load balancer's change, the client back again, and the
cures ranked. Every figure of these lines is read from the one Answer: the headline is the body's
conclusion (tests/unit/test_answer_words.py holds that over generated questions)."""
from . import Answer, back_by_name
from ..control.base import NoticeWindow
from ..measure.predict import Window
from .ranking import Ranking
from .limits import DIRECTOR, DRIVER, KERNEL, MONITOR, PROXY

WHO = {KERNEL: "the client's kernel", DRIVER: "the application", DIRECTOR: "the director", PROXY: "the proxy",
       MONITOR: "the driver's host monitor"}
PROXY_TITLES = {"haproxy": "HAProxy", "patroni": "HAProxy (following Patroni)"}


def seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.1f} s"


def span(window: Window | NoticeWindow) -> str:
    if window.earliest_s is None or window.latest_s is None:
        return "never"
    return f"{window.earliest_s:.1f}-{window.latest_s:.1f} s"


def ends_it(found: Answer) -> str:
    """Who ends a busy client's wait, in the headline's words."""
    first = found.first
    if first is None:            # nothing armed has a window of its own: the composed one says what ends it
        return found.error.basis
    if first.whose == KERNEL:
        return f"the kernel ({first.name})"
    if first.whose == MONITOR:
        return first.name
    if first.whose == DRIVER:
        return f"the application's {first.name}"
    if first.whose == PROXY:
        return f"through {PROXY_TITLES.get(found.question.plane, 'the proxy')}, {first.name}"
    return f"the director's reset ({first.name})"


def headline(found: Answer) -> str:
    if found.never:
        return f"Answer: nothing ends a busy client's wait: {found.error.basis}."
    line = f"Answer: {ends_it(found)} ends a busy client's wait after about {seconds(found.error.expected_s)}"
    first = found.first
    if first is not None and first.otherwise is not None:
        other = first.otherwise
        line = (f"Answer: {ends_it(found)} ends a busy client's wait {span(first.window)} after the death if its "
                f"checks meet the silent host, else {WHO[other.whose]} ({other.name}) after about "
                f"{seconds(other.window.expected_s)}")
    if found.back is not None and found.back.expected_s is None:
        line += "; it never answers again"
    elif found.back is not None:
        line += f"; it answers again after about {seconds(found.back.expected_s)}"
    if found.proxied:
        line += " (the client's own kernel limit never fires: the proxy ACKs all it sends)"
    return line + "."


def limit_lines(found: Answer) -> list[str]:
    """What may end the wait, the first first, each counted from the death."""
    out = ["What may end a busy client's wait after the death, the first one wins:"]
    out += [f"  {limit.window.expected_s:>8.1f} s  {WHO[limit.whose]}: {limit.name} ({span(limit.window)})"
            for limit in found.limits]
    if found.proxied:
        out.append("  (the client's own kernel never gives up: the proxy ACKs all it sends)")
    if not found.limits:
        out.append("  nothing")
    return out


def expectation_lines(found: Answer) -> list[str]:
    if found.never:
        return [f"Expected: no error; {found.error.basis}."]
    first = found.first
    told = first.told if first is not None else "an error"
    other = first.otherwise if first is not None else None
    if first is not None and other is not None:
        return [f"Expected: {told} {span(first.window)} after the death if its checks meet the silent host; "
                f"else {other.told} about {seconds(other.window.expected_s)} ({span(other.window)}): "
                f"{found.error.basis}."]
    return [f"Expected: {told} about {seconds(found.error.expected_s)} after the death, between "
            f"{found.error.earliest_s:.1f} and {found.error.latest_s:.1f} s ({found.error.basis})."]


def change_lines(found: Answer) -> list[str]:
    if found.question.promoted_after_s is not None and found.change is not None:
        return [f"The servers: {found.change.basis}, each by its own name: no name moves, no load balancer "
                "stands between."]
    if found.question.plane == "dns" and found.change is not None:
        settings = dict(found.question.plane_settings)
        daemon = ""
        if settings.get("cache", "none") != "none":
            expected, earliest, latest = back_by_name.nscd_window(found.change.expected_s, settings["ttl"])
            daemon = (f" {settings['cache']} on the clients' host answers the new address from {earliest:.1f} to "
                      f"{latest:.1f} s after the death (the record's TTL {settings['ttl']} s, then its next reload, "
                      f"at most {back_by_name.NSCD_PRUNE_S:g} s later), to every client that asks getaddrinfo; Go's "
                      "resolver asks the name server itself.")
        return [f"The name: {found.change.basis}; a connect whose lookup gets the new address reaches it, one "
                f"that still gets the old one meets the silent server.{daemon}"]
    if found.change is not None and found.change.latest_s == 0:
        return [f"The load balancer: {found.change.basis}: new connections reach the live server at once."]
    if found.change is None:
        return ["The load balancer: its model has no figure for when it stops sending new connections to the dead "
                "server."]
    return [f"The load balancer changes about {seconds(found.change.expected_s)} after the death "
            f"({span(found.change)}): {found.change.basis}."]


def back_lines(found: Answer) -> list[str]:
    if found.back is not None and found.back.expected_s is None:
        return [f"Back: {found.back.basis}."]
    if found.back is None:
        why = "it never errs" if found.never else "the load balancer's change is not modelled"
        return [f"Back: not known ({why})."]
    return [f"Back: the client answers again about {seconds(found.back.expected_s)} after the death "
            f"({span(found.back)}): {found.back.basis}."]


def ranking_lines(ranking: Ranking) -> list[str]:
    """The cures ranked by the model: saved to back again, the error and back beside, and the cost."""
    yours = ranking.yours
    out = ["Cures, ranked by the model (time saved to the client's first answer again):",
           f"  {'saved':>8} {'error':>9} {'back':>9}  change",
           f"  {'':>8} {seconds(yours.error.expected_s):>9} {seconds(_back(yours)):>9}  yours, as they are"]
    for row in ranking.rows:
        saved = "-" if row.saved_s is None else f"{row.saved_s:.1f} s"
        out.append(f"  {saved:>8} {seconds(row.answer.error.expected_s):>9} {seconds(_back(row.answer)):>9}  "
                   f"{row.cure.change}")
        out.append(f"  {'':>30}cost: {row.cure.cost}")
    out += [f"  not ranked: {why}" for why in ranking.left_out]
    return out


def _back(found: Answer) -> float | None:
    return found.back.expected_s if found.back is not None else None

