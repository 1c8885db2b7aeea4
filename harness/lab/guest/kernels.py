"""Debian kernels for the guest: fetched from the package registry with `apt-get download` and
unpacked into the cache (never installed on the host).

  KERNEL=6.1      the newest linux-image-6.1.0-*-amd64 bookworm offers
  KERNEL=6.12     the newest linux-image-6.12.*+deb12-amd64
  KERNEL=5.10, 7.3, ...   the newest linux-image-<series>.* of any suite (bullseye's 5.10,
                  trixie-backports' 7.3)
  KERNEL=6.1.0-56 / 6.12.117+deb12 / linux-image-…   that exact package
The host's own apt sources are asked first; kernels they lack come from other Debian suites
(ARCHIVE_SUITES), read with an apt configuration of the lab's own in the cache: the host's
sources are left alone. Only the generic -amd64 flavour: -cloud lacks drivers the guest needs.
"""
import dataclasses
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ...errors import InvalidInput, LabError
from .cache import cache_dir

# 6.1 and 6.12 are bookworm's builds (the committed baselines were measured on them).
SERIES = {"6.1": re.compile(r"^linux-image-(6\.1\.0-\d+)-amd64$"),
          "6.12": re.compile(r"^linux-image-(6\.12\.\d+\+deb12)-amd64$")}
SERIES_SPEC = re.compile(r"^\d+\.\d+$")
ANY_FLAVOUR = re.compile(r"^linux-image-(\d+\.\d+[\w.+~-]*?)-amd64$")
ARCHIVE_SUITES = (("http://deb.debian.org/debian", "bullseye"),
                  ("http://deb.debian.org/debian-security", "bullseye-security"),
                  ("http://deb.debian.org/debian", "trixie"),
                  ("http://deb.debian.org/debian", "trixie-backports"))
ARCHIVE_MAX_AGE_S = 24 * 3600      # the archive's package lists are read again after a day
HOST_LISTS = Path("/var/lib/apt/lists")
RESOLVED = "resolved.json"         # in the kernels' cache: what each KERNEL= meant, and by which lists


@dataclasses.dataclass(frozen=True)
class Kernel:
    """An unpacked kernel: what the guest boots and what a run records about it."""
    package: str             # linux-image-6.12.117+deb12-amd64
    version: str             # the package version, 6.12.117-1~deb12u1
    release: str             # uname -r: 6.12.117+deb12-amd64
    root: Path               # the unpacked package
    suite: str | None = None        # where it came from: bookworm-security/main, trixie-backports/main

    @property
    def vmlinuz(self) -> Path:
        return self.root / "boot" / f"vmlinuz-{self.release}"

    @property
    def modules(self) -> Path:
        return self.root / "lib" / "modules" / self.release

    @property
    def config(self) -> Path:
        return self.root / "boot" / f"config-{self.release}"

    def config_value(self, name: str) -> str | None:
        """A CONFIG_ value of this kernel's build ('250' for HZ), or None."""
        m = re.search(rf"^CONFIG_{name}=(.*)$", self.config.read_text(), re.M)
        return m.group(1).strip('"') if m else None

    @property
    def hz(self) -> int:
        value = self.config_value("HZ")
        if value is None:
            raise LabError(f"{self.package}: its kernel config ({self.config}) sets no CONFIG_HZ")
        return int(value)

    def describe(self) -> dict[str, Any]:
        return {"package": self.package, "package_version": self.version, "release": self.release, "hz": self.hz,
                **({"suite": self.suite} if self.suite else {})}


class Archive:
    """Where apt looks for kernels: the host's own sources (options empty), or the lab's list of
    other suites, its package lists kept in the cache."""

    def __init__(self, name: str, options: Sequence[str] = ()) -> None:
        self.name, self.options = name, tuple(options)

    def apt(self, tool: str, *args: str, timeout: float = 120) -> str:
        result = subprocess.run([tool, *self.options, *args], capture_output=True, text=True, timeout=timeout)
        if result.returncode:
            raise LabError(f"{tool} {' '.join(args)} ({self.name}) failed: {result.stderr.strip()[-300:]}")
        return result.stdout

    def packages(self) -> set[str]:
        """Names of every linux-image-*-amd64 package it offers (signed or not)."""
        found = self.apt("apt-cache", "search", "--names-only", r"^linux-image-[0-9].*-amd64$")
        return {line.split(" - ")[0].strip() for line in found.splitlines()}

    def suite_of(self, package: str) -> str | None:
        """The suite apt would fetch package from ('trixie-backports/main'), or None."""
        policy = self.apt("apt-cache", "policy", package)
        found = re.search(r"^\s+\d+ \S+ (\S+) amd64 Packages$", policy, re.M)
        return found.group(1) if found else None


HOST_SOURCES = Archive("the host's apt sources")


def lab_archive() -> Archive:
    """The lab's own apt configuration for ARCHIVE_SUITES, its lists read when missing or a day old."""
    root = cache_dir("apt-archive")
    (root / "lists" / "partial").mkdir(parents=True, exist_ok=True)
    (root / "cache" / "archives" / "partial").mkdir(parents=True, exist_ok=True)
    sources = root / "sources.list"
    wanted = "".join(f"deb {url} {suite} main\n" for url, suite in ARCHIVE_SUITES)
    archive = Archive(", ".join(suite for _, suite in ARCHIVE_SUITES),
                      ("-o", f"Dir::Etc::SourceList={sources}", "-o", "Dir::Etc::SourceParts=/dev/null",
                       "-o", f"Dir::State::Lists={root / 'lists'}", "-o", f"Dir::Cache={root / 'cache'}"))
    stamp = root / "lists" / ".read"
    if not sources.exists() or sources.read_text() != wanted or not stamp.exists() \
            or time.time() - stamp.stat().st_mtime > ARCHIVE_MAX_AGE_S:
        sources.write_text(wanted)
        print(f"kernels: reading the package lists of {archive.name} (once a day)", flush=True)
        archive.apt("apt-get", "update", timeout=600)
        stamp.touch()
    return archive


def _version_key(text: str) -> list[int | str]:
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text)]


def series_pattern(spec: str) -> re.Pattern[str]:
    """The packages KERNEL=<major.minor> may mean: bookworm's for 6.1 and 6.12, any suite's else."""
    if spec in SERIES:
        return SERIES[spec]
    return re.compile(rf"^linux-image-({re.escape(spec)}\.\d+(?:-\d+|\+deb\d+))-amd64$")


def resolve(spec: str, packages: Iterable[str]) -> str:
    """The package name KERNEL=spec means among `packages` (see the module's docstring)."""
    spec = spec.strip()
    if SERIES_SPEC.match(spec):
        matching = [p for p in packages if series_pattern(spec).match(p)]
        if not matching:
            raise LabError(f"KERNEL={spec}: no Debian package of Linux {spec} (linux-image-{spec}.*-amd64) "
                           "in the package registry")
        return max(matching, key=_version_key)
    name = spec if spec.startswith("linux-image-") else f"linux-image-{spec}"
    name = name if name.endswith("-amd64") else f"{name}-amd64"
    if name not in packages or not ANY_FLAVOUR.match(name):
        series = sorted({m.group(1) for p in packages if (m := re.match(r"^linux-image-(\d+\.\d+)[.]", p))},
                        key=_version_key)
        raise LabError(f"KERNEL={spec}: no package {name} in the registry; use host, a series "
                       f"({', '.join(series)}) or an exact package")
    return name


def find(spec: str) -> tuple[str, Archive]:
    """(package, archive): the host's sources first, the lab's archive for what they lack."""
    host = HOST_SOURCES.packages()
    try:
        return resolve(spec, host), HOST_SOURCES
    except LabError:
        archive = lab_archive()
        return resolve(spec, host | archive.packages()), archive


def exists(spec: str) -> None:
    """Refuse a KERNEL= no package answers (InvalidInput), before a run makes its directory: the
    package lists are read here (or the last resolution's record reused), nothing is downloaded."""
    if _resolved_before(spec)[0] is not None:
        return
    try:
        find(spec)
    except LabError as exc:
        raise InvalidInput(str(exc)) from None


def fetch(spec: str) -> Kernel:
    """The kernel KERNEL=spec means, downloaded and unpacked into the cache (once)."""
    package, version = _resolved_before(spec)
    root = cache_dir("kernels") / f"{package}_{version}"
    if package is None or version is None or not (root / ".unpacked.json").exists():
        package, archive = find(spec)
        shown = archive.apt("apt-cache", "show", "--no-all-versions", package)
        found = re.search(r"^Version: (\S+)", shown, re.M)
        if found is None:
            raise LabError(f"apt-cache show {package} gave no Version: line:\n{shown[:500]}")
        version = found.group(1)
        root = cache_dir("kernels") / f"{package}_{version}"
        if not (root / ".unpacked.json").exists():
            _unpack(archive, package, version, root)
        _remember(spec, package, version, archive)
    marker = root / ".unpacked.json"
    info = json.loads(marker.read_text())
    return Kernel(package, version, info["release"], root, info.get("suite"))


def _lists_stamp(archive_name: str) -> str | None:
    """What a package list's answer depends on: the host's lists as apt last wrote them, the lab's
    archive's while younger than a day (lab_archive reads them again then); None: ask apt."""
    if archive_name == HOST_SOURCES.name:
        return str(HOST_LISTS.stat().st_mtime_ns) if HOST_LISTS.exists() else None
    stamp = cache_dir("apt-archive") / "lists" / ".read"
    if not stamp.exists() or time.time() - stamp.stat().st_mtime > ARCHIVE_MAX_AGE_S:
        return None
    return str(stamp.stat().st_mtime_ns)


def _resolved_before(spec: str) -> tuple[str | None, str | None]:
    """(package, version) KERNEL=spec meant the last time, if the package lists it was read from
    have not changed since; (None, None) otherwise. Asking apt costs a second or more a run."""
    known = _read_resolved().get(spec)
    if known and known["stamp"] is not None and known["stamp"] == _lists_stamp(known["archive"]):
        return known["package"], known["version"]
    return None, None


def _read_resolved() -> dict[str, Any]:
    try:
        return json.loads((cache_dir("kernels") / RESOLVED).read_text())
    except (OSError, ValueError):
        return {}


def _remember(spec: str, package: str, version: str, archive: Archive) -> None:
    known = _read_resolved()
    known[spec] = {"package": package, "version": version, "archive": archive.name,
                   "stamp": _lists_stamp(archive.name)}
    record = cache_dir("kernels") / RESOLVED
    partial = record.with_name(f".{RESOLVED}.{os.getpid()}")
    partial.write_text(json.dumps(known, indent=1) + "\n")
    os.replace(partial, record)              # runs side by side each read a whole file


# Since trixie's 6.16, linux-image-* holds nothing itself: the kernel, its modules and its base
# files (config, modules.builtin) come in these packages of the same version, under /usr/lib/modules.
SPLIT_PARTS = re.compile(r"\b(linux-(?:base|binary|modules)-\S+) \(= ([^)]+)\)")


def _unpack(archive: Archive, package: str, version: str, root: Path) -> None:
    if root.exists():
        shutil.rmtree(root)
    download = root.with_name(root.name + ".download")
    shutil.rmtree(download, ignore_errors=True)
    download.mkdir(parents=True)
    depends = re.search(r"^Depends: (.*)$", archive.apt("apt-cache", "show", "--no-all-versions", package), re.M)
    parts = [f"{name}={part_version}" for name, part_version in SPLIT_PARTS.findall(depends.group(1) if depends else "")]
    try:
        wanted = [f"{package}={version}", *parts]
        result = subprocess.run(["apt-get", *archive.options, "download", *wanted], cwd=download,
                                capture_output=True, text=True, timeout=900)
        debs = sorted(download.glob("*.deb"))
        if result.returncode or len(debs) != len(wanted):
            raise LabError(f"apt-get download {' '.join(wanted)} failed: {result.stderr.strip()[-300:]}")
        for deb in debs:
            subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True, timeout=600)
    finally:
        shutil.rmtree(download, ignore_errors=True)
    _to_classic_layout(root)
    [modules] = (root / "lib" / "modules").iterdir()
    release = modules.name
    subprocess.run(["depmod", "-b", str(root), release], check=True, timeout=300)
    (root / ".unpacked.json").write_text(json.dumps({"package": package, "version": version, "release": release,
                                                     "suite": archive.suite_of(package)}))


def _to_classic_layout(root: Path) -> None:
    """The split packages' /usr/lib/modules/R/{vmlinuz,config} as the older packages have them:
    /boot/vmlinuz-R, /boot/config-R and the modules in /lib/modules/R."""
    merged = root / "usr" / "lib" / "modules"
    if (root / "lib" / "modules").exists() or not merged.exists():
        return
    (root / "lib").mkdir(exist_ok=True)
    merged.rename(root / "lib" / "modules")
    [modules] = (root / "lib" / "modules").iterdir()
    (root / "boot").mkdir(exist_ok=True)
    for name in ("vmlinuz", "config", "System.map"):
        if (modules / name).exists():
            (modules / name).rename(root / "boot" / f"{name}-{modules.name}")
