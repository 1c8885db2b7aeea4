"""The director as its datapath shows it (lbctl inside the image, the same over ipvs and
nftables): the VIP, the backends' addresses, the table it holds and the flows in it. Who
changes the table is a control plane's business (harness/control/).

Services are named by what they are ('mysql' is VIP:3306, 'web' is VIP:80); backends by
their Compose service name ('mysql-primary', 'web-b', ...).
"""
import json

from ..topology import BACK, DIRECTOR, FRONT, SERVICE_PORTS


class Director:
    service = DIRECTOR

    def __init__(self, lab):
        self.lab = lab

    def vip_address(self):
        """The VIP: the director's address on the front network."""
        return self.lab.address(self.service, FRONT)

    def vip(self, name):
        return f"{self.vip_address()}:{SERVICE_PORTS[name]}"

    def backend(self, name, server):
        return f"{self.lab.address(server, BACK)}:{SERVICE_PORTS[name]}"

    def lbctl(self, *args):
        return self.lab.exec(self.service, ["lbctl", *map(str, args)]).stdout

    def state(self):
        return json.loads(self.lbctl("list"))

    @property
    def datapath(self):
        return self.state()["datapath"]

    def flows(self):
        """The kernel's flow table as text: `conntrack -L` or `ipvsadm -Lnc`; '' if unreadable."""
        return self.lab.exec(self.service, ["lbctl", "flows"], check=False).stdout
