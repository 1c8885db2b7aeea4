"""Where a lab runs, one entry per place: this host's Docker engine, a QEMU guest booting another
Debian kernel (both run the lab with Compose), or the single-node Kubernetes cluster (its pods).

A place opens a context manager (an engine: `with` boots and stops what it needs), and
lab_on(engine, LabRequest) (request.py) gives the run its Lab. Choosing a place happens here only:
`open_place(kernel, lab)`. docs/adding-a-place-to-run.md is the recipe for a fourth."""
import dataclasses
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Callable, Protocol, runtime_checkable

from ..errors import InvalidInput
from ..registered import Registry
from .base import Lab
from .compose import ComposeLab
from .engine import PlaceEngine
from .request import LabRequest

if TYPE_CHECKING:
    from .cluster.place import ClusterPlace
    from .engine import HostEngine
    from .guest import GuestEngine

HOST = "host"
COMPOSE, KUBERNETES = "compose", "kubernetes"
LABS = (COMPOSE, KUBERNETES)                  # LAB=...


@dataclasses.dataclass(frozen=True)
class Place:
    name: str
    summary: str
    chosen_by: str
    open: Callable            # (kernel, out, keep_in, one_lab) -> an engine with lab_of_shape


def _host(kernel: str | None, out: IO[str], keep_in: Path | None, one_lab: bool) -> "HostEngine":
    from .engine import HostEngine
    return HostEngine()


def _guest(kernel: str, out: IO[str], keep_in: Path | None, one_lab: bool) -> "GuestEngine":
    from .guest import GuestEngine
    from .images import host_image_keys, save_host_images
    return GuestEngine(kernel, image_keys=host_image_keys, save_images=save_host_images, out=out, home=keep_in,
                       one_lab=one_lab)


def _cluster(kernel: str | None, out: IO[str], keep_in: Path | None, one_lab: bool) -> "ClusterPlace":
    from .cluster.place import ClusterPlace
    if kernel and kernel != HOST:
        print(f"run: LAB=kubernetes runs on the cluster's own node kernel; KERNEL={kernel} is not used", file=out)
    return ClusterPlace()


PLACES = Registry("place to run", (
    Place(HOST, "Docker Compose on this machine's own kernel and Docker engine.", "KERNEL=host (the default)", _host),
    Place("guest", "Docker Compose inside a QEMU guest booting a packaged Debian kernel (IPVS, netem, another "
          "kernel's sysctls); its Docker engine reached over ssh.", "KERNEL=5.10|6.1|6.12|7.3|<package>", _guest),
    Place(KUBERNETES, "Pods on the single-node Kubernetes cluster `make cluster-up` keeps in a guest (or the one "
          "KUBECONFIG names); its kube-proxy is the director.", "LAB=kubernetes", _cluster),
))


def place_name(kernel: str | None, lab: str = COMPOSE) -> str:
    if lab not in LABS:
        raise InvalidInput(f"LAB={lab}: one of {', '.join(LABS)}")
    if lab == KUBERNETES:
        return KUBERNETES
    return HOST if not kernel or kernel == HOST else "guest"


def compose_place(kernel: str | None, out: IO[str] = sys.stdout, keep_in: Path | None = None,
                  one_lab: bool = False) -> "HostEngine | GuestEngine":
    """The engine a Compose lab runs on for KERNEL=kernel: this host's, or a guest's (not started)."""
    if place_name(kernel) == HOST:
        return _host(kernel, out, keep_in, one_lab)
    return _guest(str(kernel), out, keep_in, one_lab)


def open_place(kernel: str | None, lab: str = COMPOSE, out: IO[str] = sys.stdout, keep_in: Path | None = None,
               one_lab: bool = False) -> "HostEngine | GuestEngine | ClusterPlace":
    """The engine of the place KERNEL and LAB name (not started: `with` it)."""
    return PLACES[place_name(kernel, lab)].open(kernel, out, keep_in, one_lab)


@runtime_checkable
class OpensItsOwnLab(Protocol):
    """A place whose lab is not a plain ComposeLab on its engine: a guest's (GuestLab keeps its
    console), the cluster's (pods)."""

    def lab_of_shape(self, request: LabRequest) -> Lab:
        ...


# Where a run puts its lab: a place that runs Compose (this host's engine, a guest's), one that opens its own
# lab (a guest, the cluster), or None (this host).
LabPlace = PlaceEngine | OpensItsOwnLab | None


def lab_on(engine: LabPlace, request: LabRequest) -> Lab:
    """A lab (base.Lab) of what the request asks where `engine` runs it (places.py): Compose on
    this host's Docker engine (None or a HostEngine), or the place's own lab."""
    if isinstance(engine, OpensItsOwnLab):
        return engine.lab_of_shape(request)
    return ComposeLab(request, engine)
