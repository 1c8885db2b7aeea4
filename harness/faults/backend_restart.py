"""A backend restarts (its container is restarted): the old process closes its connections as
it exits, and whatever a client sends on one afterwards is answered with a reset by the
server's kernel, then by the new process's. Clients notice at their next request."""
from ..measure.effects import RESET, Effect, Landing
from .base import Fault, Setting


class BackendRestart(Fault):
    name = "backend_restart"
    params = {"target": Setting("server", help="the server that restarts")}

    def stops(self) -> set[str]:
        return {self.p["target"]}

    def effect(self) -> Effect:
        return Effect(RESET)

    def inject(self) -> Landing | None:
        self.lab.restart(self.p["target"])
        return None                  # the step's own start and duration bracket it
