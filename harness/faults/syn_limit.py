"""A backend that takes new connections only so fast (seed 003: the cloud's throttling of a
small instance's inbound connection rate): an nft `limit` in its own namespace drops the SYNs
that arrive above rate_per_s (after a burst of `burst`), until healed. Established flows are
untouched; a dropped SYN's sender tries again on its kernel's SYN schedule. The SYNs dropped
and let through are counted."""
from ..measure.effects import NONE, Effect, Landing
from .base import Fault, Setting, delete_table, nft_table_script, stamped_nft

TABLE = "blackhole_fault_synlimit"
SYN = "tcp flags & (syn | ack) == syn"
COUNTS_LINE = "syn-limit"


class SynLimit(Fault):
    name = "syn_limit"
    params = {"target": Setting("server", help="the backend whose inbound SYNs are limited"),
              "rate_per_s": Setting("count", help="new connections per second it accepts"),
              "burst": Setting("count", default=5, help="SYNs let through at once above the rate")}

    def acts_inside(self) -> set[str]:
        return {self.p["target"]}

    def effect(self) -> Effect:
        return Effect(NONE)

    def inject(self) -> Landing | None:
        limit = (f"{SYN} limit rate over {self.p['rate_per_s']}/second burst {self.p['burst']} packets "
                 f"counter drop")
        before, after = stamped_nft(self.lab, self.p["target"], nft_table_script(TABLE, {"input": [limit, f"{SYN} counter"]}))
        return Landing(before, after - before)

    def recover(self) -> None:
        """The counters go to the target's log first ('syn-limit dropped N passed M', kept with the
        run: logs/<target>.log), then the table."""
        report = (f"nft list table inet {TABLE} 2>/dev/null | awk '/counter packets/ {{for (i = 1; i < NF; i++) "
                  f"if ($i == \"packets\") n[++k] = $(i + 1)}} END {{if (k == 2) print \"{COUNTS_LINE} dropped \" n[1] "
                  f"\" passed \" n[2]}}' >/proc/1/fd/1")
        self.lab.exec(self.p["target"], ["sh", "-c", report], check=False)
        delete_table(self.lab, self.p["target"], TABLE)
