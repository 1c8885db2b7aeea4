"""The director as its datapath shows it (lbctl inside the image, the same over ipvs and
nftables): the VIP, the backends' addresses, the table it holds and the flows in it. Who
changes the table, and when, is a control plane's business (harness/control/); commands.py
has the changes lbctl can make.

Services are named by what they are ('mysql' is VIP:3306, 'web' is VIP:80); backends by
their Compose service name ('db-primary', 'web-b', ...).
"""
import json
from typing import Any, Protocol

from ..lab_commands import RunsCommands
from ..topology import BACK, DIRECTOR, FRONT, SERVICE_PORTS, VIP_HOST


class DirectorsLab(RunsCommands, Protocol):
    """What a director asks of its lab (harness/lab/base.py's Lab gives it): commands, and addresses."""
    def address(self, service: str, network: str) -> str: ...


class Director:
    def __init__(self, lab: DirectorsLab, service: str = DIRECTOR) -> None:
        """service: the director container (a control plane may run more than one)."""
        self.lab, self.service = lab, service

    def vip_address(self) -> str:
        """The VIP: the main director's front address .10 (which VRRP may move to another
        director; the container's own is then .11), another director's own front address."""
        own = self.lab.address(self.service, FRONT)
        return f"{own.rsplit('.', 1)[0]}.{VIP_HOST}" if self.service == DIRECTOR else own

    def vip(self, name: str) -> str:
        return f"{self.vip_address()}:{SERVICE_PORTS[name]}"

    def backend(self, name: str, server: str) -> str:
        return f"{self.lab.address(server, BACK)}:{SERVICE_PORTS[name]}"

    def lbctl(self, *args: object, timeout: float = 60) -> str:
        return self.lab.exec(self.service, ["lbctl", *map(str, args)], timeout=timeout).stdout

    def state(self, timeout: float = 60) -> dict[str, Any]:
        return json.loads(self.lbctl("list", timeout=timeout))

    @property
    def datapath(self) -> str:
        return self.state()["datapath"]

    def flows(self) -> str:
        """The kernel's flow table as text: `conntrack -L` or `ipvsadm -Lnc`; '' if unreadable."""
        return self.lab.exec(self.service, ["lbctl", "flows"], check=False).stdout
