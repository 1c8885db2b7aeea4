"""What the README, `make help` and docs/ list is what the code has: the make targets, the members
of each registry, the generated reference; every link in the docs lands inside the repository."""
import re
from pathlib import Path

import pytest

from harness.control import CONTROL_PLANES
from harness.databases import DATABASES
from harness.faults import FAULTS
from harness.lab.places import PLACES
from harness.load.clients import CLIENTS
from harness.run.environment import place_versions
from harness.cli import reference
from harness.pools import POOLS
from harness.signals.registry import SIGNALS

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
DOCS = sorted([README, *REPO.glob("docs/**/*.md"), *REPO.glob("examples/**/*.md"), *REPO.glob("images/**/*.md"),
               *REPO.glob("exercises/**/*.md"), *REPO.glob("benchmarks/**/*.md")])
MAKE_GOAL = re.compile(r"`make ([a-z][a-z0-9-]*)(?=[\s`\[])")
LINK = re.compile(r"\]\(([^)\s]+)\)")
UPWARD_PATH = re.compile(r"(?<![\w/.])((?:\.\./)+[\w.-][\w./-]*)")      # a relative path that climbs: ../x/y
README_LIMIT = 250


def test_the_committed_reference_is_what_the_code_writes():
    assert (REPO / "docs" / "reference.md").read_text() == reference.reference(), "stale: run make reference"


def test_every_target_is_in_make_help_or_named_internal():
    phony = set(reference.phony_targets())
    helped = {goal for line in reference.make_help() for goal in re.findall(r"make ([a-z][a-z0-9-]*)(?![=\w-])", line)}
    internal = set(reference.internal_targets())
    assert phony and internal <= phony
    assert phony - internal - helped == set(), "targets make help does not list"
    assert helped - phony == set(), "make help names targets the Makefile lacks"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_make_goal_a_document_names_exists(doc):
    phony = set(reference.phony_targets())
    named = set(MAKE_GOAL.findall(doc.read_text())) - {"scenario"}
    assert named - phony == set(), f"{doc.name} names make goals the Makefile lacks"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_link_lands_inside_the_repository(doc):
    text = doc.read_text()
    for climbing in UPWARD_PATH.findall(text):          # named in prose too, not only as a link
        assert (doc.parent / climbing).resolve().is_relative_to(REPO), f"{doc.name}: {climbing} leaves the repository"
    for target in LINK.findall(text):
        if re.match(r"(https?|mailto):", target) or target.startswith("#"):
            continue
        path = (doc.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(REPO), f"{doc.name}: {target} leaves the repository"
        assert path.exists(), f"{doc.name}: {target} does not exist"


def axes_rows():
    rows = {}
    for line in README.read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[1].startswith("`harness/"):
            rows[cells[0]] = {m.strip() for m in cells[2].split(",")}
    return rows


def test_the_readme_lists_each_registry_whole():
    rows = axes_rows()
    assert rows == {
        "where the lab runs": set(PLACES),
        "who changes the director": set(CONTROL_PLANES),
        "which database": set(DATABASES),
        "what happens (faults)": set(FAULTS),
        "what is measured (signals)": {s.name for s in SIGNALS.members()},
        "which client (driver)": set(CLIENTS),
        "connection pool": set(POOLS),
    }


def test_the_readme_is_a_front_door():
    assert len(README.read_text().splitlines()) <= README_LIMIT


def test_each_client_is_one_entry_with_its_version_command_process_and_login():
    # sysbench's version is recorded for every run that has it (run/environment.py); the lab's probe
    # is stopped with its container's other probes, not by a pattern of its own
    assert {c.name for c in CLIENTS.values() if c.version_command} == set(CLIENTS) - {"sysbench"}
    assert {c.name for c in CLIENTS.values() if c.process} == {c.name for c in CLIENTS.values() if c.program}
    assert {c.name for c in CLIENTS.values() if c.mysql_login} == {c.name for c in CLIENTS.values() if c.protocol == "mysql"}


def test_a_guests_qemu_and_kernel_package_are_versions_of_the_run():
    where = {"where": "guest", "package": "linux-image-6.12.117+deb12-amd64", "package_version": "6.12.117-1~deb12u1",
             "qemu": "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)"}
    assert place_versions(where) == {"qemu": where["qemu"],
                                     "kernel package": "linux-image-6.12.117+deb12-amd64 6.12.117-1~deb12u1"}
    assert place_versions({"where": "host", "kernel": "6.18.0"}) == {}


def test_the_lists_make_help_gives_are_the_registries():
    text = "\n".join(reference.make_help())
    [engines] = re.findall(r"DB_ENGINE=([a-z0-9|-]+)", text)     # a name may hold a hyphen (aws-nlb)
    assert engines.split("|") == sorted(DATABASES)
    assert "six cures" not in text and "TCP_USER_TIMEOUT=" not in text.replace("TCP_USER_TIMEOUT_MS=", "")
