"""A backend vanishes without a FIN or RST reaching anyone.

Its links are cut first (everything dropped in its own namespace, so the kill's FIN/RST
never leaves; and on the director, so nothing is forwarded towards it and no ICMP
'host unreachable' is ever generated), then its server process is killed.
"""
from ..lab import LabError
from .base import SERVER_PROCESS, Fault, Param, delete_table, nft_table_script

TABLE = "blackhole_fault_silent_kill"


class SilentKill(Fault):
    name = "silent_kill"
    params = {"target": Param("server", help="the server that disappears")}

    def inject(self):
        target = self.p["target"]
        addresses = ", ".join(self.lab.addresses(target))
        cut_on_director = nft_table_script(TABLE, {"forward": [f"ip daddr {{ {addresses} }} drop",
                                                               f"ip saddr {{ {addresses} }} drop"]})
        self.lab.exec("director", ["nft", "-f", "-"], stdin=cut_on_director)
        cut_inside = nft_table_script(TABLE, {"input": ["drop"], "output": ["drop"]})
        self.lab.exec(target, ["nft", "-f", "-"], stdin=cut_inside)
        # When the server is the container's main process the container stops with it, taking
        # this exec along (exit 137): that is the kill succeeding.
        result = self.lab.exec(target, ["pkill", "-KILL", "-x", SERVER_PROCESS[target]], check=False)
        if result.returncode not in (0, 137):
            raise LabError(f"{target}: could not kill {SERVER_PROCESS[target]}: {result.stderr.strip()}")

    def recover(self):
        # The server stays dead (that is the fault); only the director's cut is lifted.
        delete_table(self.lab, "director", TABLE)
