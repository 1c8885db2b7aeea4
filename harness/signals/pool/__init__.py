"""A cell's connection pool (harness/pools/), run beside its client in its namespace: started
before the clients, its log kept as the cell's pool.log; what closed its server leg and then the
client's connection after the fault, in the pool's own words and times."""
from ...pools import POOLS
from ...pools.base import first_after
from ...topology import PROTOCOL_PORTS
from ..base import CellRecord, Load, LoadPlan, Signal
from . import section
from .record import PoolCell, PoolPart


class Pool(Signal):
    name = "pool"
    files = {"log": "clients/{cell}/pool.log"}
    section = section

    def loads(self, plan: LoadPlan) -> list[Load]:
        s, loads = plan.scenario, []
        for cell in s.cells:
            if cell.pool is None:
                continue
            pool = POOLS[cell.pool]
            container, netns = plan.placement(cell.service)
            loads.append(Load(container, self.file(plan.run, "log", cell=cell.name),
                              tuple(pool.command(s, cell, plan.vip_for(cell), PROTOCOL_PORTS["mysql"], netns)),
                              pool.process_pattern(cell), stop_signal="TERM"))
        return loads

    def summarize_cell(self, record: CellRecord) -> PoolCell:
        cell, c = record.cell, record.context
        if not cell.pool:
            return {}
        text = c.run.read(self.file(c.run, "log", cell=cell.name))
        pool = POOLS[cell.pool]
        found = pool.closings(text)
        part: PoolPart = {"name": cell.pool, "version": pool.version(text), "settings": dict(cell.pool_settings),
                          "basis": record.window.basis}
        server, client = (first_after(found, side, c.t_fault) if c.fault else None for side in ("server", "client"))
        if server is not None:
            part["server_closed_s"], part["server_reason"] = round(server.t - c.t_fault, 3), server.reason
        if client is not None:
            part["client_closed_s"], part["client_reason"] = round(client.t - c.t_fault, 3), client.reason
        return {"pool": part}
