"""The run page's section on the cells whose client went through a connection pool
(the signal: __init__.py): what closed the pool's server leg and then the client's connection, in the
pool's own log, beside the moment the client noticed and the model's reason."""
from collections.abc import Mapping
from typing import Any

from ..blocks import Block, cell_rows, seconds, table_and_note
from .record import PoolPart

TITLE = "Through a connection pool: what closed each connection"
READS = {"cells": ("pool", "probe")}
HEADER = ["cell", "pool", "its settings", "server leg closed", "why (its log)", "client closed",
          "the client noticed", "the model's reason"]


def _row(cell: Mapping[str, Any], part: PoolPart) -> list[str]:
    settings = ", ".join(f"{k}={v}" for k, v in part["settings"].items()) or "defaults"
    return [cell["cell"], part.get("version") or part["name"], settings, seconds(part.get("server_closed_s")),
            part.get("server_reason", "—"), seconds(part.get("client_closed_s")),
            seconds(cell.get("probe", {}).get("detect_s")), part["basis"]]


def rows(summary: Mapping[str, Any]) -> list[list[Any]]:
    return cell_rows(summary, "pool", _row)


def blocks(summary: Mapping[str, Any]) -> list[Block]:
    return table_and_note(
        HEADER, rows(summary),
        "Times are seconds after the fault. The pool runs beside the client, in its network namespace (its "
        "sysctls, tcp_retries2 among them, are the pool's too), on loopback: the client's own TCP_USER_TIMEOUT "
        "never fires on a leg the pool keeps answering. pgbouncer closes the client's connection when its "
        "server leg fails (\"server conn crashed?\": the kernel gave up, at tcp_retries2 or pgbouncer's "
        "tcp_user_timeout) or when its query_timeout passes (checked three times a second).")
