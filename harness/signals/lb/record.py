"""The LB-noticed signal's parts of summary.json: per cell, the control plane's change of its
director beside the plane's model; for the run, the plane's own promotion (Patroni)."""
from typing import TypedDict

from ...control.promotion import PromotionPart


class Model(TypedDict):
    expected_s: float
    earliest_s: float
    latest_s: float
    basis: str


class LbPart(TypedDict):
    director: str
    noticed_s: float | None          # the change was seen between noticed_s and noticed_by_s
    noticed_by_s: float | None
    change: str | None
    why: str | None
    model: Model | None
    within_model: bool | None
    client_noticed_s: float | None   # from the change to the client's error
    client_noticed_from_s: float | None


class LbCell(TypedDict, total=False):
    lb: LbPart


class StepChange(TypedDict):
    what: str                        # the change in the plane's words ("db.lab -> 10.213.1.122 (db-replica)")
    at_s: float                      # s after the fault


class LbRun(TypedDict, total=False):
    promotion: PromotionPart         # ControlPlane.promotion() (control/promotion.py)
    stepped: StepChange              # a plane a scenario step changes (manual, dns): its first change after the fault
