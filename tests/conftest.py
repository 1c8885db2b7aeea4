import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "images" / "director"))   # lbctl, the director's control program

from harness import interrupts  # noqa: E402  (the repository on the path first)
from tests.longest_first import pytest_xdist_make_scheduler  # noqa: E402,F401  (xdist's hook: groups longest first)


def pytest_configure(config):
    """Every test process (pytest's, each xdist worker's) ends on SIGINT, SIGTERM and SIGHUP as the
    harness's own entry point does: the signal is raised where the test is, so a run under way takes
    its lab down on the way out. Without this a SIGTERM (a CI's timeout, `kill`) killed the workers
    mid-run and left their labs behind, and SIGINT was ignored by a run started in the background."""
    interrupts.install()


# Markers whose tests run only when asked for by name (`pytest -m slow`, `make test-kernel`).
ON_REQUEST = {"slow": "slow: run with `pytest -m slow` (make test-slow)",
              "kernel": "guest-kernel suite: run with `make test-kernel KERNEL=6.1`",
              "cluster": "a Kubernetes cluster in a guest: run with `make test-cluster`"}


@pytest.hookimpl(tryfirst=True)       # before pytest-xdist reads the groups (its hook has no order)
def pytest_collection_modifyitems(config, items):
    selected = config.getoption("-m") or ""
    for marker, reason in ON_REQUEST.items():
        if marker in selected:
            continue
        for item in items:
            if marker in item.keywords:
                item.add_marker(pytest.mark.skip(reason=reason))
    for item in items:
        if not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(shared_fixture_group(item)))


def shared_fixture_group(item):
    """The xdist group of a test that names none itself (`pytest -n`, --dist loadgroup): its
    module, or its whole package when it uses a package- or session-wide fixture defined under
    tests/ (a lab, a guest, the matrix run), which would otherwise be made once per worker."""
    path = Path(item.path).relative_to(REPO)
    for defs in item._fixtureinfo.name2fixturedefs.values():
        fixture = defs[-1]
        if fixture.scope in ("package", "session") and Path(fixture.baseid or ".").parts[:1] == ("tests",):
            return str(path.parent)
    return str(path)


@pytest.fixture
def ca_file(tmp_path):
    """A self-signed certificate, for a client's TLS context to load."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=test", "-days", "1",
                    "-keyout", str(tmp_path / "ca.key"), "-out", str(tmp_path / "ca.crt")],
                   check=True, capture_output=True)
    return tmp_path / "ca.crt"
