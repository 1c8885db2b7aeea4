"""How long the application's JVM keeps a looked-up name, from the operator's own files (docs/facts/dns.md,
"Runtimes that cache a name"), each as the JDK documents it:
  java.security  the JDK's security properties file (or one -Djava.security.properties names):
                 networkaddress.cache.ttl, networkaddress.cache.negative.ttl
  jvm.options    the JVM's command-line flags, one or more per line (JAVA_OPTS, a jvm.options or
                 jvm.config file): -Dsun.net.inetaddr.ttl=N, which the JVM reads when the security
                 property is unset
networkaddress.cache.ttl is a security property, never a system property: -Dnetworkaddress.cache.ttl=N
is a flag the JVM's cache never reads, said as such. Every other line is named, never dropped. The
cache matters only where the application connects to a name that moves: make explain FROM=... takes it
when the incident's timeline says when the name moved (imports.Incident.name_words); the replay
connects to a VIP and refuses such a timeline."""
import dataclasses
import re
import shlex
from collections.abc import Iterable

from ..errors import InvalidInput
from .driver_import import PROPERTY

TTL = "networkaddress.cache.ttl"
NEGATIVE_TTL = "networkaddress.cache.negative.ttl"
FALLBACK_TTL = "sun.net.inetaddr.ttl"           # the system property the JVM reads when TTL is unset
WHERE_IT_COUNTS = (f"it counts where the application connects to a name that moves: make explain FROM=... takes it "
                   f"for a JVM's driver when the timeline says when the name moved (name_moved, or an RDS failover "
                   f"event in a log excerpt), as make explain DNS_MOVED_AFTER_S=... CLIENT=jdbc {TTL}=N does; the "
                   f"incident's replay connects to a VIP and does not use it")


@dataclasses.dataclass(frozen=True)
class JvmNames:
    source: str
    ttl_s: int | None = None      # what the JVM keeps a looked-up name for (-1: for ever); None: not set here
    said: tuple[str, ...] = ()    # the lines of what was read, each a sentence

    def lines(self) -> list[str]:
        return [f"{self.source}: {line}" for line in self.said]


def _ttl(name: str, value: str, where: str) -> int:
    """Whole seconds, -1 for ever, as the JDK takes them (any size: the lab's own knob's range is not the JDK's)."""
    try:
        seconds = int(value.strip())
    except ValueError:
        raise InvalidInput(f"{where}: {name}={value!r}: whole seconds (-1: for ever, 0: not at all)") from None
    if seconds < -1:
        raise InvalidInput(f"{where}: {name}={value}: -1 (for ever), 0 (not at all) or seconds")
    return seconds


def _kept(seconds: int) -> str:
    return "for ever" if seconds < 0 else "not at all" if seconds == 0 else f"{seconds} s"


def java_security(text: str, source: str = "java.security") -> JvmNames:
    ttl: int | None = None
    said: list[str] = []
    others: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "!")):
            continue
        m = PROPERTY.match(line)
        if not m:
            raise InvalidInput(f"{source}:{number}: {line[:60]!r}: not key=value")
        key, value = m.group(1), m.group(2).strip()
        if key == TTL:
            ttl = _ttl(key, value, f"{source}:{number}")
            said.append(f"read: {TTL}={value}: the JVM keeps a looked-up address {_kept(ttl)}; {WHERE_IT_COUNTS}")
        elif key == NEGATIVE_TTL:
            said.append(f"not modelled: {NEGATIVE_TTL}={value}: how long a failed lookup is kept (the lab's name "
                        "server always answers)")
        else:
            others.append(key)
    if others:
        said.append(f"not modelled: {len(others)} other security properties, none about names ({', '.join(others[:4])}"
                    f"{', ...' if len(others) > 4 else ''})")
    if ttl is None:
        said.append(f"{TTL} is not set here: the JVM's default (30 s in OpenJDK without a security manager)")
    return JvmNames(source, ttl, tuple(said))


def jvm_options(text: str, source: str = "jvm.options") -> JvmNames:
    fallback: int | None = None
    said: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            flags = _flags(line)
        except ValueError as exc:
            raise InvalidInput(f"{source}:{number}: {line[:60]!r}: {exc}") from None
        for flag in flags:
            name, _, value = flag[2:].partition("=") if flag.startswith("-D") else ("", "", "")
            if name == FALLBACK_TTL:
                fallback = _ttl(name, value, f"{source}:{number}")
                said.append(f"read: {flag}: the JVM keeps a looked-up address {_kept(fallback)} unless the security "
                            f"property {TTL} is set; {WHERE_IT_COUNTS}")
            elif name == TTL:
                said.append(f"{flag}: the JVM's cache never reads it: {TTL} is a security property (java.security, "
                            f"or a file -Djava.security.properties= names), not a system property; -D{FALLBACK_TTL}= "
                            "is the flag the JVM reads")
            elif name == "java.security.properties":
                said.append(f"{flag}: security properties from that file, over java.security: give the lab that "
                            f"file to read its {TTL}")
            else:
                said.append(f"not modelled: {flag}")
    if not said:
        raise InvalidInput(f"{source}: no JVM flags (-D..., -X...)")
    return JvmNames(source, fallback, tuple(said))


def ttl_of(found: Iterable[JvmNames]) -> int | None:
    """The TTL the JVM keeps of what its files say (JvmNames, java.security's first): the security
    property wins over -Dsun.net.inetaddr.ttl, which the JVM reads only when the property is unset;
    None: neither sets one (the JVM's default)."""
    return next((names.ttl_s for names in found if names.ttl_s is not None), None)


def _flags(line: str) -> list[str]:
    """A line's flags; JAVA_OPTS="-Xmx1g -D..." as a shell sets it gives the flags in its value."""
    assigned = re.match(r"^(export\s+)?[A-Z_]+=(.*)$", line)
    return shlex.split(" ".join(shlex.split(assigned.group(2)))) if assigned else shlex.split(line)


def looks_like_flags(lines: Iterable[str]) -> bool:
    """Every line JVM flags (-Dname=value, -Xmx1g, -XX:+Flag, ...), maybe as JAVA_OPTS="..." sets them."""
    try:
        tokens = [t for line in lines for t in _flags(line.strip())]
    except ValueError:
        return False
    return bool(tokens) and all(re.match(r"^-[A-Za-z]", token) for token in tokens)
