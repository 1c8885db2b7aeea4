"""The table a team can act on when a run has several clients: rows = clients, columns = what
was set, each cell detect / recover seconds, shaded by how long the application was stuck."""
import html

from ..databases import DATABASES, DEFAULT_DATABASE
from ..measure.summary_record import FailoverCell, RunSummary
from ..load.clients import CLIENTS

STUCK_BANDS = ((6.0, "#cfc"), (60.0, "#ffd98a"))     # under 6 s: fine; under a minute: slow; else red
STUCK_RED = "#f99"


def column(cell: FailoverCell) -> str:
    """What a cell set, in words: 'defaults', 'own timeout', 'TCP_USER_TIMEOUT 5000 ms (socket option)',
    'pgx: tcp_user_timeout=5000' (a driver's own setting), ..."""
    knobs, client = cell.knobs, cell.client
    spec = CLIENTS.get(client.name) if client else None
    parts = [f"{knobs['account']} account"] if knobs.get("account") else []
    parts += ["own timeout"] if knobs.get("read_timeout_s") else []     # the probe's read timeout is its own
    settings = [f"{key}={str(value).lower() if isinstance(value, bool) else value}"
                for key, value in (client.settings if client else {}).items() if not spec or key != spec.read_timeout]
    if client and settings:         # the driver's own settings, said as its: 'pgx: tcp_user_timeout=5000'
        parts.append(f"{client.name}: " + " + ".join(settings))
    if knobs.get("tcp_user_timeout_ms"):
        parts.append(f"TCP_USER_TIMEOUT {knobs['tcp_user_timeout_ms']} ms (socket option)")
    if knobs.get("keepalive"):
        parts.append(f"keepalive {knobs['keepalive']}")
    return " + ".join(parts) or "defaults"


def client_of(cell: FailoverCell, probe_library: str = "pymysql") -> str:
    """The cell's client by name; the lab's own probe by the library it spoke (probe_library)."""
    return cell.client.name if cell.client else probe_library


def probe_library_of(summary: RunSummary) -> str:
    """What the lab's probe spoke on the run's engine: PyMySQL, or the engine's own (libpq)."""
    engine = DATABASES.get(summary.database.engine or DEFAULT_DATABASE)
    if engine and engine.probe_title:
        return engine.probe_title
    return engine.probe_library[0] if engine and engine.probe_library else "pymysql"


def grid(summary: RunSummary) -> tuple[list[str], dict[str, dict[str, FailoverCell]]] | None:
    """(columns, {client: {column: cell}}), or None when the run has fewer than two clients."""
    cells = summary.cells
    library = probe_library_of(summary)
    clients = list(dict.fromkeys(client_of(c, library) for c in cells))
    if len(clients) < 2:
        return None
    columns = list(dict.fromkeys(column(c) for c in cells))
    rows: dict[str, dict[str, FailoverCell]] = {name: {} for name in clients}
    for c in cells:
        rows[client_of(c, library)].setdefault(column(c), c)
    return columns, rows


def stuck_s(cell: FailoverCell) -> float | None:
    """How long the application was stuck: until it recovered, else until it was told, else None."""
    return cell.probe.recover_s if cell.probe.recover_s is not None else cell.probe.detect_s


def _text(cell: FailoverCell) -> str:
    probe = cell.probe
    if probe.never_worked:
        return "never worked"
    if probe.detect_s is None and probe.recover_s is None:
        return "still stuck" if cell.predicted.expected_s is not None else "no error"
    detect = "—" if probe.detect_s is None else f"{probe.detect_s:.1f}"
    recover = "—" if probe.recover_s is None else f"{probe.recover_s:.1f}"
    return f"{detect} / {recover} s"


def terminal(summary: RunSummary) -> str:
    table = grid(summary)
    if table is None:
        return ""
    columns, rows = table
    lines = [["client (detect / recover)"] + columns]
    lines += [[name] + [_text(row[col]) if col in row else "" for col in columns] for name, row in rows.items()]
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(line, widths)) for line in lines)


def colour(cell: FailoverCell) -> str:
    stuck = stuck_s(cell)
    if cell.probe.never_worked:
        return STUCK_RED
    if stuck is None:         # no error seen: unharmed, or still stuck when the run ended
        stuck_at_end = cell.probe.stall_s or cell.predicted.expected_s is not None
        return STUCK_RED if stuck_at_end else "#eee"
    return next((shade for limit, shade in STUCK_BANDS if stuck < limit), STUCK_RED)


def html_table(summary: RunSummary) -> str:
    table = grid(summary)
    if table is None:
        return ""
    columns, rows = table
    head = "<tr><th>client</th>" + "".join(f"<th>{html.escape(c)}</th>" for c in columns) + "</tr>"
    body = []
    for name, row in rows.items():
        tds = []
        for col in columns:
            cell = row.get(col)
            if cell is None:
                tds.append("<td></td>")
                continue
            saw = (cell.client.saw if cell.client else None) or cell.probe.error or ""
            title = html.escape(f"{cell.name}: {saw}", quote=True)
            tds.append(f"<td style='background:{colour(cell)}' title='{title}'>{html.escape(_text(cell))}</td>")
        driver = next((c.client.driver for c in row.values() if c.client), None)
        label = html.escape(name) + (f"<br><small>{html.escape(driver)}</small>" if driver else "")
        body.append(f"<tr><th>{label}</th>{''.join(tds)}</tr>")
    return ("<h2>Which settings save each client</h2><table>" + head + "".join(body) + "</table>"
            "<p>Seconds after the fault: first error the application saw / first success after it. Green: "
            "back within 6 s; amber: within a minute; red: longer, or never within the run.</p>")


def client_details(summary: RunSummary) -> tuple[list[str], list[list[str]]]:
    """Rows for the per-cell client table: driver, what the application saw, reconnect time, reuse."""
    rows = []
    for c in summary.cells:
        client = c.client
        if not client:
            continue
        applied = client.socket_options_applied
        asked = c.knobs.get("tcp_user_timeout_ms") or c.knobs.get("keepalive")
        took = ", ".join(f"{k}={v}" for k, v in applied.items()) or ("NONE: its sockets bypass libc" if asked else "—")
        rows.append([c.name, client.driver or "—", client.saw or "—",
                     "—" if client.reconnect_s is None else f"{client.reconnect_s:.2f} s",
                     str(client.dead_connections_handed_out), took])
    return ["cell", "driver", "the application saw", "reconnect took", "dead connections handed out",
            "socket options the kernel took (libsockopts)"], rows
