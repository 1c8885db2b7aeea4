"""The server process is stopped (SIGSTOP): its kernel still ACKs, the application never answers."""
from ..measure.effects import APP_HANG, Effect, Landing
from .server_process import process_on
from .base import Fault, Setting


class AppHang(Fault):
    name = "app_hang"
    params = {"target": Setting("server", help="the server whose process freezes")}

    def effect(self) -> Effect:
        return Effect(APP_HANG)

    def inject(self) -> Landing | None:
        process_on(self.lab, self.p["target"]).pause(self.lab, self.p["target"])
        return None                  # the step's own start and duration bracket it

    def recover(self) -> None:
        process_on(self.lab, self.p["target"]).resume(self.lab, self.p["target"])
