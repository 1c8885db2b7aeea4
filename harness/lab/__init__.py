"""The only package that knows Docker Compose and where the lab runs.

Faults, loads and the director control speak to nodes through a ComposeLab (exec, spawn,
logs, address, ...); where its engine is (this host, or a VM with another kernel) is the
engine's business (engine.py).
"""
import subprocess
import sys
from pathlib import Path

from ..errors import LabError
from .cleanup import clean, labelled_leftovers
from .compose import (DEFAULT_PROJECT, LABEL, REPO, ClientCell, ComposeLab, environment_from_os, image_names,
                      resolve_datapath)
from .engine import HostEngine

HOST = "host"


def engine_for(kernel, out=sys.stdout, keep_in=None):
    """Where a lab runs for KERNEL=kernel: this host ('host' or unset) or a guest booting that
    packaged kernel, whose disk carries this host's lab images. keep_in: a directory for a guest
    that outlives this process (`make up`; found again with kept_engine)."""
    if not kernel or kernel == HOST:
        return HostEngine()
    from .guest import GuestEngine
    return GuestEngine(kernel, image_ids=host_image_ids, save_images=save_host_images, out=out, home=keep_in)


def kept_engine(keep_in, out=sys.stdout):
    """The guest `make up KERNEL=...` left running in keep_in, or this host if there is none."""
    from .guest.engine import GUEST_FILE, GuestEngine
    if (Path(keep_in) / GUEST_FILE).exists():
        return GuestEngine.attach(keep_in, out=out)
    return HostEngine()


def host_image_ids():
    docker = HostEngine().docker()
    ids = {}
    for name in image_names():
        if not docker.image.exists(name):
            raise LabError(f"image {name} is missing on this host: build the lab's images first (make images)")
        ids[name] = docker.image.inspect(name).id
    return ids


def save_host_images(path):
    subprocess.run(["docker", "save", "-o", str(path), *image_names()], check=True, timeout=900)


__all__ = ["ClientCell", "ComposeLab", "DEFAULT_PROJECT", "HOST", "HostEngine", "LABEL", "LabError", "REPO", "clean",
           "engine_for", "environment_from_os", "kept_engine", "labelled_leftovers", "resolve_datapath"]
