"""The only package that knows Docker Compose and where the lab runs.

Faults, loads, control planes and runs speak to nodes through a Lab (base.py: up, exec, spawn,
logs, address, ...); ComposeLab (compose.py) is that face over an engine, this host or a VM
with another kernel (engine.py, guest/).
"""
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ..errors import LabError
from .base import ClientCell, ExecResult, Lab
from .cleanup import clean, labelled_leftovers
from .compose import REPO, ComposeLab, environment_from_os
from .request import DEFAULT_PROJECT, LabRequest
from .datapath import resolve_datapath
from .docker_lists import listed_again_if_one_vanished
from .engine import HostEngine, PlaceEngine
from .places import COMPOSE, HOST, PLACES, LabPlace, compose_place, lab_on, open_place
if TYPE_CHECKING:
    from .guest import GuestEngine
from .images import LABEL, build_plane_images, host_image_keys, image_names, image_sizes_mb, planned_addresses, save_host_images

DEFAULT_GUEST_KERNEL = "6.12"          # a scenario that needs what this host's kernel lacks boots this one


def engine_for(kernel: str | None, out: IO[str] = sys.stdout, keep_in: Path | None = None,
               one_lab: bool = False) -> "HostEngine | GuestEngine":
    """Where a Compose lab runs for KERNEL=kernel (places.py): this host ('host' or unset) or a guest
    booting that packaged kernel, whose disk carries this host's lab images. keep_in: a directory
    for a guest that outlives this process (`make up`; found again with kept_engine). one_lab: the
    caller runs one lab on it, so a guest may go when that lab is taken down."""
    return compose_place(kernel, out=out, keep_in=keep_in, one_lab=one_lab)


def check_kernel(kernel: str | None) -> None:
    """A guest kernel no Debian package answers is refused here, before a run directory is made."""
    if kernel and kernel != HOST:
        from .guest import kernels
        kernels.exists(kernel)


def kept_engine(keep_in: str | Path, out: IO[str] = sys.stdout) -> "HostEngine | GuestEngine":
    """The guest `make up KERNEL=...` left running in keep_in, or this host if there is none."""
    from .guest.engine import GuestEngine
    from .guest.kept import GUEST_FILE
    if (Path(keep_in) / GUEST_FILE).exists():
        return GuestEngine.attach(keep_in, out=out)
    return HostEngine()


__all__ = ["COMPOSE", "ClientCell", "ComposeLab", "DEFAULT_GUEST_KERNEL", "DEFAULT_PROJECT", "ExecResult", "HOST", "HostEngine", "LABEL", "Lab", "LabRequest",
           "LabError", "LabPlace", "PLACES", "PlaceEngine", "REPO", "build_plane_images", "check_kernel", "clean", "engine_for", "environment_from_os", "host_image_keys", "image_names",
           "image_sizes_mb", "kept_engine", "lab_on", "labelled_leftovers", "open_place", "listed_again_if_one_vanished",
           "planned_addresses", "resolve_datapath", "save_host_images"]
