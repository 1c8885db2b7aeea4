"""build, up, down, clean, status: the lab itself, without a scenario."""
import argparse
import os
import sys
from pathlib import Path
from typing import Any

from . import Commands
from ..databases import DATABASES
from ..databases.base import DatabaseEngine
from ..lab import DEFAULT_PROJECT, PlaceEngine, REPO, ComposeLab, HostEngine, LabRequest, build_plane_images, clean, engine_for, environment_from_os, kept_engine
from ..lab.images import built_as_recorded, record_build
from .options import add, datapath, db_engine, kernel, project


def add_commands(commands: Commands) -> None:
    add(commands, "build", cmd_build, "build the images (Dockerfiles under images/), always on this host",
        project, datapath)
    add(commands, "up", cmd_up, "bring the lab up and wait until healthy; with --kernel inside a guest, "
        "kept until `down`", project, datapath, kernel, db_engine)
    add(commands, "down", cmd_down, "stop and remove this project's containers and networks (and its guest)",
        project, datapath)
    command = add(commands, "clean", cmd_clean, "remove the labs whose owner is gone (found by label, also "
                  "after a crash); with LAB=kubernetes, the lab namespaces a killed run left on the cluster")
    command.add_argument("--all", action="store_true", default=bool(os.environ.get("ALL")),
                         help="every lab, also kept ones and those whose owner is running")
    add(commands, "status", cmd_status, "health of each service and the director's datapath", project, datapath)


def guest_home(args: argparse.Namespace) -> Path:
    """Where `make up KERNEL=...` keeps its guest, for `make down` and `make status` to find."""
    return REPO / ".lab" / (args.project or DEFAULT_PROJECT) / "guest"


def make_lab(args: argparse.Namespace, engine: PlaceEngine | None = None,
             database: DatabaseEngine | None = None) -> ComposeLab:
    database = database or (DATABASES[args.db_engine]() if getattr(args, "db_engine", None) else None)
    return ComposeLab(LabRequest(project=args.project or DEFAULT_PROJECT, datapath=args.datapath, env=environment_from_os(),
                                 database=database), engine=engine or kept_engine(guest_home(args)))


def cmd_build(args: argparse.Namespace) -> None:
    """Every database engine's images too (each engine's lab builds its own): a run picks one with
    DB_ENGINE, and a guest's disk is made from all of them. Always on this host."""
    if built_as_recorded():
        print("lab: images up to date (built here from what the checkout holds now)")
        return
    print("lab: building images (cached layers are reused) ...", flush=True)
    for name in sorted(DATABASES):
        make_lab(args, HostEngine(), DATABASES[name]()).build()
    build_plane_images()
    record_build()
    print("lab: images built")


def cmd_up(args: argparse.Namespace) -> None:
    engine = engine_for(args.kernel, keep_in=guest_home(args))
    lab = make_lab(args, engine)
    print(f"lab: bringing up project {lab.project} on {args.kernel} ...", flush=True)
    try:
        lab.up()
    except BaseException:
        print("lab: up failed or was interrupted; taking the lab down again", file=sys.stderr)
        lab.down()
        engine.stop()
        raise
    lab.keep()
    cmd_status(args, lab)
    if engine.docker_host:
        print(f"  guest {engine.kernel_release()}: its Docker engine is at DOCKER_HOST={engine.docker_host}; "
              "`make down` stops the guest too")


def cmd_down(args: argparse.Namespace) -> None:
    lab = make_lab(args)
    lab.down()
    lab.stop_place()
    print("lab: down" + (" (and its guest stopped)" if lab.where == "guest" else ""))


def cmd_clean(args: argparse.Namespace) -> None:
    result = clean(everything=args.all)
    for project_name, names in result["removed"].items():
        print(f"lab: clean: removed {project_name}: {len(names)} containers/networks/volumes"
              + ("" if args.all else " (its owner is gone)"))
    for project_name, why in result["kept"].items():
        print(f"lab: clean: kept {project_name}: {why} (make clean ALL=1 removes it too)")
    for guest in result["guests"]:
        print(f"lab: clean: removed guest {guest}")
    on_cluster = clean_cluster(args.all)
    if not any(result.values()) and not any(on_cluster.values()):
        print("lab: clean: nothing to clean")


def clean_cluster(everything: bool) -> dict[str, Any]:
    """The lab namespaces a killed run left on a cluster: LAB=kubernetes's (KUBECONFIG's, else
    cluster-up's), or cluster-up's when it is up."""
    from ..lab.cluster import leftovers
    from ..lab.cluster.place import node_for
    node = node_for(os.environ.get("KUBECONFIG") if os.environ.get("LAB") == "kubernetes" else None)
    if os.environ.get("LAB") == "kubernetes":
        node.ensure_reachable()
    elif not node.running():
        return {}
    result = leftovers.clean(node.api(), everything, say=lambda line: print(f"lab: {line}", flush=True))
    for name in result["removed"]:
        print(f"lab: clean: removed namespace {name} from the cluster" + ("" if everything else " (its owner is gone)"))
    for name, why in result["kept"].items():
        print(f"lab: clean: kept namespace {name} on the cluster: {why} (make clean ALL=1 removes it too)")
    return result


def cmd_status(args: argparse.Namespace, lab: ComposeLab | None = None) -> None:
    lab = lab or make_lab(args)
    for service, health in sorted(lab.health().items()):
        print(f"  {service:16} {health}")
    print(f"  director datapath: {lab.director().datapath}; kernel {lab.kernel_release()} ({lab.where})")
