"""What a knob's text may be: each kind turns the text a user gave (make's command line, the
environment) into a value, or raises SettingsError naming the knob and saying why. Standard
library only: the edge check runs before the lab's virtualenv exists."""
import math
import re
from pathlib import Path
from typing import Any, Callable, Protocol, cast

from ..errors import InvalidInput

NAME_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,30}$")          # a scenario id, a cell name
SERIES_RE = re.compile(r"^\d+\.\d+$")
PACKAGE_RE = re.compile(r"^(linux-image-)?\d+\.\d+\.\d+[\w.+~-]*$")
DURATION_RE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*")


class SettingsError(InvalidInput):
    """A knob the user gave is unknown, malformed or out of range; the message says which and why."""


def _shown(text: object, limit: int = 40) -> str:
    text = repr(text)
    return text if len(text) <= limit else text[:limit] + "...'"


class Parse(Protocol):
    """A knob's reader: (text, name) -> its value, or SettingsError; describe: what it takes, in
    words (messages and docs/reference.md)."""
    describe: str

    def __call__(self, text: str, name: str) -> Any: ...


def described(parse: Callable[[str, str], Any], text: str) -> Parse:
    """parse, with what it takes in words (parse.describe)."""
    setattr(parse, "describe", text)
    return cast(Parse, parse)


def describing(text: str) -> Callable[[Callable[[str, str], Any]], Parse]:
    """described, as a decorator."""
    return lambda parse: described(parse, text)


def whole(minimum: int, maximum: int) -> Parse:
    def parse(text: str, name: str) -> int:
        if not re.fullmatch(r"\s*-?\d+\s*", text):
            raise SettingsError(f"{name}={_shown(text)}: must be a whole number ({minimum}-{maximum})")
        value = int(text)
        if not minimum <= value <= maximum:
            raise SettingsError(f"{name}={value}: must be between {minimum} and {maximum}")
        return value
    return described(parse, f"a whole number, {minimum}-{maximum}")


def number(minimum: float, maximum: float, unit: str = "") -> Parse:
    def parse(text: str, name: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise SettingsError(f"{name}={_shown(text)}: must be a number ({minimum:g}-{maximum:g}{unit})")
        if not minimum <= value <= maximum:
            raise SettingsError(f"{name}={text.strip()}: must be between {minimum:g} and {maximum:g}{unit}")
        return value
    return described(parse, f"a number, {minimum:g}-{maximum:g}{unit}")


def duration(maximum_s: float) -> Parse:
    """Seconds from '12', '1.5', '30s', '250ms', '2m'."""
    def parse(text: str, name: str) -> float:
        m = DURATION_RE.fullmatch(text)
        if not m:
            raise SettingsError(f"{name}={_shown(text)}: not a duration (seconds, or 30s, 250ms, 2m)")
        seconds = float(m.group(1)) * {"ms": 0.001, "s": 1.0, "m": 60.0, None: 1.0}[m.group(2)]
        if seconds > maximum_s:
            raise SettingsError(f"{name}={text.strip()}: at most {maximum_s:g} s")
        return seconds
    return described(parse, f"a duration up to {maximum_s:g} s (30, 30s, 250ms, 2m)")


def choice(*choices: str) -> Parse:
    def parse(text: str, name: str) -> str:
        if text not in choices:
            raise SettingsError(f"{name}={_shown(text)}: must be one of {', '.join(choices)}")
        return text
    return described(parse, "|".join(choices))


@describing("0|1")
def flag(text: str, name: str) -> bool:
    if text not in ("0", "1"):
        raise SettingsError(f"{name}={_shown(text)}: 0 or 1")
    return text == "1"


@describing("words")
def words(text: str, name: str) -> tuple[str, ...]:
    return tuple(text.split())


def whole_list(minimum: int, maximum: int) -> Parse:
    one = whole(minimum, maximum)

    def parse(text: str, name: str) -> tuple[int, ...]:
        values = [one(word, name) for word in text.split()]
        if not values:
            raise SettingsError(f"{name}: empty; give at least one number ({minimum}-{maximum})")
        return tuple(values)
    return described(parse, f"whole numbers, {minimum}-{maximum}, space-separated")


@describing("IDLE/INTERVAL/PROBES, e.g. 5/1/3")
def keepalive(text: str, name: str) -> str:
    parts = text.split("/")
    if len(parts) != 3 or not all(p.isdigit() and 0 < int(p) <= 32767 for p in parts):
        raise SettingsError(f"{name}={_shown(text)}: IDLE/INTERVAL/PROBES in whole seconds, e.g. 5/1/3")
    return text


@describing("a file")
def existing_file(text: str, name: str) -> str:
    if not Path(text).is_file():
        raise SettingsError(f"{name}={_shown(text)}: no such file")
    return text


@describing("a directory")
def existing_dir(text: str, name: str) -> str:
    if not Path(text).is_dir():
        raise SettingsError(f"{name}={_shown(text)}: no such directory")
    return text


@describing("text")
def anything(text: str, name: str) -> str:
    return text
