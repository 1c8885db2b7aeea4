"""The one registry type (harness/registered.py): each axis takes each name once, a second member
under a taken name is refused where it is added, naming both; every axis of the lab is one."""
from typing import ClassVar

import pytest

from harness.control import CONTROL_PLANES
from harness.databases import DATABASES
from harness.faults import FAULTS
from harness.lab.places import PLACES
from harness.load.clients import CLIENTS
from harness.pools import POOLS
from harness.registered import Registered, Registry
from harness.signals.registry import SIGNALS


class Family(Registered):
    registry: ClassVar[Registry] = Registry("test member")


class First(Family):
    name = "first"


def test_a_member_enters_its_familys_registry_under_its_name():
    assert dict(Family.registry) == {"first": First}


def test_a_second_member_under_a_taken_name_is_refused_naming_both():
    with pytest.raises(TypeError, match=r"Impostor: the test member name 'first' is .*First's already"):
        class Impostor(Family):
            name = "first"
    assert dict(Family.registry) == {"first": First}


class Named:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"Named({self.name!r})"


def test_a_listed_registry_keeps_its_order_and_refuses_a_taken_name():
    a, b = Named("a"), Named("b")
    registry = Registry("place", (b, a))
    assert list(registry) == ["b", "a"] and registry.members() == (b, a) and registry["a"] is a
    with pytest.raises(TypeError, match=r"Named\('a'\): the place name 'a' is Named\('a'\)'s already"):
        registry.add(Named("a"))
    with pytest.raises(KeyError, match="no place 'c': one of b, a"):
        registry["c"]
    with pytest.raises(TypeError, match="a place needs a name"):
        registry.add(Named(""))


@pytest.mark.parametrize("registry", [FAULTS, CONTROL_PLANES, DATABASES, PLACES, SIGNALS, POOLS, CLIENTS],
                         ids=lambda r: r.axis)
def test_every_axis_of_the_lab_is_one_registry_type(registry):
    assert isinstance(registry, Registry) and len(registry) >= 1
    assert all(registry[name] is member for name, member in zip(registry, registry.members()))
