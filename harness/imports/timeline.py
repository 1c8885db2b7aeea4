"""incident.yaml: the operator's timeline, set beside the model's figures (and a replay's).

  died: "03:12:00"            # when the backend died (or the change began)
  lb_changed: "03:13:05"      # when the load balancer took it out (optional)
  first_error: "03:28:10"     # the application's first error (optional)
  recovered: "03:28:40"       # when it worked again
Times are HH:MM[:SS[.fff]] of one day (a later time before `died` is the next day) or seconds
after the death (`recovered: 940`). Any other key is refused with its name."""
import dataclasses
import re

import yaml

from ..errors import InvalidInput

KEYS = ("died", "lb_changed", "first_error", "recovered")
CLOCK = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?$")


@dataclasses.dataclass(frozen=True)
class Timeline:
    source: str
    after_death_s: tuple = ()            # ((key, seconds after `died`), ...)

    def get(self, key):
        return dict(self.after_death_s).get(key)

    def lines(self):
        words = {"lb_changed": "the load balancer changed", "first_error": "the application's first error",
                 "recovered": "the application worked again"}
        return [f"{self.source}: {words[key]} {seconds:.0f} s after the death" for key, seconds in self.after_death_s]


def parse(text, source="incident.yaml"):
    try:
        raw = yaml.load(text, Loader=yaml.BaseLoader)    # every value a string: YAML 1.1 reads 03:12:00 as 11520
    except yaml.YAMLError as exc:
        raise InvalidInput(f"{source}: not valid YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(raw, dict) or "died" not in raw:
        raise InvalidInput(f"{source}: a mapping with at least `died:` (and {', '.join(KEYS[1:])})")
    unknown = sorted(set(map(str, raw)) - set(KEYS))
    if unknown:
        raise InvalidInput(f"{source}: {unknown[0]}: not a timeline key ({', '.join(KEYS)})")
    died = _clock(raw["died"], source, "died")
    found = []
    for key in KEYS[1:]:
        if key in raw:
            value = raw[key]
            if isinstance(value, str) and re.fullmatch(r"\d+(\.\d+)?", value.strip()):
                seconds = float(value)
            else:
                seconds = (_clock(value, source, key) - died) % 86_400
            if not 0 <= seconds <= 86_400:
                raise InvalidInput(f"{source}: {key}: {value!r} is not within a day after the death")
            found.append((key, seconds))
    return Timeline(source, tuple(found))


def _clock(value, source, key):
    m = CLOCK.match(str(value).strip())
    if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59 or float(m.group(3) or 0) >= 60:
        raise InvalidInput(f"{source}: {key}: {value!r} is not a time of day (HH:MM[:SS])")
    return int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3) or 0)
