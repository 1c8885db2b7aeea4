"""The cures ranked by the model before anything runs: each one's answer beside the operator's own,
the time it saves to the client's first answer again (back), the pair of a client's limits with the
best control-plane change among them. A replay measures the same list in the same order."""
import dataclasses
from collections.abc import Sequence

from . import Answer, answer
from .cures import DIRECTOR, DRIVER, Cure, cures_for, pair
from .question import Question


@dataclasses.dataclass(frozen=True)
class Ranked:
    cure: Cure
    answer: Answer
    saved_s: float | None     # the operator's back less this one's (None: either never back, or unknown)


@dataclasses.dataclass(frozen=True)
class Ranking:
    yours: Answer
    rows: tuple[Ranked, ...]  # the most time saved first
    left_out: tuple[str, ...]  # why a cure is not among them


def _back_s(found: Answer) -> float | None:
    return found.back.expected_s if found.back is not None else None


def _order(row: Ranked) -> tuple[bool, float, bool, float]:
    back = _back_s(row.answer)
    error = row.answer.error.expected_s
    return (back is None, back if back is not None else 0.0, error is None, error or 0.0)


def _saved(yours: Answer, found: Answer) -> float | None:
    mine, theirs = _back_s(yours), _back_s(found)
    return None if mine is None or theirs is None else round(mine - theirs, 1)


def best_pair(question: Question, cures: Sequence[Cure]) -> Cure | None:
    """The client's limits with the best change of the control plane, or None where either is missing."""
    directors = [c for c in cures if c.layer == DIRECTOR]
    clients = [c for c in cures if c.layer != DIRECTOR]
    if not directors or not clients:
        return None
    groups = [[c] for c in clients]
    drivers = [c for c in clients if c.layer == DRIVER]
    if len(drivers) > 1:
        groups.append(drivers)
    candidates = [pair(group, director) for group in groups for director in directors]
    found = [(answer(c.applied(question)), c) for c in candidates]
    return min(found, key=lambda item: _order(Ranked(item[1], item[0], None)))[1]


def rank(question: Question) -> Ranking:
    yours = answer(question)
    cures, left_out = cures_for(question)
    paired = best_pair(question, cures)
    rows = [Ranked(cure, found, _saved(yours, found))
            for cure in cures + ([paired] if paired else []) for found in [answer(cure.applied(question))]]
    return Ranking(yours, tuple(sorted(rows, key=_order)), tuple(left_out))
