"""An operator's own files, read as the formats' documentation writes them: a `sysctl -a` dump
(sysctl_dump.py), a driver's connection string (driver_url.py), keepalived.conf with its includes
(keepalived_tree.py, keepalived_import.py), haproxy.cfg (haproxy_import.py) and the incident's
timeline (timeline.py). `from_dir`
reads an incident's folder, each file by its name or, named otherwise, by its content (sniff.py);
a file there the lab does not read is named with what it looks like, never passed over."""
import dataclasses
from pathlib import Path
from collections.abc import Mapping
from typing import Any, Callable

from ..errors import InvalidInput
from ..load.clients import CLIENTS
from . import (driver_files, driver_url, haproxy_import, jvm_names, keepalived_import, keepalived_tree, sniff, spring_boot,
               sysctl_dump, timeline, timeline_log)
from .driver_import import DriverImport

DRIVER_FILES = ("driver.url", "hikari.properties", "mysql2.json", "my.cnf", "application.properties", "application.yml")
TEXT_READERS: dict[str, Callable[[str, str], Any]] = {"sysctl.txt": sysctl_dump.parse, "driver.url": driver_url.parse_all,
                "hikari.properties": driver_files.hikari_properties, "mysql2.json": driver_files.mysql2_json,
                "my.cnf": driver_files.my_cnf, "incident.yaml": timeline.parse, "incident.log": timeline_log.parse,
                "application.properties": spring_boot.spring_properties, "application.yml": spring_boot.spring_yaml,
                "java.security": jvm_names.java_security, "jvm.options": jvm_names.jvm_options}
READERS = (*TEXT_READERS, "keepalived.conf", "haproxy.cfg")    # keepalived.conf reads the files it includes itself
DIRECTOR_FILES = ("keepalived.conf", "haproxy.cfg")
JVM_FILES = ("java.security", "jvm.options")


@dataclasses.dataclass(frozen=True)
class Incident:
    folder: str
    sysctl: sysctl_dump.SysctlDump | None = None
    drivers: tuple[DriverImport, ...] = ()   # one per application, in the file's order
    keepalived: keepalived_import.KeepalivedImport | None = None
    incident_times: timeline.Timeline | None = None   # incident.yaml, a log excerpt, or both
    haproxy: haproxy_import.HaproxyImport | None = None
    unread: tuple[tuple[str, str], ...] = ()            # (file, what it looks like) of the files in the folder the lab does not read
    known_as: tuple[tuple[str, str, str], ...] = ()          # (file, reader name, what it is) of the files read by their content
    jvm: tuple[jvm_names.JvmNames, ...] = ()   # how long the application's JVM keeps a name

    @property
    def driver(self) -> DriverImport | None:
        """The first application's driver (the one the replay's cures are ranked for), or None."""
        return self.drivers[0] if self.drivers else None

    def lines(self) -> list[str]:
        out = (self.sysctl.lines() if self.sysctl else []) + [line for d in self.drivers for line in d.lines()]
        if self.keepalived:
            out += self.keepalived.lines()
        if self.haproxy:
            out += self.haproxy.lines()
        out += self.incident_times.lines() if self.incident_times else []
        out += [line for found in self.jvm for line in found.lines()]
        known = [f"{self.folder}/{name}: read as {what} ({reader}), by its content" for name, reader, what in self.known_as]
        return known + out + [f"{self.folder}/{name}: not read: {looks}" for name, looks in self.unread]

    def explain_words(self, driver: DriverImport | None = None) -> list[str]:
        """make explain's words for the incident, with `driver`'s settings (None: the first's)."""
        words = [f"{key.upper()}={value}" for key, value in (self.sysctl.cell if self.sysctl else ())
                 if key == "tcp_retries2"]
        words += [f"{knob}={value}" for knob, value in (self.sysctl.director if self.sysctl else ())]
        words += self.keepalived.explain_words() if self.keepalived else []
        words += self.haproxy.explain_words() if self.haproxy else []
        driver = driver or self.driver
        return words + (driver.explain_words() if driver else []) + self.name_words(driver)

    def name_words(self, driver: DriverImport | None = None) -> list[str]:
        """Where the timeline says the database's name moved (a managed database's failover): when,
        and how long the application's JVM keeps a looked-up name, from its own files."""
        moved = self.incident_times.get("name_moved") if self.incident_times else None
        if moved is None:
            return []
        words = [f"DNS_MOVED_AFTER_S={moved:g}"]
        ttl = jvm_names.ttl_of(self.jvm)
        if ttl is not None and driver is not None and CLIENTS[driver.client].runtime == "JVM":
            words.append(f"{jvm_names.TTL}={ttl}")
        return words


def from_dir(folder: str) -> Incident:
    path = Path(folder)
    if not path.is_dir():
        raise InvalidInput(f"FROM={folder}: no such directory")
    files, known_as, unread = _by_kind(path, folder.rstrip("/"))
    if not files:
        raise InvalidInput(f"FROM={folder}: none of its files is a sysctl dump, a keepalived.conf or haproxy.cfg, a "
                           "driver's settings or a timeline" + "".join(f"; {name}: {looks}" for name, looks in unread))
    directors = [files[name].name for name in DIRECTOR_FILES if name in files]
    if len(directors) > 1:
        raise InvalidInput(f"FROM={folder}: {' and '.join(directors)}: one director in front of the database at a time")
    drivers = [name for name in DRIVER_FILES if name in files]
    if len(drivers) > 1:
        raise InvalidInput(f"FROM={folder}: {' and '.join(files[name].name for name in drivers)}: one application's "
                           "driver at a time")
    found = {reader: _read(file, f"{folder.rstrip('/')}/{file.name}", reader, "incident.yaml" in files)
             for reader, file in files.items()}
    if found.get("haproxy.cfg") is not None and found.get("sysctl.txt") is not None:
        found["sysctl.txt"] = found["sysctl.txt"].without_an_ipvs_director("haproxy.cfg")
    read_drivers = () if not drivers else found[drivers[0]]
    read_drivers = read_drivers if isinstance(read_drivers, tuple) else (read_drivers,)
    return Incident(folder.rstrip("/"), found.get("sysctl.txt"), read_drivers,
                    found.get("keepalived.conf"), _timeline(found), found.get("haproxy.cfg"), unread,
                    known_as, tuple(found[name] for name in JVM_FILES if name in found))


def _by_kind(path: Path, shown: str) -> tuple[dict[str, Path], tuple[tuple[str, str, str], ...], tuple[tuple[str, str], ...]]:
    """({reader name: file}, ((file, reader, what), ...) read by content, ((file, what it looks like), ...)
    not read). A file named as a reader is that reader's; any other file is told by its content. A file
    a keepalived.conf includes is part of it, not a second configuration."""
    candidates: dict[str, list[Path]] = {}
    whats: dict[Path, str | None] = {}
    unread: list[tuple[str, str]] = []
    for file in sorted(p for p in path.iterdir() if p.is_file() and p.suffix != ".md"):
        reader, what = (file.name, None) if file.name in READERS else sniff.kind(file.read_text(errors="replace"))
        if reader == "incident.yaml":              # the name says timeline; log lines in it are read as a log
            sniffed, said = sniff.kind(file.read_text(errors="replace"))
            reader, what = (sniffed, said) if sniffed == "incident.log" else (reader, what)
        if reader is None:
            unread.append((file.name, what or "not a file the lab reads"))
            continue
        candidates.setdefault(reader, []).append(file)
        whats[file] = what
    included = {f for file in candidates.get("keepalived.conf", []) for f in keepalived_tree.included_files(file)}
    files: dict[str, Path] = {}
    known_as: list[tuple[str, str, str]] = []
    for reader, found in candidates.items():
        found = [file for file in found if file.resolve() not in included]
        if len(found) > 1:
            raise InvalidInput(f"FROM={shown}: {' and '.join(f.name for f in found)} are each {sniff.WHAT[reader]}: "
                               "one at a time (move the others out of the folder)")
        if found:
            files[reader] = found[0]
            what = whats[found[0]]
            if what:
                known_as.append((found[0].name, reader, what))
    return files, tuple(known_as), tuple(unread)


def _timeline(found: Mapping[str, Any]) -> timeline.Timeline | None:
    """The incident's timeline: incident.yaml's, a log excerpt's, or both's (the YAML's moments first)."""
    written, logged = found.get("incident.yaml"), found.get("incident.log")
    return timeline.merged(written, logged) if written and logged else written or logged


def _read(path: Path, source: str, reader: str, has_yaml_timeline: bool = False) -> Any:
    if reader == "incident.log":
        return timeline_log.parse(path.read_text(errors="replace"), source, need_death=not has_yaml_timeline)
    if reader == "keepalived.conf":
        return keepalived_import.read(path)
    if reader == "haproxy.cfg":
        return haproxy_import.read(path)
    return TEXT_READERS[reader](path.read_text(errors="replace"), source)
