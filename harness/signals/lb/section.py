"""Each cell's outage in two, where a control plane acted by itself (keepalived): "LB noticed"
(the fault to its change of the cell's director, beside its model) and "client noticed" (that
change to the client's error). Nothing for runs whose director a scenario step changed."""
from collections.abc import Mapping
from typing import Any

from ..blocks import Block, Table
from .record import LbPart

TITLE = "The outage in two: LB noticed, then client noticed"
READS = {"cells": ("lb", "probe"), "signals": ("lb",)}
HEADER = ["cell", "director", "LB noticed", "LB model", "in model", "client noticed", "then on", "LB change"]


def _between(low: float | None, high: float | None) -> str:
    return "—" if low is None else f"{low:.2f} s" if high is None or abs(high - low) < 0.005 else f"{low:.2f}–{high:.2f} s"


def _from_zero(seconds: float | None) -> float | None:
    """A span's start read inside the change's own span (after the fault began, before its stamp;
    an error the change itself caused) is at 0, never "-0.00" or "-0.11"."""
    return None if seconds is None else max(0.0, seconds)


def client_noticed(lb: LbPart, probe: Mapping[str, Any]) -> str:
    """The LB's change to the client's error; a client that gave up before the change is said in
    words, with what its reconnection met: the dead server, until the change put the new one in."""
    if lb["client_noticed_from_s"] is None or lb["client_noticed_from_s"] >= 0:
        return _between(_from_zero(lb["client_noticed_s"]), lb["client_noticed_from_s"])
    before = -lb["client_noticed_from_s"]
    back = probe.get("recover_s")
    then = (f"; its reconnects met the dead server until the change, back {back - lb['noticed_s']:.1f} s after it"
            if back is not None and lb["noticed_s"] is not None else "; not back within the observation")
    return f"gave up {before:.1f} s before the LB's change{then}"


def rows(summary: Mapping[str, Any]) -> list[list[Any]]:
    found = []
    for cell in summary.get("cells", []):
        lb = cell.get("lb")
        if lb is None:
            continue
        model = lb["model"]
        found.append([cell["cell"], lb["director"], _between(_from_zero(lb["noticed_s"]), lb["noticed_by_s"]),
                      "—" if model is None else f"{model['earliest_s']:.1f}–{model['latest_s']:.1f} s",
                      "—" if lb["within_model"] is None else "yes" if lb["within_model"] else "NO",
                      client_noticed(lb, cell["probe"]), cell["probe"]["server_after"] or "—",
                      lb["change"] or "none"])
    return found


def explanation(summary: Mapping[str, Any]) -> str:
    """The model's words for the first cell that has them."""
    lbs = [c["lb"] for c in summary.get("cells", []) if c.get("lb")]
    model = next((lb["model"] for lb in lbs if lb["model"]), None)
    if model is not None:
        return f"LB model: {model['basis']}."
    if any(lb["change"] for lb in lbs):
        return ("LB model: none: the fault killed nothing, so each change was a false alarm of the control "
                "plane's own checks.")
    return "LB model: none (the control plane changed nothing after the fault)."


def promotion_line(summary: Mapping[str, Any]) -> list[str]:
    """The control plane's own promotion (Patroni), beside its model: the new primary the director
    then followed."""
    p = summary.get("signals", {}).get("lb", {}).get("promotion")
    if not p:
        return []
    m = p["model"]
    return [f"{p['by']} promoted {p['server']} {p['promoted_s']:.2f} s after the fault (model "
            f"{m['earliest_s']:.1f}–{m['latest_s']:.1f} s, {'in' if p['within_model'] else 'OUTSIDE'} it: "
            f"{m['basis']}); "
            + (f"then {p['director_up']}, {p['director_up_s']:.2f} s after the fault, "
               f"{p.get('director_by', 'by its own checks')}."
               if p.get("director_up") else "no director marked it up within the observation.")]


def blocks(summary: Mapping[str, Any]) -> list[Block]:
    split = rows(summary)
    if not split:
        return []
    return [Table(HEADER, split), f"{explanation(summary)} Client noticed: from the director's change to the client's "
            "error; the client's own model window above is counted from the fault.", *promotion_line(summary)]
