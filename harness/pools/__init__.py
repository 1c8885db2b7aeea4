"""Connection pools a cell's client may go through (`pool: pgbouncer`), one file each (what the lab
asks of one: base.py's ConnectionPool): what runs in the cell's namespace beside its client, its
settings, how it changes what the client sees of a fault (measure/effects.py), its log read back."""
from ..measure.effects import Effect
from ..registered import Registry
from .base import ConnectionPool
from .pgbouncer import PGBOUNCER
from .pooled_cell import PooledCell

POOLS: Registry[ConnectionPool] = Registry("connection pool", (PGBOUNCER,))


def effect_through_pool(cell: PooledCell, effect: Effect) -> Effect:
    """What the cell's client sees of the fault's effect on the flows: through its pool, if it has one."""
    if cell.pool is None:
        return effect
    return POOLS[cell.pool].effect_on(effect, cell)
