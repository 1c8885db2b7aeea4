"""An operator's own files, read as the formats' documentation writes them: a `sysctl -a` dump
(sysctl_dump.py), a driver's connection string (driver_url.py), keepalived.conf with its includes
(keepalived_tree.py, keepalived_import.py) and the incident's timeline (timeline.py). `from_dir`
reads an incident's folder; a file there the lab does not read is named, never passed over."""
import dataclasses
from pathlib import Path

from ..errors import InvalidInput
from . import driver_url, keepalived_import, sysctl_dump, timeline

READERS = {"sysctl.txt": lambda path, source: sysctl_dump.parse(path.read_text(errors="replace"), source),
           "driver.url": lambda path, source: driver_url.parse(path.read_text(errors="replace"), source),
           "keepalived.conf": lambda path, source: keepalived_import.read(path),
           "incident.yaml": lambda path, source: timeline.parse(path.read_text(errors="replace"), source)}


@dataclasses.dataclass(frozen=True)
class Incident:
    folder: str
    sysctl: sysctl_dump.SysctlDump = None
    driver: driver_url.DriverImport = None
    keepalived: keepalived_import.KeepalivedImport = None
    incident_times: timeline.Timeline = None   # incident.yaml
    unread: tuple = ()            # files in the folder the lab does not read (yet)

    def lines(self):
        out = (self.sysctl.lines() if self.sysctl else []) + (self.driver.lines() if self.driver else [])
        if self.keepalived:
            out += self.keepalived.lines()
        out += self.incident_times.lines() if self.incident_times else []
        return out + [f"{self.folder}/{name}: not read: the lab reads {', '.join(READERS)} from an incident's folder"
                      for name in self.unread]

    def explain_words(self):
        words = [f"{key.upper()}={value}" for key, value in (self.sysctl.cell if self.sysctl else ())
                 if key == "tcp_retries2"]
        words += [f"{knob}={value}" for knob, value in (self.sysctl.director if self.sysctl else ())]
        words += self.keepalived.explain_words() if self.keepalived else []
        return words + (self.driver.explain_words() if self.driver else [])


def from_dir(folder):
    path = Path(folder)
    if not path.is_dir():
        raise InvalidInput(f"FROM={folder}: no such directory")
    found = {name: read(path / name, f"{folder.rstrip('/')}/{name}") for name, read in READERS.items()
             if (path / name).is_file()}
    if not found:
        raise InvalidInput(f"FROM={folder}: none of {', '.join(READERS)} in it")
    unread = tuple(sorted(p.name for p in path.iterdir() if p.is_file() and p.name not in READERS
                          and p.suffix != ".md"))
    return Incident(folder.rstrip("/"), found.get("sysctl.txt"), found.get("driver.url"), found.get("keepalived.conf"),
                    found.get("incident.yaml"), unread)
