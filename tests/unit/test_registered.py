"""A family's registry (harness/registered.py) takes each name once: a second member under a name
already taken is refused where it is defined, naming both."""
from typing import ClassVar

import pytest

from harness.registered import Registered


class Family(Registered):
    registry: ClassVar[dict] = {}


class First(Family):
    name = "first"


def test_a_member_enters_its_familys_registry_under_its_name():
    assert Family.registry == {"first": First}


def test_a_second_member_under_a_taken_name_is_refused_naming_both():
    with pytest.raises(TypeError, match=r"Impostor: the name 'first' is .*First's already"):
        class Impostor(Family):
            name = "first"
    assert Family.registry == {"first": First}
