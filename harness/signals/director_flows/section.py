"""The run page's section on reconnects a flow the director kept blackholed
(the signal: __init__.py; kept_flows.py)."""
from collections.abc import Mapping
from typing import Any

from ..blocks import Block, Table
from .record import KeptFlowReconnect

TITLE = "Reconnects into a flow the director kept"
READS = {"signals": ("director_flows",)}
HEADER = ["client namespace", "reconnect from", "director's kept flow to", "its state", "SYN resent from",
          "last seen waiting", "got through"]


def part_of(summary: Mapping[str, Any]) -> list[KeptFlowReconnect] | None:
    return summary.get("signals", {}).get("director_flows", {}).get("kept_flow_reconnects")


def rows(found: list[KeptFlowReconnect]) -> list[list[str]]:
    return [[r["namespace"], r["client"], r["backend"], r["flow_state"], f"{r['first_resent_s']:.1f} s",
             f"{r['last_seen_s']:.1f} s", "yes" if r["got_through"] else "no"] for r in found]


def explanation(found: list[KeptFlowReconnect]) -> str:
    stuck = sum(not r["got_through"] for r in found)
    return (f"{len(found)} reconnect(s) took a local port whose blackholed connection the director still held: "
            "their SYNs followed the kept flow to the server the fault took away and were lost too "
            f"({stuck} still waiting when the run ended). A client without a connect timeout of its own waits "
            "out tcp_syn_retries there; times are seconds after the fault.")


def blocks(summary: Mapping[str, Any]) -> list[Block]:
    found = part_of(summary)
    return [Table(HEADER, rows(found)), explanation(found)] if found else []
