"""A server's process, by name: frozen, thawed or killed inside its node (faults do this to
nginx on the web servers, and to the database engine's server on the database servers: every
engine is one, faults/server_process.py says which process serves a server)."""
from ..errors import LabError
from ..lab_commands import Ran, RunsCommands


class ServerProcess:
    server_process = ""          # the process name (pkill -x)

    def _signal(self, lab: RunsCommands, server: str, signal: str) -> Ran:
        return lab.exec(server, ["pkill", f"-{signal}", "-x", self.server_process], check=False)

    def pause(self, lab: RunsCommands, server: str) -> None:
        self._signal(lab, server, "STOP")

    def resume(self, lab: RunsCommands, server: str) -> None:
        self._signal(lab, server, "CONT")

    def stop(self, lab: RunsCommands, server: str) -> None:
        """SIGTERM, as a container's stop begins: the server shuts down, closing its connections."""
        self._signal(lab, server, "TERM")

    def kill(self, lab: RunsCommands, server: str) -> None:
        # When the server is the container's main process the container stops with it, taking
        # this exec along (exit 137): that is the kill succeeding.
        result = self._signal(lab, server, "KILL")
        if result.returncode not in (0, 137):
            raise LabError(f"{server}: could not kill {self.server_process}: {result.stderr.strip()}")
