"""One prediction from a silent death to each client, the only source of every answer the lab gives
before a run: explain's first line and its body, plan, the replay's ranking of cures. It composes
what the control plane does by its own model (a removal that resets the flow, a proxy's closes),
the client's kernel, and the driver's own limits (each with its documented unit and meaning of 0),
with measure/predict.py, the model a run's cells are held to."""
import dataclasses

from ..control import control_plane
from ..control.abilities import ConnectsByName, change_by_model
from ..control.base import ControlPlane, NoticeWindow
from ..measure import effects, predict
from . import back as back_model
from . import monitor_by_name
from .limits import Limit, armed, fires_at_s
from .question import Question

__all__ = ["Answer", "Limit", "Question", "answer", "director_of"]


@dataclasses.dataclass(frozen=True)
class Answer:
    question: Question
    error: predict.Window          # the application's error, seconds after the death (expected None: never)
    limits: tuple[Limit, ...]      # everything armed, the first expected first
    change: NoticeWindow | None    # when the control plane changes the director (None: its model has no figure)
    back: predict.Window | None    # the client's first answer again (None: never, or not known)
    proxied: bool                  # a proxy ends the client's connection: its own kernel's limit never fires

    @property
    def never(self) -> bool:
        return self.error.expected_s is None

    @property
    def first(self) -> Limit | None:
        """The limit whose window the composed one is (None: nothing ends the wait)."""
        expected = self.error.expected_s
        if expected is None or not self.limits:          # never, or nothing armed
            return None
        closest = min(self.limits, key=lambda limit: abs(fires_at_s(limit) - expected))
        # a limit that may not fire (a host monitor) is named first where what ends the wait otherwise is the closest
        return next((limit for limit in self.limits if limit.otherwise == closest), closest)


def director_of(plane: ControlPlane, variant: str | None) -> str:
    """The director service a cell of `variant` (None: the main one) connects through."""
    return next(service for service, name in plane.directors().items() if name == variant)


def answer(question: Question) -> Answer:
    plane = control_plane(question.plane, question.plane_settings)
    director = director_of(plane, question.cell.director)
    death = effects.Effect(effects.BLACKHOLE)
    effect = plane.effect_by_model(death, director) or death
    error = predict.predict(question.cell, effect, 0.0, 0.0, rto0_s=question.rto0_s, hz=question.hz)
    change = change_by_model(plane, director, question.node_grace_s)
    monitor = None
    if isinstance(plane, ConnectsByName) and question.promoted_after_s is not None:
        promoted = question.promoted_after_s
        change = NoticeWindow(promoted, promoted, promoted, f"the replica promoted {promoted:g} s after the death "
                                                            "(PROMOTED_AFTER_S); the client lists both servers")
    elif isinstance(plane, ConnectsByName) and question.name_moved_after_s is not None:
        moved = question.name_moved_after_s
        change = NoticeWindow(moved, moved, moved, f"the database's name re-pointed at the promoted server {moved:g} s "
                                                   "after the death (DNS_MOVED_AFTER_S)")
        error, monitor = monitor_by_name.error_under_name(question, error, moved)
    back = back_model.back(error, change, question, plane, rescheduled=effect.reset_at_s is not None)
    limits = armed(question, effect, plane.proxies)
    if monitor is not None:
        limits = tuple(sorted((*limits, monitor), key=fires_at_s))
    return Answer(question, error, limits, change, back, plane.proxies)
