"""The run page's section on what ended each client's session through a proxy director
(the signal: __init__.py): the proxy's own log line for it, and the FIN or RST a capture on the
director saw it send the client, beside the moment the client noticed."""
from collections.abc import Mapping
from typing import Any

from ..blocks import Block, cell_rows, seconds, table_and_note
from .record import LaterSession, ProxyPart

TITLE = "What ended each wait: by the proxy, and on the wire"
READS = {"cells": ("proxy", "probe")}
HEADER = ["cell", "director", "session ended by", "HAProxy's state", "ended", "the client got", "sent",
          "the client noticed", "its reconnections, ended by HAProxy"]


def _later(sessions: list[LaterSession]) -> str:
    return "; ".join(f"on {s['server']}: {s['termination']} at {s['ended_s']:.2f} s ({s['ended_by']})"
                     for s in sessions) or "—"


def _row(cell: Mapping[str, Any], part: ProxyPart) -> list[str]:
    got = part.get("client_got", "nothing")
    noticed = seconds(cell.get("probe", {}).get("detect_s"))
    if got == "nothing" and noticed != "—":
        noticed += " (by its own limit)"          # its read timeout, say: the proxy sent it nothing
    return [cell["cell"], part["director"], part["ended_by"], part.get("termination", "—"),
            seconds(part.get("ended_s")), got, seconds(part.get("client_got_s")), noticed,
            _later(part.get("later", []))]


def rows(summary: Mapping[str, Any]) -> list[list[Any]]:
    return cell_rows(summary, "proxy", _row)


def blocks(summary: Mapping[str, Any]) -> list[Block]:
    return table_and_note(
        HEADER, rows(summary),
        "Times are seconds after the death. The session's end and how it ended are HAProxy's own log (option "
        "tcplog's termination state: D the server marked down, s timeout server, S an error on the server leg, "
        "C the client, K an operator's shutdown, U the primary back with shutdown-backup-sessions); what the "
        "client got is a capture on the director of the segments it sent the client's "
        "port (a FIN; with option nolinger a RST may follow it, when HAProxy closes before the client's FIN "
        "comes back); \"nothing\": the director sent the client no FIN or RST before the run ended, and the "
        "client's own kernel never gives up on a leg the proxy keeps answering: a client that noticed did so by "
        "a limit of its own (a read timeout), not by the proxy.")
