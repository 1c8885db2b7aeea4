"""What every fault is: the params it takes, the effect it has on existing flows, inject(),
and an idempotent recover(); and what it may ask of its lab (FaultsLab)."""
from collections.abc import Sequence
from typing import Any, Protocol

from ..databases.base import DatabaseEngine
from ..director import Director
from ..lab_commands import Ran, RunsCommands
from ..director.commands import LbCommands
from ..measure.effects import Effect, Landing
from ..registered import Registered, Registry
from ..setting import Setting

# (service, command) or (service, command, its own stdin): one of exec_each's commands
Command = tuple[str, Sequence[str]] | tuple[str, Sequence[str], str]


class FaultsLab(RunsCommands, Protocol):
    """What a fault asks of its lab (harness/lab/base.py's Lab gives it): commands in its nodes,
    their addresses, a restart, the lab's clock, its database engine and its director."""
    database: DatabaseEngine

    def exec_each(self, commands: Sequence[Command], check: bool = ..., timeout: float = ...,
                  stdin: str | None = ...) -> Sequence[Ran]: ...

    def address(self, service: str, network: str) -> str: ...

    def addresses(self, service: str) -> list[str]: ...

    def services(self) -> list[str]: ...

    def restart(self, service: str) -> None: ...

    def now(self) -> float: ...

    def director(self, service: str = ...) -> Director: ...

    def director_commands(self) -> LbCommands: ...


FAULTS: Registry[type["Fault"]] = Registry("fault")     # each Fault subclass registers itself when its module is imported


class Fault(Registered):
    """Subclasses set name and params and implement effect() and inject(); recover() must be safe
    to repeat. They talk to nodes only through the lab they are given."""
    registry = FAULTS
    params: dict[str, Setting] = {}
    control_planes: tuple = ()     # the control planes whose directors it acts on (empty: any)

    def __init__(self, lab: FaultsLab, **params: Any) -> None:
        self.lab = lab
        self.p = params

    @classmethod
    def problem(cls, params: dict[str, Any]) -> str | None:
        """What is wrong with these params taken together ('old and new are the same server'),
        or None; each param alone has been checked against its Setting (harness/setting.py) already."""
        return None

    @classmethod
    def engine_problem(cls, engine: DatabaseEngine) -> str | None:
        """Why the lab's database engine cannot take this fault (a name, said before the lab
        starts), or None."""
        return None

    def effect(self) -> Effect:
        """The Effect (harness/measure/effects.py) this fault, with these params, has on existing flows."""
        raise NotImplementedError

    def acts_inside(self) -> set[str]:
        """Nodes whose own network namespace the fault changes (nft rules): they need NET_ADMIN,
        which the lab grants only to those a run's faults name."""
        return set()

    def qdiscs_needed(self) -> tuple[str, ...]:
        """Queueing disciplines (tc) the fault attaches: a kernel without one is refused before the
        lab starts."""
        return ()

    def needs_services(self) -> dict[str, str]:
        """{service: what it is} this fault talks to on a Compose lab beyond the director and the
        servers (a control plane's): a lab without one refuses the fault before it starts."""
        return {}

    def unchecked(self) -> set[str]:
        """Servers the control plane's own checks no longer look at once this fault ran (a target
        an operator deregistered): a later fault on one of them is not the plane's to notice."""
        return set()

    def stops(self) -> set[str]:
        """Services this fault stops or restarts on purpose (the run's watchdog expects them down)."""
        return set()

    def lab_settings(self) -> dict[str, str]:
        """Lab settings ({NAME: value}, compose.yaml's variables) this fault needs from the moment
        the lab comes up, before any flow exists: the director cannot change them later."""
        return {}

    def inject(self) -> Landing | None:
        """Do it. May return when it took effect (effects.Landing), where that is known more
        closely than the step's start and duration, and what it read on the way."""
        raise NotImplementedError

    def recover(self) -> None:
        pass


STAMPED_NFT = "date +%s.%N; nft -f -; date +%s.%N"      # the rules landed between the two


def stamped_nft(lab: FaultsLab, node: str, script: str) -> tuple[float, float]:
    """Load an nft script in a node; (before, after): it took effect between the two, on the
    node's own clock (the lab's)."""
    before, after = map(float, lab.exec(node, ["sh", "-c", STAMPED_NFT], stdin=script).stdout.split())
    return before, after


CUT_PRIORITY = -10          # a fault's cut sees packets before the filter chains at 0 (lbctl's among them)


def nft_table_script(table: str, chains: dict[str, list[str]], priorities: dict[str, int] | None = None) -> str:
    """An nft script that (re)creates `table` (inet) with the given {hook: [rules]} chains, each at
    CUT_PRIORITY unless priorities ({hook: priority}) says otherwise."""
    lines = [f"table inet {table} {{}}", f"delete table inet {table}", f"table inet {table} {{"]
    for hook, rules in chains.items():
        priority = (priorities or {}).get(hook, CUT_PRIORITY)
        lines += [f"  chain {hook}_cut {{", f"    type filter hook {hook} priority {priority}; policy accept;"]
        lines += [f"    {rule}" for rule in rules] + ["  }"]
    return "\n".join(lines + ["}"]) + "\n"


def delete_table(lab: FaultsLab, node: str, table: str) -> None:
    delete_tables(lab, [node], table)


def delete_tables(lab: FaultsLab, nodes: Sequence[str], table: str) -> None:
    """The table gone from each node, side by side (one exec's time, not one per node)."""
    lab.exec_each([(node, ["nft", "delete", "table", "inet", table]) for node in nodes], check=False)
