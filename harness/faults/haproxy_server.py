"""An operator's change on HAProxy's runtime API, on every director running it (the haproxy
control plane): a server put in maintenance or drain, or made ready again, its open sessions left
to go on or shut (`shutdown sessions server`). The seed's manual swap the HAProxy way: maint takes
no flow away from a live server; only the shutdown ends its sessions, with a FIN."""
from typing import Any

from .. import topology
from ..control.haproxy_cfg import SERVER_NAMES, STATS_SOCKET
from ..errors import LabError
from ..measure.effects import NONE, RESET, Effect, Landing
from .base import Fault, Setting

STATES = ("maint", "drain", "ready")
SESSIONS = ("keep", "shutdown")


def server_of(target: str) -> tuple[str, str]:
    """(backend, server) HAProxy names a lab server by (harness/control/haproxy_cfg.py)."""
    for service, servers in topology.SERVICE_SERVERS.items():
        if target in servers:
            return service, SERVER_NAMES[servers.index(target)]
    raise LabError(f"{target} is behind no service of the VIP")


def script(target: str, state: str, sessions: str) -> str:
    """The bash that sends the commands to the runtime API, stamped before and after."""
    backend, server = server_of(target)
    commands = [f"set server {backend}/{server} state {state}"]
    if sessions == "shutdown":
        commands.append(f"shutdown sessions server {backend}/{server}")
    sends = "; ".join(f"echo '{c}' | socat stdio unix-connect:{STATS_SOCKET}" for c in commands)
    return f"test -S {STATS_SOCKET} || {{ echo 'no HAProxy runtime API at {STATS_SOCKET}' >&2; exit 3; }}; " \
           f"date +%s.%N; {sends}; date +%s.%N"


class HaproxyServer(Fault):
    name = "haproxy_server"
    control_planes = ("haproxy", "patroni")
    params = {
        "target": Setting("server", help="the server whose state HAProxy's runtime API sets"),
        "state": Setting("str", "maint", choices=STATES, help="its administrative state: maint, drain or ready"),
        "sessions": Setting("str", "keep", choices=SESSIONS, help="its open sessions: left to go on, or shut"),
    }

    @classmethod
    def problem(cls, params: dict[str, Any]) -> str | None:
        if params["state"] == "ready" and params["sessions"] == "shutdown":
            return "sessions: shutdown ends the sessions of a server taken out (maint or drain), not one made ready"
        return None

    def effect(self) -> Effect:
        """Shut, the server's sessions are closed (a FIN): each client notices at its next
        operation; kept, they go on with the live server as before."""
        return Effect(RESET if self.p["sessions"] == "shutdown" else NONE)

    def inject(self) -> Landing | None:
        directors = [service for service in self.lab.services() if topology.is_director(service)]
        results = self.lab.exec_each([(d, ["bash", "-c", script(self.p["target"], self.p["state"], self.p["sessions"])])
                                      for d in directors])
        stamps = [[float(line) for line in r.stdout.split() if line.replace(".", "", 1).isdigit()] for r in results]
        seen = {d: r.stdout.strip() for d, r in zip(directors, results)}
        first = min(s[0] for s in stamps)
        return Landing(first, round(max(s[-1] for s in stamps) - first, 3), seen)
