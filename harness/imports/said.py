"""Where each setting an importer read was said (file:line and the directive as written): a second
saying of one setting is named with the first and the tool's rule (the last said wins), and a value
the lab cannot run is refused at the operator's line, in their words, not the lab's setting name."""
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from ..control import CONTROL_PLANES
from ..errors import InvalidInput


class SaidRecord(Protocol):
    """What an importer keeps of the settings it read (keepalived_import's and haproxy_import's records)."""
    source: str
    settings: dict[str, Any]
    said_at: dict[str, str]         # setting -> 'file:line: directive as written'
    used: list[str]


def set_said(found: SaidRecord, key: str, value: Any, said: str, rule: str) -> None:
    """found: an importer's record (settings, said_at, used); said: 'file:line: directive as written';
    rule: the tool's, for which of two sayings wins."""
    previous = found.said_at.get(key)
    found.settings[key] = value
    found.said_at[key] = said
    if previous and previous != said:
        found.used.append(f"{said}: replaces {previous} ({rule})")


def within_lab(found: SaidRecord, plane: str) -> None:
    """InvalidInput at the line that said it, for a number outside the range the lab's `plane` runs."""
    spec = CONTROL_PLANES[plane].settings_spec
    for key, value in found.settings.items():
        setting = spec.get(key)
        if setting is None or isinstance(value, (bool, str)) or not isinstance(value, (int, float)):
            continue
        low, high = setting.minimum, setting.maximum
        if (low is not None and value < low) or (high is not None and value > high):
            unit = " s" if setting.kind == "duration" else ""
            span = f"{low:g}{unit} to {high:g}{unit}" if high is not None else f"at least {low:g}{unit}"
            raise InvalidInput(f"{found.said_at.get(key, found.source)}: the lab's {plane} runs {span} here, "
                               f"not {value:g}{unit}")


def no_bearing_line(source: str, keywords: Iterable[str], why: Mapping[str, str]) -> str:
    """'source: no bearing on a failover: a, b (why); c (why)': the keywords grouped by their reason."""
    by_why: dict[str, list[str]] = {}
    for keyword in sorted(set(keywords)):
        by_why.setdefault(why.get(keyword, ""), []).append(keyword)
    said = "; ".join(", ".join(words) + (f" ({reason})" if reason else "") for reason, words in by_why.items())
    return f"{source}: no bearing on a failover: {said}"
