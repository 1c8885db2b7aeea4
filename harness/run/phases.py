"""A run as declared phases: entering a phase names it (what an interruption's record says the run
was doing) and declares what undoes it, each undo with its own time limit beside it. The cleanup
is the undos of the phases entered so far, stage by stage (faults first, the lab last), the undos
of one stage side by side (base.run_steps); a phase never entered leaves nothing to undo.

docs/adding-a-run-phase.md is the recipe."""
import dataclasses
from collections.abc import Callable

# The cleanup's stages, in the order they run.
UNDO_FAULTS = 0         # what the steps changed, undone while every node is still there
KEEP_EVIDENCE = 1       # the clients stopped, the logs and tables kept
READ_BACK = 2           # what can be read only once the clients have stopped (the writer's ledger)
TAKE_DOWN = 3           # the lab taken down, the timeline merged
STAGES = (UNDO_FAULTS, KEEP_EVIDENCE, READ_BACK, TAKE_DOWN)


@dataclasses.dataclass(frozen=True)
class Undo:
    doing: str                      # "taking the lab down": what the run says while it runs
    step: Callable[[], object]
    limit_s: float                  # left behind in its thread after this, and said
    stage: int


class Phases:
    def __init__(self, first: str = "preparing") -> None:
        self.current = first
        self.undos: list[Undo] = []

    def enter(self, name: str, *undos: Undo) -> None:
        """The run now does `name`; undos: what undoes it (Undo each), from now on."""
        self.current = name
        self.undos.extend(undos)

    def undo_later(self, *undos: Undo) -> None:
        """More to undo, in the phase the run is in."""
        self.undos.extend(undos)

    def cleanup_steps(self) -> list[list[tuple[str, Callable[[], object], float]]]:
        """run_steps' entries: one side-by-side group per stage that has undos, stages in order."""
        for undo in self.undos:
            if undo.stage not in STAGES:
                raise ValueError(f"{undo.doing}: no cleanup stage {undo.stage}")
        return [[(u.doing, u.step, u.limit_s) for u in self.undos if u.stage == stage]
                for stage in STAGES if any(u.stage == stage for u in self.undos)]
