"""A Compose lab in a guest: a ComposeLab that also keeps what its guest says of a run, the
console log and the clock's offset (abilities.KeepsEvidenceOfItsPlace); GuestEngine gives it."""
from ..compose import ComposeLab


class GuestLab(ComposeLab):
    keeps = "the guest's console"
    costly_execs = True

    def keep_evidence(self, directory):
        self.engine.collect(directory)
