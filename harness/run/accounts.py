"""Database accounts of their own for the cells that ask for one (a cell's `account`), made on
the primary before the clients start."""
from collections.abc import Callable, Sequence

from ..lab.base import Lab
from ..scenario.model import ACCOUNT_PASSWORD, Cell
from ..topology import PRIMARY
from .events import EventLog


def create_accounts(lab: Lab, cells: Sequence[Cell], say: Callable[[str], None], events: EventLog) -> None:
    own = [c for c in cells if c.account != "shared"]
    if not own:
        return
    say(f"run: accounts of their own for {', '.join(c.name for c in own)} ...")
    for cell in own:
        lab.database.create_account(lab, PRIMARY, cell.database_user, ACCOUNT_PASSWORD,
                                    log_in_once=cell.account == "primed")
    events.add("accounts_created", cells={c.name: c.account for c in own})
