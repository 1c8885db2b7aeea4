import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "images" / "director"))   # lbctl, the director's control program


# Markers whose tests run only when asked for by name (`pytest -m slow`, `make test-kernel`).
ON_REQUEST = {"slow": "slow: run with `pytest -m slow` (make test-slow)",
              "kernel": "guest-kernel suite: run with `make test-kernel KERNEL=6.1`"}


def pytest_collection_modifyitems(config, items):
    import pytest
    selected = config.getoption("-m") or ""
    for marker, reason in ON_REQUEST.items():
        if marker in selected:
            continue
        for item in items:
            if marker in item.keywords:
                item.add_marker(pytest.mark.skip(reason=reason))
