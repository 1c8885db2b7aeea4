"""A cell's connection pool (harness/pools/), run beside its client in its namespace: started
before the clients, its log kept as the cell's pool.log; what closed its server leg and then the
client's connection after the fault, in the pool's own words and times."""
from ..measure import pool_log
from ..pools import POOLS
from ..topology import PROTOCOL_PORTS
from .base import Load, Signal


class Pool(Signal):
    name = "pool"

    def loads(self, plan):
        s, loads = plan.scenario, []
        for cell in (c for c in s.cells if c.pool):
            pool = POOLS[cell.pool]
            container, netns = plan.placement(cell.service)
            loads.append(Load(container, plan.run.cell_file(cell.name, "pool.log"),
                              tuple(pool.command(s, cell, plan.vip_for(cell), PROTOCOL_PORTS["mysql"], netns)),
                              pool.process_pattern(cell), stop_signal="TERM"))
        return loads

    def summarize_cell(self, record):
        cell, c = record.cell, record.context
        if not cell.pool:
            return {}
        text = c.run.read(c.run.cell_file(cell.name, "pool.log"))
        found = pool_log.closings(text)
        part = {"name": cell.pool, "version": pool_log.version(text), "settings": dict(cell.pool_settings),
                "basis": record.window.basis}
        for side in ("server", "client"):
            closing = pool_log.first_after(found, side, c.t_fault) if c.fault else None
            if closing is not None:
                part[f"{side}_closed_s"] = round(closing.t - c.t_fault, 3)
                part[f"{side}_reason"] = closing.reason
        return {"pool": part}
