"""Reading lists of Docker objects while other labs change them."""
import time
from collections.abc import Callable
from typing import TypeVar

from python_on_whales.exceptions import DockerException

from ..errors import LabError

Listed = TypeVar("Listed")
TIMED_OUT = 124            # timeout(1)'s exit code: an engine that did not answer is not asked again


class ContainerVanished(LabError):
    """An inspect of listed containers that found one gone (removed since the listing)."""


def listed_again_if_one_vanished(list_them: Callable[[], Listed], attempts: int = 3) -> Listed:
    """What list_them() reads from Docker's containers or networks. Listing them is `ls` then
    `inspect`, and python-on-whales inspects again when an attribute is read a moment later: one
    removed in between (by this lab, or by another lab on the same engine) fails the inspect, and
    the next look no longer lists it. So list_them reads all it needs itself."""
    attempt = 0
    while True:
        try:
            return list_them()
        except (DockerException, ContainerVanished) as exc:
            attempt += 1
            if attempt >= attempts or getattr(exc, "return_code", None) == TIMED_OUT:
                raise
            time.sleep(0.2)
