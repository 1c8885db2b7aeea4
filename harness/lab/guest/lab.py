"""A Compose lab in a guest: a ComposeLab that also keeps what its guest says of a run, the
console log and the clock's offset (abilities.KeepsEvidenceOfItsPlace); GuestEngine gives it."""
from pathlib import Path
from typing import TYPE_CHECKING

from ..compose import ComposeLab

if TYPE_CHECKING:
    from .engine import GuestEngine


class GuestLab(ComposeLab):
    keeps = "the guest's console"
    costly_execs = True
    engine: "GuestEngine"

    def keep_evidence(self, directory: Path) -> None:
        self.engine.collect(directory)
