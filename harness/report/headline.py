"""The answer first: the sentences a run's page, summary.md and the terminal open (or end) with,
made from the summary alone: what the scenario set out to show, the worst client and how long it
hung (or that it still hung when the run ended, beside its model's figure), how many cells met
their model windows, when the load balancer acted, and what the writes did."""
from collections.abc import Mapping, Sequence
from typing import Any

from ..faults.promote_replica import PromoteReplica
from ..faults.read_only import ReadOnly
from ..measure.summary_record import FailoverCell, RunSummary, Step
from ..signals.data import section


def sentences(run: RunSummary) -> list[str]:
    """[sentence, ...] for a failover run with cells; [] otherwise."""
    if run.kind == "burst" or not run.cells:
        return []
    found = [run.purpose] if run.purpose else []
    return found + [s for s in (_worst(run), _on_read_only(run), _windows(run.cells), _load_balancer(run.cells),
                                _writes(run.signals)) if s]


def still_waiting(cell: FailoverCell) -> bool:
    """The cell's client had neither an error nor a success after its hang when the run ended."""
    p = cell.probe
    return not cell.survived and p.detect_s is None and p.recover_s is None and not p.never_worked


def _worst(run: RunSummary) -> str:
    cells = [c for c in run.cells if not c.probe.never_worked]
    waiting = [c for c in cells if still_waiting(c)]
    if waiting:
        return _still_waiting(cells, waiting, run.observed_s)
    hung = [c for c in cells if c.probe.detect_s is not None]
    if not hung:
        return "No client saw an error or a hang." if cells else ""
    worst = max(hung, key=lambda c: c.probe.recover_s if c.probe.recover_s is not None else c.probe.detect_s or 0.0)
    p = worst.probe
    told = f"its first error ({p.error}) came {p.detect_s:.2f} s after the fault" if p.error else \
        f"it was told {p.detect_s:.2f} s after the fault"
    back = (f"it was back {p.recover_s:.2f} s after the fault" + (f", on {p.server_after}" if p.server_after else "")
            if p.recover_s is not None else "it was not back when the run ended")
    return f"Worst: {worst.name}: {told}; {back}."


def _still_waiting(cells: Sequence[FailoverCell], waiting: Sequence[FailoverCell], observed_s: float | None) -> str:
    worst = max(waiting, key=lambda c: c.predicted.expected_s or 0)
    names = ", ".join(c.name for c in waiting)
    until = f", {observed_s:.1f} s after the fault" if observed_s is not None else ""
    w = worst.predicted
    model = ("" if w.expected_s is None or w.earliest_s is None or w.latest_s is None else
             f"; the model says {worst.name}'s kernel gives up about {w.expected_s:.1f} s after it "
             f"(window {w.earliest_s:.1f}–{w.latest_s:.1f} s)")
    unrecovered = [c.name for c in cells if c.probe.detect_s is not None and c.probe.recover_s is None]
    after_error = (f"; {', '.join(unrecovered)} had an error and {'was' if len(unrecovered) == 1 else 'were'} not "
                   "back by then" if unrecovered else "")
    return (f"Worst: {names} {'was' if len(waiting) == 1 else 'were'} still waiting when the run ended"
            f"{until}{model}{after_error}.")


def read_only_servers(steps: Sequence[Step]) -> dict[str, float]:
    """{server: s from the fault it turned read-only} for the servers a read_only step demoted and
    no later promote_replica made writable again."""
    found: dict[str, float] = {}
    for step in steps:
        if step.event != "fault":
            continue
        server = str(step.params.get("target"))
        if step.name == ReadOnly.name:
            found[server] = step.at_s
        elif step.name == PromoteReplica.name:
            found.pop(server, None)
    return found


def _on_read_only(run: RunSummary) -> str:
    """Cells back on a server that refuses writes: their reads were answered, their writes would not be."""
    demoted = read_only_servers(run.steps)
    back_on: dict[str, list[str]] = {}
    for cell in run.cells:
        server = cell.probe.server_after
        if isinstance(server, str) and server in demoted:
            back_on.setdefault(server, []).append(cell.name)
    return " ".join(
        f"{', '.join(cells)} {'was' if len(cells) == 1 else 'were'} back on {server}, which refused writes from "
        f"{abs(demoted[server]):.1f} s {'before' if demoted[server] < 0 else 'after'} the fault on (read_only): "
        "reads answered there, every write refused." for server, cells in back_on.items())


def _windows(cells: Sequence[FailoverCell]) -> str:
    return " ".join(part for part in (_judged(cells), _undecided(cells)) if part)


def _undecided(cells: Sequence[FailoverCell]) -> str:
    """The cells whose verdict is unknown (measure/verdict.py), each with why; '' for none."""
    unknown = [f"{c.name} ({c.probe.verdict.why})" for c in cells if c.probe.verdict is not None
               and c.probe.verdict.value == "unknown" and not c.probe.never_worked]
    return "Not decided by the run: " + "; ".join(unknown) + "." if unknown else ""


def _judged(cells: Sequence[FailoverCell]) -> str:
    judged = [c for c in cells if c.probe.within_window is not None]
    if not judged:
        return ""
    late = [c.name for c in judged if c.probe.within_window is False]
    if not late:
        return (f"All {len(judged)} cells with a model window ended inside it." if len(judged) > 1
                else "The one cell with a model window ended inside it.")
    if len(judged) == 1:
        return (f"The one cell with a model window, {late[0]}, ended outside it (the table says how far and what "
                "the run measured beside it).")
    return (f"{len(judged) - len(late)} of {len(judged)} cells with a model window ended inside it; "
            f"outside: {', '.join(late)} (the table says how far and what the run measured beside it).")


def _load_balancer(cells: Sequence[FailoverCell]) -> str:
    parts = [c.lb for c in cells if c.lb is not None and c.lb.noticed_s is not None]
    if not parts:
        return ""
    first = min(parts, key=lambda part: part.noticed_s or 0.0)
    noticed = first.noticed_s or 0.0
    said = f" (its model: {first.model.earliest_s:.1f}–{first.model.latest_s:.1f} s)" if first.model else ""
    if first.within_model is False:
        said += ", outside its model"
    by = first.noticed_by_s
    when = f"{noticed:.1f}–{by:.1f}" if by is not None and by - noticed >= 0.05 else f"{noticed:.1f}"
    return f"The load balancer ({first.director}) acted {when} s after the fault{said}."


def _writes(signals: Mapping[str, Any]) -> str:
    data = signals.get("data")
    if not data:
        return ""
    if "writer_log" in data:
        return f"The writer made no attempt (its log is {data['writer_log']}): nothing is known of the writes."
    lost = f", {data['lost']} of them lost" if data.get("read_back") else ", the new primary not read back"
    refused = "".join(f", {r['count']} refused by {r['server']} ({r['error']})" for r in data.get("refused", ()))
    said = f"The writer: {data['acknowledged']} write(s) acknowledged{lost}{refused}"
    if data.get("writes_resumed") is False:
        return (said + f"; none acknowledged from {section.since(data)} to the end of the run "
                f"({data['unwritten_s']:.1f} s), so what it would have lost after then is unknown.")
    if data.get("unwritten_s") is not None:
        if section.since(data) == "the fault":
            return said + f"; writes were acknowledged again {data['unwritten_s']:.1f} s after the fault."
        return (said + f"; none acknowledged for {data['unwritten_s']:.1f} s from {section.since(data)}, "
                "then again.")
    return said + "."
