"""The server process is stopped (SIGSTOP): its kernel still ACKs, the application never answers."""
from ..measure.effects import APP_HANG, Effect
from .server_process import process_on
from .base import Fault, Param


class AppHang(Fault):
    name = "app_hang"
    params = {"target": Param("server", help="the server whose process freezes")}

    def effect(self):
        return Effect(APP_HANG)

    def inject(self):
        process_on(self.lab, self.p["target"]).pause(self.lab, self.p["target"])

    def recover(self):
        process_on(self.lab, self.p["target"]).resume(self.lab, self.p["target"])
