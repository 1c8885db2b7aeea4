"""The director's control interface, the same over both datapaths (lbctl inside the image).

Services are named by what they are ('mysql' is VIP:3306, 'web' is VIP:80); backends by
their Compose service name ('mysql-primary', 'web-b', ...).
"""
import json

from ..topology import BACK, DIRECTOR, FRONT, NODEST_POLICIES, SERVICE_PORTS


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

    def _lbctl(self, *args):
        return self.lab.exec(self.service, ["lbctl", *map(str, args)]).stdout

    def _change(self, *args):
        """Run a changing lbctl command; returns (applying_t, applied_t): the change landed
        between the two, on the kernel clock every container shares."""
        report = json.loads(self._lbctl(*args).splitlines()[-1])
        return report["applying_t"], report["applied_t"]

    def swap(self, name, old, new, nodest="drop", drain_s=0.0):
        """The seed's switch, `ipvsadm -d old; ipvsadm -a new`, as one transaction."""
        if nodest not in NODEST_POLICIES:
            raise ValueError(f"nodest must be one of {NODEST_POLICIES}, not {nodest!r}")
        return self._change("swap", self.vip(name), self.backend(name, old), self.backend(name, new),
                            "--nodest", nodest, "--drain", drain_s)

    def set_idle_timeout(self, seconds):
        return self._change("idle-timeout", int(seconds))

    def reset(self):
        """Back to the configuration the director started with."""
        self._lbctl("init")

    def state(self):
        return json.loads(self._lbctl("list"))

    @property
    def datapath(self):
        return self.state()["datapath"]

    def flows(self):
        """The kernel's flow table as text: `conntrack -L` or `ipvsadm -Lnc`; '' if unreadable."""
        return self.lab.exec(self.service, ["lbctl", "flows"], check=False).stdout
