"""Where the lab runs: a Docker engine and the kernel under it.

HostEngine is this machine; guest.GuestEngine is a QEMU VM booting a packaged Debian kernel
with its own Docker engine. Both have this face, and nothing outside this package knows
which one a run used:
  ensure_started(say)    boot what needs booting (nothing, on the host); running()
  docker_host, docker()  the engine's Docker endpoint
  kernel_release(), hz(), has_ipvs(), has_netem(), has_qdisc(kind), has_sysctl(path)   the kernel under it
  sysctl_defaults()      every TCP and IPVS sysctl a new network namespace starts with (read once)
  clock_offset_s         the lab's clock minus this process's (0 on the host)
  problem()              what of the place itself broke (QEMU, the tunnel, the guest's dockerd), or None
  restart_docker_if_idle()   a new dockerd where no container runs and the engine is the run's alone
  describe()             what env.json records
Its lab is a ComposeLab on it (places.lab_on); a guest's engine gives its own, lab_of_shape(request)
(a GuestLab keeps its console).
"""
import gzip
import json
import os
import platform
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, Protocol, Self

from python_on_whales import DockerClient

from ..errors import LabError
from .engine_api import clients_endpoint
from .registry import registry_dir
from .stuck import describe_stuck, parse_stuck, stuck_script

# Prints "name<TAB>value" for every TCP and IPVS sysctl of the namespace it runs in (run in a new
# one: its values are the kernel's defaults). IPVS's appear where ip_vs is loaded.
SYSCTL_DEFAULTS_SCRIPT = "cd /proc/sys/net/ipv4 && grep -s -H '' tcp_* vs/* 2>/dev/null; true"


def parse_sysctl_defaults(text: str) -> dict[str, str]:
    """{'tcp_retries2': '15', 'vs/expire_nodest_conn': '0', 'tcp_rmem': '4096 131072 6291456', ...}
    from SYSCTL_DEFAULTS_SCRIPT's output (grep's "file:value" lines; a value's tabs as spaces)."""
    values = {}
    for line in text.splitlines():
        name, sep, value = line.partition(":")
        if sep and name not in values:
            values[name] = " ".join(value.split())
    return values


def config_hz(config_text: str) -> int | None:
    m = re.search(r"^CONFIG_HZ=(\d+)$", config_text, re.M)
    return int(m.group(1)) if m else None


# A kernel without its config at hand: its jiffies counted over 2 s of its own clock, read from
# /proc/timer_list (root only): "<now ns> <jiffies>" twice.
JIFFIES_SCRIPT = ("awk '/^now at/ {n = $3} /^jiffies:/ {print n, $2; exit}' /proc/timer_list; sleep 2; "
                  "awk '/^now at/ {n = $3} /^jiffies:/ {print n, $2; exit}' /proc/timer_list")
HZ_CHOICES = (100, 250, 300, 1000)          # Kconfig's
HOST_HEALTH_INTERVAL = "10s"                # Docker's checks on this host (compose_env)


def hz_from_jiffies(text: str) -> int | None:
    """CONFIG_HZ from JIFFIES_SCRIPT's output: the Kconfig value within 8% of the jiffies counted
    per second (a slow read between the two clocks moves it a little), else None."""
    samples = [tuple(map(int, line.split())) for line in text.splitlines() if len(line.split()) == 2]
    if len(samples) != 2 or samples[1][0] <= samples[0][0]:
        return None
    rate = (samples[1][1] - samples[0][1]) / ((samples[1][0] - samples[0][0]) / 1e9)
    nearest = min(HZ_CHOICES, key=lambda hz: abs(hz - rate))
    return nearest if abs(rate - nearest) <= 0.08 * nearest else None


class PlaceEngine(Protocol):
    """What a ComposeLab asks of the place it runs on (HostEngine, GuestEngine): its Docker engine,
    its kernel, its life."""
    where: str                  # "host", "guest"
    shared: bool                # other labs may be on its engine
    one_lab: bool               # taking the lab down stops the place too
    clock_offset_s: float       # its clock - ours

    def ensure_started(self, say: Callable[[str], None] = ...) -> None: ...
    def running(self) -> bool: ...
    def stop(self) -> None: ...
    @property
    def docker_host(self) -> str | None: ...       # where its Docker engine answers (None: this host's default)
    def problem(self) -> str | None: ...
    def what_is_stuck(self) -> str: ...
    def restart_docker_if_idle(self) -> bool: ...
    def compose_env(self) -> dict[str, str]: ...
    def kernel_release(self) -> str: ...
    def hz(self) -> int | None: ...
    def has_ipvs(self) -> bool: ...
    def sysctl_defaults(self) -> dict[str, str]: ...
    def describe(self) -> dict[str, Any]: ...
    def docker(self, **options: Any) -> DockerClient: ...


def refuse_another_machines_docker(endpoint: str) -> None:
    """This machine's lab runs on this machine's Docker engine: its kernel is what a run measures and
    env.json names. An engine DOCKER_HOST or a docker context names elsewhere (ssh://, tcp://) would
    run the lab on another kernel, recorded as this one: refused (scripts/ensure-docker.sh, too)."""
    if not endpoint.startswith("unix://"):
        raise LabError(f"the docker client points at {endpoint} (DOCKER_HOST or its context): the lab runs on "
                       "this machine's Docker engine, whose kernel it measures; unset DOCKER_HOST or "
                       "`docker context use default`")


class HostEngine:
    """This machine's Docker engine and kernel."""
    where = "host"
    shared = True               # other labs (other runs, other users) may be on this engine
    one_lab = False             # taking a lab down never stops this engine
    docker_host = None          # the client's default (DOCKER_HOST or the local socket)
    clock_offset_s = 0.0
    _endpoint_checked = False    # the docker client's endpoint is this machine's: asked once per process (docker())

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        return False

    def ensure_started(self, say: Callable[[str], None] = print) -> None:
        pass

    def running(self) -> bool:
        return True

    def stop(self) -> None:
        """Nothing to stop: this machine stays up."""

    def restart_docker_if_idle(self) -> bool:
        """This machine's dockerd is never restarted by the lab (other work may use it)."""
        return False

    def problem(self) -> str | None:
        """This machine's engine is judged by its answers (ComposeLab.problems)."""
        return None

    def what_is_stuck(self) -> str:
        """This machine's processes stuck in the kernel and its hang messages ('' if none)."""
        try:
            result = subprocess.run(["sh", "-c", stuck_script()], capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:
            return "\n(reading this machine's processes did not end in 30 s either)"
        return describe_stuck(parse_stuck(result.stdout))

    def compose_env(self) -> dict[str, str]:
        """compose.yaml variables this place needs: Docker's health checks every 10 s, not every
        second (compose.yaml's default). Each is an exec through runc: an idle seed lab on this
        host held 0.23-0.26 of its two cores at 1 s and 0.03-0.04 at 10 s (docs/facts/host.md),
        and a make test runs three labs at once. Starting containers are checked by the lab's own
        loop meanwhile (health_check_loop.py), so nothing waits for Docker's interval."""
        return {"HEALTH_INTERVAL": HOST_HEALTH_INTERVAL}

    def kernel_release(self) -> str:
        return platform.release()

    def hz(self) -> int | None:
        """CONFIG_HZ of the running kernel, from /proc/config.gz or /boot; None if neither says."""
        for path in (Path("/proc/config.gz"), Path(f"/boot/config-{platform.release()}")):
            if path.exists():
                text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
                return config_hz(text)
        return None

    def has_ipvs(self) -> bool:
        """ip_vs is loaded in this kernel (the director's namespace then has IPVS too)."""
        return Path("/proc/net/ip_vs").exists()

    def has_netem(self) -> bool:
        return self.has_qdisc("netem")

    def has_qdisc(self, kind: str) -> bool:
        """A qdisc of this kind can be attached (tried in a throwaway network namespace; the host
        is not touched)."""
        result = subprocess.run(["unshare", "--net", "tc", "qdisc", "add", "dev", "lo", "root", kind],
                                capture_output=True)
        return result.returncode == 0

    def has_sysctl(self, path: str) -> bool:
        return Path(path).exists()

    def sysctl_defaults(self) -> dict[str, str]:
        """Read in a throwaway network namespace (the host's own sysctls are not read or touched),
        once per boot of this kernel: kept in a file beside the lab registry. A new namespace can
        wait half a minute and more for the kernel while it tears down hundreds of others (three
        labs of make test ending at once), and the answer never changes until the next boot."""
        if getattr(self, "_sysctl_defaults", None) is None:
            boot_id = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
            cache = registry_dir().parent / f"sysctl-defaults-{boot_id}-{int(self.has_ipvs())}.json"
            try:
                self._sysctl_defaults = json.loads(cache.read_text())
            except (OSError, ValueError):
                result = subprocess.run(["unshare", "--net", "sh", "-c", SYSCTL_DEFAULTS_SCRIPT],
                                        capture_output=True, text=True, timeout=120)
                self._sysctl_defaults = parse_sysctl_defaults(result.stdout)
                cache.parent.mkdir(parents=True, exist_ok=True)
                written = cache.with_suffix(f".{os.getpid()}")
                written.write_text(json.dumps(self._sysctl_defaults))
                written.replace(cache)
        return self._sysctl_defaults

    def docker(self, **options: Any) -> DockerClient:
        if self.docker_host is None and not HostEngine._endpoint_checked:
            refuse_another_machines_docker(clients_endpoint())
            HostEngine._endpoint_checked = True
        return DockerClient(host=self.docker_host, **options)

    def describe(self) -> dict[str, Any]:
        """What env.json records about the place the run ran in."""
        return {"where": self.where, "kernel": self.kernel_release(), "hz": self.hz()}

