"""What the data accounting reads from the database servers once the writer has stopped: each
server's ledger (the writer's rows, per seq how many copies) and its semi-sync counters, straight
from the server; a server that cannot be read is recorded with why."""
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from ...measure.run_files import RunFiles

if TYPE_CHECKING:
    from ..base import ReadBackLab

LEDGER_SQL = "SELECT seq, COUNT(*) FROM sbtest.ledger GROUP BY seq ORDER BY seq"
# A busy machine's Docker engine once held all four reads of a run (two servers, two queries each)
# past a 30 s limit while other labs of make test came and went; the servers' logs showed nothing.
LEDGER_READ_LIMIT_S = 90


def read_ledgers(lab: "ReadBackLab", run: RunFiles, servers: Sequence[str], ledger_file: Callable[[str], Path],
                 semi_sync_file: Callable[[str], Path]) -> None:
    """ledger_file(server), semi_sync_file(server): where each server's reading goes."""
    def read(server: str, sql: str) -> str:
        try:
            rows = lab.database.query(lab, server, sql, timeout=LEDGER_READ_LIMIT_S)
            return "".join("\t".join(row) + "\n" for row in rows)
        except Exception as exc:
            return f"# unreadable: {str(exc).splitlines()[0] if str(exc) else repr(exc)}\n"
    semi_sync = lab.database.semi_sync_status_sql
    wanted = [(server, path, sql) for server in servers
              for path, sql in ((ledger_file(server), LEDGER_SQL), (semi_sync_file(server), semi_sync)) if sql]
    with ThreadPoolExecutor(max(1, len(wanted))) as pool:
        for (_, path, _), text in zip(wanted, pool.map(lambda w: read(w[0], w[2]), wanted)):
            run.write_text(path, text)
