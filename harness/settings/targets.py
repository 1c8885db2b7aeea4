"""Knobs that name a thing of the lab's: a scenario, a kernel, a list of kernels, an exercise.
Checked against what a clone has (scenarios/, exercises/) and what the lab can boot, without
asking a registry: an exact kernel package is looked up when the run resolves it, before it
makes a run directory."""
import difflib
import json
import re
from pathlib import Path

from .kinds import NAME_RE, PACKAGE_RE, SERIES_RE, SettingsError, _shown, describing
from . import machine

REPO = Path(__file__).resolve().parents[2]
SCENARIO_DIR = REPO / "scenarios"
EXERCISE_DIR = REPO / "exercises"
HOST = "host"
# The Debian series lab guests boot (bookworm's 6.1 and 6.12, bullseye's 5.10, trixie-backports'
# 7.3); a series the lab resolved before (its cache's resolved.json) is known too.
KNOWN_SERIES = ("5.10", "6.1", "6.12", "7.3")


@describing("a scenario id (make scenarios) or ./file.yaml")
def scenario(text: str, name: str) -> str:
    """A scenario id (scenarios/<id>.yaml) or a YAML file's path."""
    if text.endswith((".yaml", ".yml")):
        if not Path(text).is_file():
            raise SettingsError(f"{name}={_shown(text)}: no such file")
        return text
    known = sorted(p.stem for p in SCENARIO_DIR.glob("*.yaml"))
    if not NAME_RE.match(text) or text not in known:
        near = difflib.get_close_matches(text, known, n=3, cutoff=0.6)
        hint = f"did you mean {' or '.join(near)}? " if near else ""
        raise SettingsError(f"{name}={_shown(text)}: no such scenario; {hint}(make scenarios lists them; a file "
                            "of your own: scenario=./path.yaml)")
    return text


def known_series() -> list[str]:
    cache = machine.cache_root()
    series = set(KNOWN_SERIES)
    try:
        resolved = json.loads((cache / "kernels" / "resolved.json").read_text())
        series |= {spec for spec in resolved if SERIES_RE.match(spec)}
    except (OSError, ValueError, TypeError):
        pass
    return sorted(series, key=lambda s: tuple(map(int, s.split("."))))


@describing(f"host, a series ({', '.join(KNOWN_SERIES)}) or a Debian package")
def kernel(text: str, name: str) -> str:
    """host, a Debian series (6.12), or an exact package (6.12.117+deb12, linux-image-6.1.0-56-amd64)."""
    spec = text.strip()
    if spec == HOST:
        return spec
    if SERIES_RE.match(spec):
        if spec not in known_series():
            raise SettingsError(f"{name}={_shown(text)}: not a kernel series the lab boots ({', '.join(known_series())}"
                                "); or give an exact Debian package, e.g. 6.12.117+deb12")
        return spec
    if not PACKAGE_RE.match(spec) or ".." in spec or "/" in spec:
        raise SettingsError(f"{name}={_shown(text)}: use host, a series ({', '.join(known_series())}) or an exact "
                            "Debian package such as 6.1.0-56 or 6.12.117+deb12")
    return spec


@describing("kernels, space-separated: \"host 6.1 6.12\"")
def kernels(text: str, name: str) -> tuple[str, ...]:
    specs = [kernel(word, name) for word in text.split()]
    if not specs:
        raise SettingsError(f"{name}: empty; name at least one kernel, e.g. {name}=\"host 6.12\"")
    twice = sorted({s for s in specs if specs.count(s) > 1})
    if twice:
        raise SettingsError(f"{name}={_shown(text)}: {', '.join(twice)} named twice; each kernel runs once")
    return tuple(specs)


@describing("an exercise number (make workshop)")
def exercise(text: str, name: str) -> int:
    numbers = sorted(int(m.group(1)) for p in EXERCISE_DIR.glob("*.yaml") if (m := re.match(r"^(\d+)-", p.name)))
    if not text.strip().isdigit() or int(text) not in numbers:
        raise SettingsError(f"{name}={_shown(text)}: one of the exercises {numbers[0]}-{numbers[-1]} (make workshop)")
    return int(text)
