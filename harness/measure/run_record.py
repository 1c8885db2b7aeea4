"""What a failover run's events and files say about the run as a whole: its first fault, when
it was healed, how the run ended, and a cell's verdict against its model window."""
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, TypedDict

from . import probe_log, ss_log
from .effects import Effect
from .recovery import Outcome
from .run_files import RunFiles
from .summary_record import RunStatus
from .verdict import Verdict, of_cell
from .window import Window

Event = Mapping[str, Any]       # one line of a run's events.jsonl


class NextOperation(TypedDict):
    took_s: float
    ok: bool
    error: str | None
    server: str | None


class DeclaresEffects(Protocol):
    """A scenario's step, as far as the effect it declares (scenario/model.py's Step gives it)."""

    def effect(self) -> Effect: ...


class StepsOfScenario(Protocol):
    """What an old run's fault event needs of its scenario (scenario/model.py's Scenario gives it)."""

    @property
    def steps(self) -> Sequence[DeclaresEffects]: ...


class InANamespace(Protocol):
    @property
    def namespace(self) -> str: ...


def first_fault(events: Sequence[Event], scenario: StepsOfScenario | None = None) -> Event | None:
    """The fault the run's times count from: the first that existing flows notice (a replication
    cut before the failover prepares it), or the first of all when none of them do. A fault event
    from before effects were recorded takes its step's effect from the run's scenario; without the
    scenario it is refused, never counted as noticed by default."""
    faults = [e for e in events if e.get("source") == "harness" and e["event"] == "fault"]
    noticed = (e for e in faults if _effect_of(e, scenario).flows_notice)
    return next(noticed, faults[0] if faults else None)


def _effect_of(fault: Event, scenario: StepsOfScenario | None) -> Effect:
    if "effect" not in fault and scenario is None:
        raise ValueError(f"the fault event of {fault['name']} (step {fault.get('step')}) records no effect: "
                         "read it with the run's scenario (scenario.of_run)")
    return fault_effect(fault, scenario)


def heal_of(events: Iterable[Event], fault: Event) -> Event | None:
    """When the first fault was healed by a heal step (not by the end-of-run cleanup)."""
    return next((e for e in events if e.get("source") == "harness" and e["event"] == "heal"
                 and e["name"] == fault["name"] and e["t"] >= fault["t"]), None)


def observed_until(events: Iterable[Event], fault: Event) -> float | None:
    """Seconds after the fault when the observation ended (None: no record of its end)."""
    end = next((e for e in events if e.get("source") == "harness" and e["event"] == "observe_end"), None)
    return end["t"] - fault["t"] if end else None


def run_status(events: Iterable[Event]) -> RunStatus:
    """completed, or interrupted (by which signal, in which phase, when), or failed (why)."""
    harness = [e for e in events if e.get("source") == "harness"]
    interrupted = next((e for e in harness if e["event"] == "interrupted"), None)
    if interrupted:
        return RunStatus("interrupted", by=interrupted.get("signal", "SIGINT"), phase=interrupted.get("phase"),
                         t=interrupted["t"])
    failed = next((e for e in harness if e["event"] == "failed"), None)
    if failed:
        return RunStatus("failed", reason=failed.get("error"), phase=failed.get("phase"), t=failed["t"])
    return RunStatus("completed")


def fault_effect(fault: Event, scenario: StepsOfScenario | None) -> Effect:
    """The effect the fault event declares. Runs recorded before faults wrote it get it from the
    fault's own declaration, through the scenario step that ran it (its index is in the event),
    not from anything measurement knows."""
    if "effect" in fault:
        return Effect.from_record(fault["effect"])
    if scenario is None:
        raise ValueError(f"the fault event of {fault['name']} records no effect, and no scenario was given")
    return scenario.steps[fault["step"]].effect()


def next_operation(ops: Iterable[Mapping[str, Any]], after_t: float) -> NextOperation | None:
    """The first operation started after `after_t`: how long it took, or its error."""
    op = next((o for o in ops if o["t0"] >= after_t - 0.001), None)
    if op is None:
        return None
    return {"took_s": round(op["t1"] - op["t0"], 3), "ok": op["ok"], "error": op.get("error"),
            "server": op.get("server")}


# ss's '@' stamp is taken before ss runs, so a sample can carry a time up to this much before the
# socket it shows connected (a loaded node: ss started a second late, ss_sampler.py).
SAMPLE_LEAD_S = 1.0


def caught_connection_samples(run: RunFiles, cell: InANamespace, probe_text: str,
                              t_fault: float) -> list[ss_log.SocketSample]:
    """The ss samples of the probe connection the fault caught (probe_log.caught_connection),
    taken by the sampler of the cell's container; [] when there are none."""
    ss_path = run.ss_samples(cell.namespace)
    caught = probe_log.caught_connection(probe_text, t_fault)
    if not ss_path.exists() or not caught:
        return []
    port, connected_t = caught
    samples = [s for s in ss_log.by_port(ss_path).get(port, []) if s.t >= connected_t - SAMPLE_LEAD_S]
    return ss_log.first_connection(samples)


def cell_verdict(window: Window, outcome: Outcome, status: RunStatus, observed_s: float | None = None,
                 evidence: Iterable[str] = ()) -> Verdict:
    """The cell's outcome (recovery.Outcome) against its model's window: verdict.of_cell."""
    return of_cell(window, outcome.detect_s, outcome.sent_s, outcome.never_worked, status, observed_s, tuple(evidence))
