"""An operator's own files, read as the formats' documentation writes them: a `sysctl -a` dump
(sysctl_dump.py) and a driver's connection string (driver_url.py). `from_dir` reads an incident's
folder; a file there the lab does not read yet is named, never passed over in silence."""
import dataclasses
from pathlib import Path

from ..errors import InvalidInput
from . import driver_url, sysctl_dump

READERS = {"sysctl.txt": sysctl_dump.parse, "driver.url": driver_url.parse}


@dataclasses.dataclass(frozen=True)
class Incident:
    folder: str
    sysctl: sysctl_dump.SysctlDump = None
    driver: driver_url.DriverImport = None
    unread: tuple = ()            # files in the folder the lab does not read (yet)

    def lines(self):
        out = (self.sysctl.lines() if self.sysctl else []) + (self.driver.lines() if self.driver else [])
        return out + [f"{self.folder}/{name}: not read: the lab reads {', '.join(READERS)} from an incident's folder"
                      for name in self.unread]

    def explain_words(self):
        words = [f"{key.upper()}={value}" for key, value in (self.sysctl.cell if self.sysctl else ())
                 if key == "tcp_retries2"]
        words += [f"{knob}={value}" for knob, value in (self.sysctl.director if self.sysctl else ())]
        return words + (self.driver.explain_words() if self.driver else [])


def from_dir(folder):
    path = Path(folder)
    if not path.is_dir():
        raise InvalidInput(f"FROM={folder}: no such directory")
    found = {name: READERS[name]((path / name).read_text(errors="replace"), f"{folder.rstrip('/')}/{name}")
             for name in READERS if (path / name).is_file()}
    if not found:
        raise InvalidInput(f"FROM={folder}: none of {', '.join(READERS)} in it")
    unread = tuple(sorted(p.name for p in path.iterdir() if p.is_file() and p.name not in READERS))
    return Incident(folder.rstrip("/"), found.get("sysctl.txt"), found.get("driver.url"), unread)
