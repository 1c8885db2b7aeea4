"""Who changes the director (docs/adding-a-control-plane.md). The datapath (ipvs or nftables)
is the director's; a control plane decides when and how its table changes: the harness's own
commands (manual.py), health checks (keepalived.py), a Kubernetes API.

  name, settings_spec       what a scenario's `control:` names it, and the settings it may give
  image                     a PlaneImage its services run (built by `harness build`), if any
  needs_ipvs                it programs IPVS itself (on this host: a guest kernel)
  acts_by_itself            it changes the director without a scenario step (a health check)
  shares_vip                two directors hold the VIP in turn (VRRP)
  proxies                   its directors end the clients' connections (a proxy: HAProxy), not forward them
  directors()               {director service: its variant (None: the main one)} the lab runs
  sampled_directors(datapath)   the directors whose IPVS table the run samples
  table_sample(datapath)    how, when it is not IPVS's table ('': /proc/net/ip_vs)
  services(addresses, database, servers)   Compose services it adds or overrides ({service: definition})
  lab_settings()            compose.yaml variables it needs from the start ({NAME: value})
  changes(run)              when each director changed and why, read from the run's files
  lb_noticed(change, death_t)   its model of "LB noticed": seconds from a death to its change
  effect_on(effect, director, changes, t_fault)   what existing flows through a director see
  effect_by_model(effect, director)   the same before a run, from its own model (None: none)
  health_checks(run, env, periods, end_t)   what its health checks did per director ({}: none)
  progress(lab), caught_up(lab, before)     live: has it finished acting on what changed since
                            `before`? (the run watches on until it has, within its limit)
"""
import dataclasses
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, Self

from ..lab_commands import RunsCommands
from ..measure.effects import BLACKHOLE, Effect
from ..measure.run_files import RunFiles
from ..registered import Registered, Registry
from ..setting import Setting
from ..topology import DIRECTOR

if typing.TYPE_CHECKING:
    from ..measure.health_checks import DirectorChecks
    from .promotion import Promotion

Addresses = Mapping[str, Mapping[str, str]]     # {service: {network: address}} as compose.yaml places the nodes
VersionCommands = Sequence[tuple[str, str, Sequence[str]]]   # (program, service, the command printing its version)


class PromotingDatabase(Protocol):
    """What a control plane that promotes the replica itself (keepalived's notify_down) needs of the
    lab's database engine (harness/databases/base.py's DatabaseEngine gives it)."""
    promote_sql: str
    stop_receiving_sql: str
    apply_wait_s: float


PlanesLab = RunsCommands          # what a control plane asks of a live lab: commands in its nodes


@dataclasses.dataclass(frozen=True)
class DirectorChange:
    t: float                   # when it took effect (lab clock)
    uncertainty_s: float       # it may have landed up to this much later
    what: str                  # 'swap mysql: db-primary -> db-replica', ...
    why: str                   # 'scenario step 0', 'health check failed', ...
    director: str = DIRECTOR   # the director container whose table changed
    backend: str = ""          # the real server it took out ('10.213.2.21:3306'), when it took one out
    cause_t: float | None = None      # when what it acted on happened, when that is another's act (an API write)
    took_s: float | None = None       # how long acting took, by the control plane's own account (a kube-proxy sync)


@dataclasses.dataclass(frozen=True)
class PlaneImage:
    """An image a control plane's services run, built with the lab's own (harness/lab/images.py)."""
    tag: str
    context: str               # its build context, under the repository
    binaries: str = ""         # a script under the repository that prints (last line) a directory
                               # of programs it builds once per machine, copied into the context's bin/


@dataclasses.dataclass(frozen=True)
class NoticeWindow:
    """How long after a backend died the control plane changed the director, by its own model."""
    expected_s: float
    earliest_s: float
    latest_s: float
    basis: str


class DirectorVariants:
    """A plane's settings (a frozen dataclass) with named director variants: `directors`,
    ((name, {setting: value}), ...), each a director of its own with those settings changed."""
    directors: tuple

    def director(self, name: str | None) -> Self:
        """These settings as director `name` (a variant of `directors`, or the main one: None) runs them."""
        if name is None:
            return self
        return dataclasses.replace(typing.cast(typing.Any, self), directors=(), **dict(self.directors)[name])   # a frozen dataclass

    def variants(self) -> tuple[str, ...]:
        """The director variants a cell may name, besides the main director."""
        return tuple(name for name, _ in self.directors)


CONTROL_PLANES: Registry[type["ControlPlane"]] = Registry("control plane")   # each ControlPlane subclass registers itself when imported
DEFAULT_CONTROL_PLANE = "manual"


def control_plane(name: str | None = None, settings: Iterable[tuple[str, Any]] = ()) -> "ControlPlane":
    """The control plane named `name` (None: the default), with a scenario's settings for it (the
    package imports every plane first, whatever module of it is imported)."""
    return CONTROL_PLANES[name or DEFAULT_CONTROL_PLANE](settings)


class ControlPlane(Registered):
    registry = CONTROL_PLANES
    settings_spec: dict[str, Setting] = {}
    acts_by_itself = False
    proxies = False            # its directors end the clients' connections and open their own (HAProxy)
    image: "PlaneImage | None" = None   # a PlaneImage its services run, if they run one of their own
    start_allowance_s = 0.0    # how much longer than the lab's own its services may take to be ready
    databases: tuple[str, ...] = ()    # the database engines it works with (): every one)

    @property
    def needs_ipvs(self) -> bool:
        return False

    @property
    def shares_vip(self) -> bool:
        """Two directors hold the VIP in turn (VRRP)."""
        return False

    def __init__(self, settings: Iterable[tuple[str, Any]] = ()) -> None:
        """settings: ((name, value), ...) as the scenario gave them, validated against settings_spec."""
        self.settings = dict(settings)

    @classmethod
    def problem(cls, settings: Mapping[str, Any]) -> str | None:
        """What is wrong with these settings taken together ({name: value}, each alone already
        checked against settings_spec), or None."""
        return None

    def directors(self) -> dict[str, str | None]:
        return {DIRECTOR: None}

    def proxied_directors(self) -> tuple[str, ...]:
        """The directors that end the clients' connections (a plane that `proxies`), else ()."""
        return tuple(self.directors()) if self.proxies else ()

    def sampled_directors(self, datapath: str) -> tuple[str, ...]:
        """The directors whose IPVS table the run samples (a plane that acts by itself, on the
        datapath the lab runs: 'ipvs' or 'nftables')."""
        return tuple(self.directors()) if self.acts_by_itself else ()

    def table_sample(self, datapath: str) -> str:
        """The bash command that samples those directors' tables ('': IPVS's own, /proc/net/ip_vs)."""
        return ""

    def services(self, addresses: Addresses, database: PromotingDatabase, servers: Sequence[str]) -> dict[str, Any]:
        """addresses: {service: {network: address}} as compose.yaml places the nodes (its
        interpolations kept); database: the engine the database servers run; servers: the
        servers the run starts."""
        return {}

    def version_commands(self) -> VersionCommands:
        """[(name, service, command)] printing the version of each program it runs (env.json's
        versions, the page's Environment table)."""
        return ()

    def lab_settings(self) -> dict[str, str]:
        return {}

    def changes(self, run: RunFiles) -> list[DirectorChange]:
        """[DirectorChange] in time order, from the run's files only (a store.RunDir)."""
        raise NotImplementedError

    def lb_noticed(self, change: DirectorChange, death_t: float) -> NoticeWindow:
        """NoticeWindow from death_t to `change`, by this control plane's timers."""
        raise NotImplementedError

    def change_for(self, director: str, changes: Sequence[DirectorChange], port: int,
                   after_t: float) -> DirectorChange | None:
        """The change after after_t that decides what flows through `director` to `port` see."""
        return next((c for c in changes if c.director == director and c.t >= after_t), None)

    def effect_on(self, effect: Effect, director: str, changes: Sequence[DirectorChange], t_fault: float) -> Effect:
        """The effect (harness/measure/effects.py) existing flows through `director` see, given the fault's
        and what this plane did after it (changes): the fault's own, unless the plane's reaction
        turns it into something else (a removal that resets the flows)."""
        return effect

    def effect_by_model(self, effect: Effect, director: str) -> Effect | None:
        """effect_on() before a run, from this plane's own model instead of its changes (what `plan`
        and a run's first line expect); None: it has no such model (its reaction is read after the run)."""
        return None

    def promotion(self, run: RunFiles, t_fault: float) -> "Promotion | None":
        """The plane's own promotion of a replica (Patroni's: promotion.py), read from the run's
        files; None for a plane that promotes nothing."""
        return None

    def progress(self, lab: PlanesLab) -> Any:
        """Where its own work stands, read live from the lab before a run's steps (None: it acts
        only through the steps, and nothing of it is left to wait for)."""
        return None

    def caught_up(self, lab: PlanesLab, before: Any) -> bool:
        """Has it finished acting on what changed since `before` (progress())? A run whose clients
        are all back still watches until it has: its change is part of what the run measures."""
        return True

    def health_checks(self, run: RunFiles, env: Mapping[str, Any], periods: Mapping[str, tuple[float, float | None]],
                      end_t: float) -> "dict[str, DirectorChecks]":
        """{director: DirectorChecks} of a plane that health-checks the real servers: its settings,
        the SYNs a check gets within its connect timeout, and per period ({name: (start, end or
        None)}: before, during, after) per real server its failed checks, flaps and time out of
        rotation. env: the run's env.json."""
        return {}


def effect_from_change(effect: Effect, change: DirectorChange | None, t_fault: float, what: str) -> Effect:
    """The effect with its flows reset (or resumed) from a control plane's change on."""
    if effect.kind != BLACKHOLE or change is None:
        return effect
    start, by = round(change.t - t_fault, 3), round(change.t + change.uncertainty_s - t_fault, 3)
    if what == "reset":
        return dataclasses.replace(effect, reset_at_s=start, reset_by_s=by)
    if what == "resume":
        return dataclasses.replace(effect, resume_at_s=start, resume_by_s=by)
    raise ValueError(f"a control plane's change resets or resumes flows, not {what!r}")
