"""The machine's knobs (registry.MACHINE, and KUBECONFIG), read from the environment here and
nowhere else in the library: each function reads when asked, so a test may set one for a while,
and the values were checked at the edge (harness/settings/edge.py) before anything started.
Standard library only, as the rest of harness/settings/."""
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TypeVar

Default = TypeVar("Default")

REPO = Path(__file__).resolve().parents[2]


def _get(name: str, default: Default, environ: Mapping[str, str] | None = None) -> str | Default:
    value = (os.environ if environ is None else environ).get(name)
    return default if value is None or value == "" else value


def results_root() -> Path:
    """Where runs are written (BLACKHOLE_RESULTS, default results/ of this clone)."""
    return Path(_get("BLACKHOLE_RESULTS", REPO / "results"))


def cache_root() -> Path:
    """Kernels, guest disks, debs and images' version lines shared by every clone (BLACKHOLE_CACHE)."""
    return Path(_get("BLACKHOLE_CACHE", Path.home() / ".cache" / "blackhole-lab"))


def state_dir() -> Path:
    """The labs' owner records (BLACKHOLE_STATE)."""
    return Path(_get("BLACKHOLE_STATE", "/tmp/blackhole-lab/labs"))


def forced_accel() -> str | None:
    """QEMU's accelerator if BLACKHOLE_ACCEL forces one (tcg or kvm), else None."""
    return _get("BLACKHOLE_ACCEL", None)


def guest_kernel_args(environ: Mapping[str, str] | None = None) -> str:
    return _get("GUEST_KERNEL_ARGS", "", environ)


def guest_cpus(environ: Mapping[str, str] | None = None) -> str:
    return _get("GUEST_CPUS", "", environ).strip()


def guest_snapshots(environ: Mapping[str, str] | None = None) -> str:
    return _get("GUEST_SNAPSHOTS", "1", environ).strip()


def cluster_node() -> str | None:
    """The cluster node the node agent runs on (BLACKHOLE_NODE), or None: the first Ready one."""
    return _get("BLACKHOLE_NODE", None)


def given(names: Iterable[str]) -> dict[str, str]:
    """{name: value} of those of `names` the environment gives (a lab's knobs: compose.USER_ENV)."""
    return {name: os.environ[name] for name in names if os.environ.get(name)}


def kubeconfig() -> str | None:
    return _get("KUBECONFIG", None)
