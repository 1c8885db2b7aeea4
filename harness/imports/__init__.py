"""An operator's own files, read as the formats' documentation writes them: a `sysctl -a` dump
(sysctl_dump.py), a driver's connection string (driver_url.py), keepalived.conf with its includes
(keepalived_tree.py, keepalived_import.py), haproxy.cfg (haproxy_import.py) and the incident's
timeline (timeline.py). `from_dir`
reads an incident's folder; a file there the lab does not read is named, never passed over."""
import dataclasses
from pathlib import Path

from ..errors import InvalidInput
from . import driver_files, driver_url, haproxy_import, keepalived_import, sysctl_dump, timeline

DRIVER_FILES = ("driver.url", "hikari.properties", "mysql2.json", "my.cnf")
TEXT_READERS = {"sysctl.txt": sysctl_dump.parse, "driver.url": driver_url.parse,
                "hikari.properties": driver_files.hikari_properties, "mysql2.json": driver_files.mysql2_json,
                "my.cnf": driver_files.my_cnf, "incident.yaml": timeline.parse}
READERS = (*TEXT_READERS, "keepalived.conf", "haproxy.cfg")    # keepalived.conf reads the files it includes itself
DIRECTOR_FILES = ("keepalived.conf", "haproxy.cfg")


@dataclasses.dataclass(frozen=True)
class Incident:
    folder: str
    sysctl: sysctl_dump.SysctlDump = None
    driver: driver_url.DriverImport = None
    keepalived: keepalived_import.KeepalivedImport = None
    incident_times: timeline.Timeline = None   # incident.yaml
    haproxy: haproxy_import.HaproxyImport = None
    unread: tuple = ()            # files in the folder the lab does not read (yet)

    def lines(self):
        out = (self.sysctl.lines() if self.sysctl else []) + (self.driver.lines() if self.driver else [])
        if self.keepalived:
            out += self.keepalived.lines()
        if self.haproxy:
            out += self.haproxy.lines()
        out += self.incident_times.lines() if self.incident_times else []
        return out + [f"{self.folder}/{name}: not read: the lab reads {', '.join(READERS)} from an incident's folder"
                      for name in self.unread]

    def explain_words(self):
        words = [f"{key.upper()}={value}" for key, value in (self.sysctl.cell if self.sysctl else ())
                 if key == "tcp_retries2"]
        words += [f"{knob}={value}" for knob, value in (self.sysctl.director if self.sysctl else ())]
        words += self.keepalived.explain_words() if self.keepalived else []
        words += self.haproxy.explain_words() if self.haproxy else []
        return words + (self.driver.explain_words() if self.driver else [])


def from_dir(folder):
    path = Path(folder)
    if not path.is_dir():
        raise InvalidInput(f"FROM={folder}: no such directory")
    found = {name: _read(path / name, f"{folder.rstrip('/')}/{name}") for name in READERS if (path / name).is_file()}
    if not found:
        raise InvalidInput(f"FROM={folder}: none of {', '.join(READERS)} in it")
    unread = tuple(sorted(p.name for p in path.iterdir() if p.is_file() and p.name not in READERS
                          and p.suffix != ".md"))
    directors = [name for name in DIRECTOR_FILES if name in found]
    if len(directors) > 1:
        raise InvalidInput(f"FROM={folder}: {' and '.join(directors)}: one director in front of the database at a time")
    drivers = [name for name in DRIVER_FILES if name in found]
    if len(drivers) > 1:
        raise InvalidInput(f"FROM={folder}: {' and '.join(drivers)}: one application's driver at a time")
    return Incident(folder.rstrip("/"), found.get("sysctl.txt"), found[drivers[0]] if drivers else None,
                    found.get("keepalived.conf"), found.get("incident.yaml"), found.get("haproxy.cfg"), unread)


def _read(path, source):
    if path.name == "keepalived.conf":
        return keepalived_import.read(path)
    if path.name == "haproxy.cfg":
        return haproxy_import.read(path)
    return TEXT_READERS[path.name](path.read_text(errors="replace"), source)
