"""Every place's Lab takes the protocol's arguments (harness/lab/base.py) in the protocol's order
with its defaults: a caller written against the protocol works on every place. What a place adds
comes after them and has a default (its own time limits, say)."""
import inspect
import re
from pathlib import Path

import pytest

from harness.abilities import KeepsEvidenceOfItsPlace, RunsServersAsPods
from harness.lab.base import Lab
from harness.lab.cluster.lab import ClusterLab
from harness.lab.compose import ComposeLab
from harness.lab.guest.lab import GuestLab
from harness.lab.places import PLACES

IMPLEMENTATIONS = (ComposeLab, ClusterLab)
PROTOCOL = sorted(Lab.__abstractmethods__)


def parameters(function):
    return list(inspect.signature(function).parameters.values())


def test_every_place_opens_an_engine_that_gives_a_lab():
    assert set(PLACES) == {"host", "guest", "kubernetes"}
    assert all(callable(place.open) and place.summary and place.chosen_by for place in PLACES.values())


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("member", PROTOCOL)
def test_an_implementation_takes_the_protocols_arguments(implementation, member):
    declared = inspect.getattr_static(Lab, member)
    given = inspect.getattr_static(implementation, member)
    assert getattr(given, "__isabstractmethod__", False) is False, f"{implementation.__name__}.{member} missing"
    if isinstance(declared, property):
        assert isinstance(given, property), f"{implementation.__name__}.{member}: a property in the protocol"
        return
    wanted, has = parameters(declared), parameters(given)
    assert [(p.name, p.kind, p.default) for p in has[:len(wanted)]] == \
        [(p.name, p.kind, p.default) for p in wanted], f"{implementation.__name__}.{member}{inspect.signature(given)}"
    extra = has[len(wanted):]
    assert all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in extra)


def test_an_ability_is_had_by_the_places_that_have_it_only():
    assert issubclass(ClusterLab, RunsServersAsPods)
    assert not issubclass(ComposeLab, RunsServersAsPods)
    assert not hasattr(Lab, "pods")
    members = ("keeps", "keep_evidence")        # KeepsEvidenceOfItsPlace's (a data member: isinstance only)
    assert set(members) == {m for m in dir(KeepsEvidenceOfItsPlace) if not m.startswith("_")} | {"keeps"}
    assert all(hasattr(cls, m) for cls in (GuestLab, ClusterLab) for m in members)
    assert not any(hasattr(cls, m) for cls in (ComposeLab, Lab) for m in members)


def test_no_module_outside_the_lab_package_reaches_a_labs_engine():
    harness = Path(__file__).resolve().parents[2] / "harness"
    reaching = [f"{path.relative_to(harness)}:{number}" for path in harness.rglob("*.py")
                if "lab" not in path.relative_to(harness).parts[:1]
                for number, line in enumerate(path.read_text().splitlines(), 1) if re.search(r"\blab\.engine\b", line)]
    assert reaching == []


def test_make_takes_the_labs_places_py_names():
    """make's LAB= is read before the venv exists (harness/settings/, standard library only), so its
    choices are written there again: held to places.py's."""
    from harness.lab.places import LABS
    from harness.settings.registry import KNOBS
    assert KNOBS["LAB"].describe == "|".join(LABS)
