"""What the rest of the harness may ask of a lab, wherever it runs (docs/adding-a-place-to-run.md).

Faults, loads, control planes and runs speak to nodes only through this face; a lab made of
Compose containers on this host or in a guest (compose.py over engine.py's engines) is one
implementation, and tests/lab/test_lab_contract.py holds every implementation to it.

  lifecycle   up(wait, preflight), wait_healthy(timeout_s, only, stopping), down(), problems(), services(), restart(service)
  nodes       exec(service, command, ...), spawn(service, command), placement(service),
              logs(service), networks_of(service)
  the place   now(), datapath, kernel (kernel_release(), hz(), has_ipvs(), has_netem(), has_qdisc(kind),
              has_sysctl(path)), describe()
"""
import abc
import dataclasses
import subprocess
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from ..databases.base import DatabaseEngine
from ..errors import LabError

if TYPE_CHECKING:
    from ..director import Director
    from ..director.commands import LbCommands
    from ..faults.base import Fault

EXEC_SIDE_BY_SIDE = 8          # execs at once (each is a process of ours)


@dataclasses.dataclass
class ExecResult:
    returncode: int
    stdout: str
    stderr: str

    def failed(self, service: str, command: Sequence[str]) -> LabError:
        """The LabError of a command that exited non-zero: what it said on stderr, or on stdout when
        stderr was empty (sysbench and the mysql client print their FATAL lines there)."""
        said = (self.stderr.strip() or self.stdout.strip())[-500:]
        return LabError(f"{service}: {' '.join(command)} exited {self.returncode}: {said}")


@dataclasses.dataclass(frozen=True)
class ClientCell:
    """One client network namespace: its own TCP sysctls and link."""
    name: str
    sysctls: tuple[tuple[str, int], ...] = ()   # (("net.ipv4.tcp_retries2", 5), ...)
    netem: str = ""              # netem arguments for its side of the link ('delay 50ms'), '' for none

    @property
    def service(self) -> str:
        return f"client-{self.name}"


class Lab(abc.ABC):
    project: str                 # the lab's name where it runs (labels, networks)
    cell_namespaces: str         # 'container' or 'netns' (topology.CELL_NAMESPACES)
    database: DatabaseEngine     # the engine its database servers run (harness/databases/)
    # Each command in a node costs seconds (an emulated CPU): a run asks what it records of the lab
    # (env.json) while its clients start, not once they load the machine.
    costly_execs: bool = False

    # -- lifecycle -----------------------------------------------------------
    @abc.abstractmethod
    def up(self, wait: bool = True, preflight: Callable[[Any], None] | None = None,
           timeout_s: float | None = None) -> None:
        """Start the lab; wait=False: return once its nodes run, before their health checks pass;
        preflight(kernel): called once the kernel under the lab is there, before any node starts;
        timeout_s: how long its nodes may take to start (and pass their checks, when waited for);
        None: the place's own limit."""

    @abc.abstractmethod
    def wait_healthy(self, timeout_s: float = 180, only: Iterable[str] | None = None,
                     stopping: threading.Event | None = None) -> None:
        """Until every node with a health check passes it (only: of these services); LabError if not,
        or at the next poll once stopping is set (the run is ending)."""

    @abc.abstractmethod
    def down(self) -> None:
        """Remove everything the lab made, wherever it is; safe to repeat."""

    @abc.abstractmethod
    def problems(self) -> dict[str, str]:
        """{service: what is wrong} for each node that is gone or not running."""

    @abc.abstractmethod
    def services(self) -> list[str]:
        """The services this lab runs."""

    @abc.abstractmethod
    def restart(self, service: str) -> None:
        """Restart a node (its processes end as they would on a restart)."""

    # -- nodes ---------------------------------------------------------------
    @abc.abstractmethod
    def exec(self, service: str, command: Sequence[str], check: bool = True, timeout: float = 60,
             stdin: str | None = None) -> ExecResult:
        """Run a command in a node (a cell's service: in its network namespace); an ExecResult,
        LabError on a non-zero exit when check."""

    @abc.abstractmethod
    def spawn(self, service: str, command: Sequence[str], stdout: Any = subprocess.PIPE) -> subprocess.Popen:
        """Start a command in a node with a pipe to its stdin; a Popen-like process of its own session."""

    @abc.abstractmethod
    def placement(self, service: str) -> tuple[str, str | None]:
        """(the service whose node runs a cell's programs, the network namespace file to enter there
        or None)."""

    @abc.abstractmethod
    def logs(self, service: str) -> str:
        """The node's log, timestamped."""

    @abc.abstractmethod
    def networks_of(self, service: str) -> dict[str, str]:
        """{network: address} of a node on the lab's networks."""

    # -- the place -----------------------------------------------------------
    @abc.abstractmethod
    def now(self) -> float:
        """The lab's clock (the one its nodes stamp their records with)."""

    @property
    @abc.abstractmethod
    def datapath(self) -> str:
        """The director's datapath, as the kernel under the lab allows: 'ipvs' or 'nftables'."""

    @property
    @abc.abstractmethod
    def kernel(self) -> Any:
        """The kernel under the lab: kernel_release(), hz(), has_ipvs(), has_netem(), has_qdisc(kind),
        has_sysctl(path)."""

    @abc.abstractmethod
    def describe(self) -> dict:
        """What env.json records of the lab: {"kernel", "where", "kernel_facts", "lab", "images",
        "docker_compose"}; kernel_facts: {"hz", "sysctl_defaults": {name under net.ipv4: value}}."""

    @property
    def can_be_kept(self) -> bool:
        """Whether the lab may stay up after the run (KEEP_LAB=1): only where its place outlives
        the run (this host's engine; a guest goes, and its lab with it)."""
        return False

    # -- the director ---------------------------------------------------------
    def director(self, service: str = "director") -> "Director":
        """The director as its datapath shows it (harness/director/'s Director): a Compose lab's
        is its director container, read and changed with lbctl; another place may have its own."""
        from ..director import Director
        return Director(self, service)

    def director_commands(self) -> "LbCommands":
        """The changes the harness makes to the director (harness/director/commands.py)."""
        from ..director.commands import LbCommands
        return LbCommands(self)

    def directors_programmed_by_themselves(self) -> tuple[str, ...]:
        """Directors that something besides the harness and a scenario's control plane programs
        (a cluster's kube-proxy): the run samples their table, as a control plane's."""
        return ()

    def refusal(self, fault: "Fault") -> str | None:
        """Why this lab cannot make `fault` (a Fault, its params checked), in one line, or None;
        asked before anything starts: here, a service it talks to that the lab does not run."""
        runs = set(self.services())
        missing = [f"{service}, {why}" for service, why in fault.needs_services().items() if service not in runs]
        return f"fault {fault.name} needs {'; '.join(missing)}" if missing else None

    # -- derived -------------------------------------------------------------
    def address(self, service: str, network: str) -> str:
        return self.networks_of(service)[network]

    def addresses(self, service: str) -> list[str]:
        """Every IPv4 address of a node, on all lab networks (one network may stand for two)."""
        return sorted(set(self.networks_of(service).values()))

    def kernel_release(self) -> str:
        return self.kernel.kernel_release()

    def exec_each(self, commands: Sequence[tuple[str, Sequence[str]] | tuple[str, Sequence[str], str | None]],
                  check: bool = True, timeout: float = 60, stdin: str | None = None) -> list[ExecResult]:
        """[(service, command) or (service, command, its own stdin), ...] run side by side (each
        given stdin unless it has its own); their ExecResults in order. check=False: a command that
        fails, or does not end within timeout (returncode 124), is a result like any other."""
        if not commands:
            return []

        def one(service: str, command: Sequence[str], own_stdin: str | None = stdin) -> ExecResult:
            try:
                return self.exec(service, command, check=check, timeout=timeout, stdin=own_stdin)
            except subprocess.TimeoutExpired:
                if check:
                    raise
                return ExecResult(124, "", f"no answer within {timeout} s")
        with ThreadPoolExecutor(min(len(commands), EXEC_SIDE_BY_SIDE)) as pool:
            return list(pool.map(lambda sc: one(*sc), commands))
