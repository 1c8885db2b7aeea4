"""The server process is stopped (SIGSTOP): its kernel still ACKs, the application never answers."""
from .base import SERVER_PROCESS, Fault, Param


class AppHang(Fault):
    name = "app_hang"
    params = {"target": Param("server", help="the server whose process freezes")}

    def _signal(self, signal):
        target = self.p["target"]
        self.lab.exec(target, ["pkill", f"-{signal}", "-x", SERVER_PROCESS[target]], check=False)

    def inject(self):
        self._signal("STOP")

    def recover(self):
        self._signal("CONT")
