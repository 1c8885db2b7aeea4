"""The server process is stopped (SIGSTOP): its kernel still ACKs, the application never answers."""
from ..effects import APP_HANG, Effect
from ..topology import SERVER_PROCESS
from .base import Fault, Param


class AppHang(Fault):
    name = "app_hang"
    params = {"target": Param("server", help="the server whose process freezes")}

    def effect(self):
        return Effect(APP_HANG)

    def _signal(self, signal):
        target = self.p["target"]
        self.lab.exec(target, ["pkill", f"-{signal}", "-x", SERVER_PROCESS[target]], check=False)

    def inject(self):
        self._signal("STOP")

    def recover(self):
        self._signal("CONT")
