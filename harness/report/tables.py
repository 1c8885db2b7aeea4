"""A run's results as text: the terminal table and summary.md, for both kinds of run."""
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from ..databases import DATABASES
from ..measure.summary_record import DatabaseRan, Outcome, RunStatus, RunSummary, Window
from ..signals.blocks import Subheading, Table
from ..signals.lb import section as lb_split
from . import client_grid, headline, marks, sections


def _fmt(value: object, unit: str = " s") -> str:
    return "—" if value is None else f"{value:.2f}{unit}" if isinstance(value, float) else str(value)


FAILOVER_HEADER = ["cell", "detect", "model window", "in window", "recover", "error", "then on",
                   "sysbench detect", "sysbench recover", "tps=0 s"]
BURST_HEADER = ["cell", "server", "target", "backlog", "connect() took (band: connections)",
                "HTTP statuses the client got", "errors the client got", "statuses in nginx's log",
                "ListenOverflows"]


def _in_window(probe: Outcome, status: RunStatus) -> str:
    """yes, NO, or unknown with why (measure/verdict.py); a summary written before verdicts had
    three values says only what its two-valued field says."""
    if probe.verdict is not None:
        return {"valid": "yes", "invalid": "NO"}.get(probe.verdict.value) or f"unknown: {probe.verdict.why}"
    if probe.within_window is None:          # interrupted / failed, or the window opens after the run ended
        return "after the run" if status.state == "completed" else status.state
    return "yes" if probe.within_window else "NO"


def _how_far(probe: Outcome, window: Window) -> str:
    """', 1.25 s after the window' for a cell outside its window (as the table shows the window); '' else."""
    if probe.within_window is not False or window.expected_s is None:
        return ""
    detect = probe.detect_s
    if detect is None:
        return ", no error by the end of the run"
    if window.latest_s is not None and detect > window.latest_s:
        return f", {detect - window.latest_s:.2f} s after the window"
    if window.earliest_s is not None and detect < window.earliest_s:
        return f", {window.earliest_s - detect:.2f} s before the window"
    return ""


LOST_ANSWER = "lost answer"


def lost_answer_note(summary: RunSummary) -> str:
    """What 'lost answer' in the error column means, when a cell of the run shows it; else ''."""
    waiting = [c.name for c in summary.cells if c.probe.waits_for_a_lost_answer]
    if not waiting:
        return ""
    return (f"{LOST_ANSWER} ({', '.join(waiting)}): the old server had acknowledged the request in flight and its "
            "answer went with the flow; ss saw nothing left to resend, so neither tcp_retries2 nor a director's "
            "reset ends the wait, only a read timeout or keepalive would.")


def output_cut_note(summary: RunSummary) -> str:
    """Where the dead server's output was cut with clients still waiting for an answer (its fault's
    limit passed): those clients wait as for a hung server; else ''."""
    seen = summary.fault.seen if summary.fault else {}
    if not seen.get("unanswered_at_output_cut"):
        return ""
    return (f"The dead server's output was cut {seen['answers_out_wait_s']:.2f} s after its input (the fault waits "
            f"{seen['answers_out_limit_s']:g} s at most) with {seen['unanswered_at_output_cut']} client "
            "connection(s) still waiting for an answer to a request its kernel had acknowledged: such a client "
            f"does not retransmit, it waits as for a hung server ({LOST_ANSWER} in its row, where ss saw it).")


def run_notes(summary: RunSummary) -> list[str]:
    """The paragraphs after the cells' table that say what the run's own records add: non-empty only."""
    return [note for note in (lost_answer_note(summary), output_cut_note(summary), loads_ended_note(summary)) if note]


def _why_late(cell: Mapping[str, Any]) -> str:
    """What the run measured beside a late cell's verdict: its kernel in the window, a saturated CPU."""
    reasons = sections.late_reasons(cell)
    return f" ({'; '.join(reasons)})" if reasons else ""


def failover_rows(summary: RunSummary) -> list[list[str]]:
    rows = []
    for c in summary.cells:
        p, w, sb = c.probe, c.predicted, c.sysbench
        verdict = ("never worked" if p.never_worked
                   else _in_window(p, summary.status) + _how_far(p, w) + _why_late(c.parts))
        rows.append([c.name, _fmt(p.detect_s), _window(w), verdict,
                     _fmt(p.recover_s), p.error or (LOST_ANSWER if p.waits_for_a_lost_answer else "—"),
                     p.server_after or "—",
                     _fmt(sb.detect_s if sb else None), "crashed" if sb and sb.crashed else _fmt(sb.recover_s if sb else None),
                     "—" if not sb else f"{sb.stalled_s} s"])
    return rows


def burst_rows(summary: RunSummary) -> list[list[str]]:
    rows = []
    for c in summary.burst_cells:
        server = summary.servers.get(c.server, {})
        steps = ", ".join(f"{band.replace('-', '–').replace('s', ' s')}: {n}" for band, n in c.connect_steps.items())
        rows.append([c.name, c.server, c.target, str(server.get("backlog", "128")), steps or "—",
                     _counts(c.statuses), _counts(c.errors), _counts(c.nginx_statuses),
                     str(c.server_counters["TcpExtListenOverflows"])])
    return rows


def _counts(counted: Mapping[str, int]) -> str:
    """'200: 34, 504: 30' ('—' for none): a count of each status or error, most first."""
    return ", ".join(f"{name}: {n}" for name, n in sorted(counted.items(), key=lambda item: -item[1])) or "—"


def header_and_rows(summary: RunSummary) -> tuple[list[str], list[list[str]]]:
    if summary.kind == "burst":
        return BURST_HEADER, burst_rows(summary)
    return FAILOVER_HEADER, failover_rows(summary)


def loads_ended_note(summary: RunSummary) -> str:
    """'r5's sysbench exited -11 10.2 s after the fault: ...' for loads that ended during the run."""
    return " ".join(f"{e.cell}'s {e.load} {e.how} (seen {e.at_s:.1f} s after the fault): the run did not "
                    "wait for it to come back." for e in summary.loads_ended)


def status_line(summary: RunSummary) -> str:
    status = summary.status
    if status.state == "interrupted":
        return f"INTERRUPTED by {status.by} while {status.phase}: cells not decided by then say so."
    if status.state == "failed":
        return f"FAILED while {status.phase}: {status.reason}"
    return "completed"


def run_line(summary: RunSummary) -> str:
    """'kernel 6.12.x, datapath ipvs, database MySQL 9.7.4', each part only where the run recorded it."""
    parts = [f"{name} {value}" for name, value in (("kernel", summary.kernel), ("datapath", summary.datapath)) if value]
    return ", ".join(parts + [f"database {database_line(summary.database)}"])


def window_bases(summary: RunSummary) -> tuple[list[str], list[list[str]]]:
    """(header, rows): each cell's model window and what it counts, in full (the recovery chart's
    rows, in its order)."""
    cells = sorted(summary.cells,
                   key=lambda c: (c.predicted.expected_s is None, c.predicted.expected_s or 0, c.name))
    return (["cell", "model window", "what the model counts"],
            [[c.name, _window(c.predicted), c.predicted.basis or "—"] for c in cells])


def _window(window: Window) -> str:
    if window.expected_s is None or window.earliest_s is None or window.latest_s is None:
        return "never"
    return f"{window.earliest_s:.1f}–{window.latest_s:.1f} s"


def drop_empty_columns(header: Sequence[str], rows: Sequence[Sequence[str]]) -> tuple[list[str], list[list[str]]]:
    """(header, rows) without the columns that say nothing ('—' or '') on every row; the first stays."""
    keep = [i for i in range(len(header)) if i == 0 or any(row[i] not in ("—", "") for row in rows)]
    return [header[i] for i in keep], [[row[i] for i in keep] for row in rows]


def database_line(ran: DatabaseRan) -> str:
    """'MySQL 9.7.4-2': the engine the run's database servers ran and the version they reported,
    and the port they listened on when it is not the engine's own ('PostgreSQL 15.14 on port 3306,
    the lab's database port, not its usual 5432')."""
    engine = DATABASES.get(ran.engine)
    name = engine.title if engine else ran.engine
    line = f"{name} {ran.version}" if ran.version else name
    if engine and engine.usual_port != engine.port:
        line += f" on port {engine.port}, the lab's database port, not its usual {engine.usual_port}"
    return line


# For an 80-column terminal: which columns, each clipped to a width.
NARROW_COLUMNS = {"failover": ((0, 18), (1, 9), (2, 14), (3, 13), (4, 9), (5, 14)),
                  "burst": ((0, 18), (4, 30), (5, 28))}


def terminal_table(summary: RunSummary, narrow: bool = False) -> str:
    """The cells' table, then the notes, with the answer (headline.py) as its last lines."""
    table = _terminal_table(summary, narrow)
    answer = [textwrap.fill(s, 79) if narrow else s for s in headline.sentences(summary)]
    return table + ("\n\n" + "\n".join(answer) if answer else "")


def _terminal_table(summary: RunSummary, narrow: bool = False) -> str:
    header, rows = header_and_rows(summary)
    if not narrow:
        header, rows = drop_empty_columns(header, rows)
    rows = [header] + rows
    if narrow:
        keep = NARROW_COLUMNS[summary.kind]
        rows = [[_clip(row[i], width) for i, width in keep] for row in rows]
        widths = [max(len(r[i]) for r in rows) for i in range(len(keep))]
        return "\n".join("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows)
    text = _aligned(rows)
    for late in sections.late_notes(summary.written):
        text += "\n" + late
    split = lb_split.rows(summary.written)
    if split:
        text += "\n\n" + _aligned([lb_split.HEADER] + split) + "\n" + lb_split.explanation(summary.written)
    grid = client_grid.terminal(summary) if summary.kind != "burst" else ""
    return text + ("\n\n" + grid if grid else "")


def _aligned(rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(r, widths)) for r in rows)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + [
        "| " + " | ".join(row) + " |" for row in rows]


def markdown(summary: RunSummary) -> str:
    header, rows = header_and_rows(summary)
    if summary.kind == "burst":
        lines = [f"# {summary.scenario} — {summary.run}", ""] + _markdown_table(header, rows)
        lines += ["", "connect() took: how many connections completed connect() within each band of seconds; "
                      "ListenOverflows: the server namespace's counter during the cell's burst."]
        return "\n".join(lines) + "\n"
    answer = headline.sentences(summary)
    lines = [f"# {summary.scenario} — {summary.run}", "", *([" ".join(answer), ""] if answer else []),
             status_line(summary), "", f"{run_line(summary)}; fault {marks.fault_and_steps(summary)}",
             *([f"verdict: {summary.verdict.value}: {summary.verdict.why}"] if summary.verdict else []),
             ""] + _markdown_table(*drop_empty_columns(header, rows))
    for title, blocks in sections.shown(summary.written):
        lines += ["", title]
        for block in blocks:
            if isinstance(block, Table):
                lines += [""] + _markdown_table(block.header, block.rows)
            elif isinstance(block, Subheading):
                lines += ["", block.text]
            elif lines[-1] and not lines[-1].startswith("|") and lines[-1] != title:
                lines.append(block)            # the sentences after a table: one paragraph
            else:
                lines += ["", block]
    details_header, details = client_grid.client_details(summary)
    if details:
        lines += ["", "```", client_grid.terminal(summary), "```", ""] + _markdown_table(details_header, details)
    for late in sections.late_notes(summary.written):
        lines += ["", late]
    for note in run_notes(summary):
        lines += ["", note]
    if summary.note:
        lines += ["", summary.note]
    lines += ["", "Times are seconds after the fault took effect (probe: ms precision; sysbench: 1 s lines)."]
    return "\n".join(lines) + "\n"
