"""What the model expects of a scenario's run before it starts (its first line, `make plan`): each
cell's error window for the effect of the first fault its flows notice, by the control plane's own
model where it has one."""
from ..control import control_plane
from ..scenario.model import Cell, Scenario, Step
from ..measure import predict
from ..measure.effects import Effect


def expected_errors_s(scenario: Scenario) -> tuple[Step, list[float]]:
    """(the first fault, each cell's expected error time after it where the model expects one)."""
    first, modelled, _ = _effects_by_cell(scenario)
    windows = [predict.predict(c, effect, scenario.probe.interval_ms / 1000, 0.0) for c, effect in modelled]
    return first, [w.expected_s for w in windows if w.expected_s is not None]


def _effects_by_cell(scenario: Scenario) -> tuple[Step, list[tuple[Cell, Effect]], bool]:
    """(the first fault step, [(cell, the effect its flows see)], whether the control plane's own
    model gave them: else the fault's own effect, before the plane reacts)."""
    faults = [step for step in scenario.steps if step.kind == "fault"]
    # the fault the run's times count from: the first its flows notice (run_record.first_fault)
    first = next((step for step in faults if step.effect().flows_notice), faults[0])
    effect, plane = first.effect(), control_plane(scenario.control, scenario.control_settings)
    director = {variant: service for service, variant in plane.directors().items()}
    unchecked = {s for step in faults[:faults.index(first)] for s in step.make_fault().unchecked()}
    if dict(first.params).get("target") in unchecked:         # the plane no longer checks it: its model does not apply
        by_model: list[Effect | None] = [None for _ in scenario.cells]
    else:
        by_model = [plane.effect_by_model(effect, director[c.director or None]) for c in scenario.cells]
    modelled = any(e is not None for e in by_model)
    return first, [(c, e or effect) for c, e in zip(scenario.cells, by_model)], modelled


def expectation(scenario: Scenario) -> str:
    """What the model expects of a failover scenario's run, in a line (said before it starts)."""
    first, expected = expected_errors_s(scenario)
    told = (f"the first error after ~{max(expected):.3g} s in the slowest cell" if expected
            else "no error in any cell")
    if _effects_by_cell(scenario)[2]:
        told += f" with {scenario.control}'s own model (its changes, read after the run, decide the windows)"
    elif scenario.control != "manual":
        told += f" before {scenario.control} reacts (its reaction, read after the run, decides the windows)"
    return (f"{first.name} ({first.effect().kind}): the kernel model expects {told}; observation limit "
            f"{scenario.observe_s:g} s after the fault")
