"""Options several subcommands share, each with its environment default (what make passes)."""
import argparse
import os

from ..databases import DATABASES, DEFAULT_DATABASE
from ..lab import DEFAULT_PROJECT, HOST
from ..topology import DATAPATHS
from . import add  # noqa: F401 (the subcommands take it from here)


def project(command: argparse.ArgumentParser) -> None:
    command.add_argument("--project", default=os.environ.get("LAB_PROJECT"),
                         help=f"Compose project (up/down/status: {DEFAULT_PROJECT}; a run: one of its own)")


def kernel(command: argparse.ArgumentParser) -> None:
    command.add_argument("--kernel", default=os.environ.get("KERNEL") or HOST,
                         help="host, or a Debian kernel to run the lab in a guest with: 6.1, 6.12, 6.1.0-56, ...")


def datapath(command: argparse.ArgumentParser) -> None:
    command.add_argument("--datapath", default=os.environ.get("LB_DATAPATH") or "auto", choices=DATAPATHS)


def db_engine(command: argparse.ArgumentParser) -> None:
    command.add_argument("--db-engine", default=os.environ.get("DB_ENGINE") or DEFAULT_DATABASE,
                         choices=sorted(DATABASES), help="what the database servers run")
