"""Debian kernels for the guest: fetched from the package registry with `apt-get download` and
unpacked into the cache (never installed on the host).

  KERNEL=6.1      the newest linux-image-6.1.0-*-amd64 the registry offers
  KERNEL=6.12     the newest linux-image-6.12.*-amd64
  KERNEL=6.1.0-56 / 6.12.117+deb12 / linux-image-…   that exact package
Only the generic -amd64 flavour: -cloud lacks drivers the guest needs.
"""
import dataclasses
import json
import re
import shutil
import subprocess
from pathlib import Path

from ...errors import LabError
from .cache import cache_dir

SERIES = {"6.1": re.compile(r"^linux-image-(6\.1\.0-\d+)-amd64$"),
          "6.12": re.compile(r"^linux-image-(6\.12\.\d+\+deb\d+)-amd64$")}
ANY_FLAVOUR = re.compile(r"^linux-image-(\d+\.\d+[\w.+~-]*?)-amd64$")


@dataclasses.dataclass(frozen=True)
class Kernel:
    """An unpacked kernel: what the guest boots and what a run records about it."""
    package: str             # linux-image-6.12.117+deb12-amd64
    version: str             # the package version, 6.12.117-1~deb12u1
    release: str             # uname -r: 6.12.117+deb12-amd64
    root: Path               # the unpacked package

    @property
    def vmlinuz(self):
        return self.root / "boot" / f"vmlinuz-{self.release}"

    @property
    def modules(self):
        return self.root / "lib" / "modules" / self.release

    @property
    def config(self):
        return self.root / "boot" / f"config-{self.release}"

    def config_value(self, name):
        """A CONFIG_ value of this kernel's build ('250' for HZ), or None."""
        m = re.search(rf"^CONFIG_{name}=(.*)$", self.config.read_text(), re.M)
        return m.group(1).strip('"') if m else None

    @property
    def hz(self):
        return int(self.config_value("HZ"))

    def describe(self):
        return {"package": self.package, "package_version": self.version, "release": self.release, "hz": self.hz}


def _apt(*args):
    result = subprocess.run(["apt-cache", *args], capture_output=True, text=True)
    if result.returncode:
        raise LabError(f"apt-cache {' '.join(args)} failed: {result.stderr.strip()[-300:]}")
    return result.stdout


def _version_key(text):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text)]


def available_packages():
    """Names of every linux-image-*-amd64 package the registry offers (signed or not)."""
    names = set()
    for line in _apt("search", "--names-only", r"^linux-image-[0-9].*-amd64$").splitlines():
        names.add(line.split(" - ")[0].strip())
    return names


def resolve(spec, packages=None):
    """The package name KERNEL=spec means (see the module's docstring)."""
    packages = available_packages() if packages is None else packages
    spec = spec.strip()
    if spec in SERIES:
        matching = [p for p in packages if SERIES[spec].match(p)]
        if not matching:
            raise LabError(f"KERNEL={spec}: the package registry offers no linux-image for {spec} "
                           "(try `apt-get update`)")
        return max(matching, key=_version_key)
    name = spec if spec.startswith("linux-image-") else f"linux-image-{spec}"
    name = name if name.endswith("-amd64") else f"{name}-amd64"
    if name not in packages or not ANY_FLAVOUR.match(name):
        known = ", ".join(sorted(p for p in packages if any(r.match(p) for r in SERIES.values()))[-6:])
        raise LabError(f"KERNEL={spec}: no package {name} in the registry; use host, 6.1, 6.12 or one of: {known}")
    return name


def fetch(spec):
    """The kernel KERNEL=spec means, downloaded and unpacked into the cache (once)."""
    package = resolve(spec)
    version = _apt("show", "--no-all-versions", package)
    version = re.search(r"^Version: (\S+)", version, re.M).group(1)
    root = cache_dir("kernels") / f"{package}_{version}"
    marker = root / ".unpacked.json"
    if not marker.exists():
        _unpack(package, version, root)
    info = json.loads(marker.read_text())
    return Kernel(package, version, info["release"], root)


def _unpack(package, version, root):
    if root.exists():
        shutil.rmtree(root)
    download = root.with_name(root.name + ".download")
    shutil.rmtree(download, ignore_errors=True)
    download.mkdir(parents=True)
    try:
        result = subprocess.run(["apt-get", "download", f"{package}={version}"], cwd=download,
                                capture_output=True, text=True, timeout=600)
        debs = list(download.glob("*.deb"))
        if result.returncode or not debs:
            raise LabError(f"apt-get download {package}={version} failed: {result.stderr.strip()[-300:]}")
        subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(root)], check=True, timeout=600)
    finally:
        shutil.rmtree(download, ignore_errors=True)
    [modules] = (root / "lib" / "modules").iterdir()
    release = modules.name
    subprocess.run(["depmod", "-b", str(root), release], check=True, timeout=300)
    (root / ".unpacked.json").write_text(json.dumps({"package": package, "version": version, "release": release}))
