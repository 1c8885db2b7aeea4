"""The guest's disk: Debian bookworm with Docker, sshd and a small PID 1, and the lab's images
already loaded, built once and cached.

  rootfs   debootstrap + packages + files/ (keyed by rootfs()'s code, files/, PACKAGES)
  disk     rootfs + an ssh key pair made for this disk + the lab's images (keyed by the rootfs
           key, the code that adds keys and images, and the images' ids), as an ext4 image
           the guest boots read-only under a throwaway qcow2 overlay
The images go in on the host: a throwaway dockerd with the guest tree as its data root
`docker load`s them (the guest's own loading would be CPU-bound under TCG).
"""
import hashlib
import inspect
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ... import polling
from ...errors import LabError
from . import node_images, throwaway
from .cache import cache_dir
from .node_images import NodeContents

FILES = Path(__file__).resolve().parent / "files"
PACKAGES = ("docker.io", "iproute2", "ipvsadm", "nftables", "conntrack", "openssh-server", "kmod", "tini",
            "procps", "iptables", "ca-certificates")
MIRROR = "http://deb.debian.org/debian"
DISK_SIZE = "16G"
KEY_NAME = "id_ed25519"
HOST_ALIAS = "blackhole-guest"          # how known_hosts names the guest, whatever port it is on
LOADING_DAEMON_START_S = 60             # the throwaway dockerd that loads the images into the disk
KEEP_DISKS = 2                          # the one in use and the one before (another checkout's images)


def _digest(*parts: object) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else str(part).encode())
    return h.hexdigest()[:16]


def rootfs_key() -> str:
    """What the root tree is made from: the code that makes it, files/, the packages, the mirror."""
    return _digest(inspect.getsource(rootfs), *(p.read_bytes() for p in sorted(FILES.iterdir())), PACKAGES, MIRROR)


def disk_key(image_keys: Mapping[str, str], node_image_keys: Mapping[str, str] | None = None) -> str:
    """What a disk is made from: its root tree, the code that adds keys and images, the images,
    and a cluster node's images in its containerd, if it has them."""
    node = (inspect.getsource(node_images), json.dumps(sorted(node_image_keys.items()))) if node_image_keys else ()
    return _digest(rootfs_key(), inspect.getsource(_keys), inspect.getsource(_load_images),
                   json.dumps(sorted(image_keys.items())), *node)


def _run(command: Sequence[str], what: str, timeout: float, **kwargs: Any) -> str:
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)
    if result.returncode:
        raise LabError(f"guest disk: {what} failed ({result.returncode}): {(result.stdout + result.stderr)[-800:]}")
    return result.stdout


def rootfs(say: Callable[[str], None]) -> Path:
    """The configured root tree (cached by the recipe's key)."""
    root = cache_dir("guest", "rootfs") / rootfs_key()
    if (root / ".complete").exists():
        return root
    shutil.rmtree(root, ignore_errors=True)
    say(f"guest: building the root filesystem with debootstrap ({len(PACKAGES)} packages, ~1.5 min, once)")
    _run(["debootstrap", "--variant=minbase", f"--include={','.join(PACKAGES)}", "bookworm", str(root), MIRROR],
         "debootstrap", timeout=1200)
    init = root / "usr/local/sbin/blackhole-guest-init"
    shutil.copy(FILES / "blackhole-guest-init", init)
    init.chmod(0o755)
    shutil.copy(FILES / "sshd_config", root / "etc/ssh/sshd_config")
    for key in (root / "etc/ssh").glob("ssh_host_*"):
        key.unlink()                       # each disk gets its own host key
    (root / "etc/resolv.conf").unlink(missing_ok=True)
    (root / "etc/resolv.conf").write_text("nameserver 127.0.0.1\n")   # nothing leaves the guest
    (root / "etc/hostname").write_text("blackhole-guest\n")
    (root / "etc/docker").mkdir(exist_ok=True)
    (root / "etc/docker/daemon.json").write_text(json.dumps({"storage-driver": "overlay2"}) + "\n")
    shutil.rmtree(root / "var/cache/apt/archives", ignore_errors=True)
    shutil.rmtree(root / "var/lib/apt/lists", ignore_errors=True)
    (root / ".complete").write_text(time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    return root


class GuestDisk:
    """A built disk: its image, the key to log in with, and the guest's host key."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)

    image = property(lambda self: self.directory / "disk.img")
    key = property(lambda self: self.directory / KEY_NAME)
    known_hosts = property(lambda self: self.directory / "known_hosts")

    def exists(self) -> bool:
        return (self.directory / "build.json").exists()

    def build_info(self) -> dict[str, Any]:
        return json.loads((self.directory / "build.json").read_text())


def ensure(image_keys: Mapping[str, str], save_images: Callable[[Path], None], say: Callable[[str], None],
           node: NodeContents | None = None) -> tuple["GuestDisk", float]:
    """The disk for these lab images (built if missing). save_images(path) writes a `docker save`
    tar of them. node: a cluster node's programs and images (node_images.NodeContents), if any.
    Returns (GuestDisk, seconds spent building: 0 when cached)."""
    node_keys = node.keys() if node else None
    disk = GuestDisk(cache_dir("guest", "disks") / disk_key(image_keys, node_keys))
    if disk.exists():
        (disk.directory / "build.json").touch()          # recently used: kept by prune()
        return disk, 0.0
    started = time.monotonic()
    say(f"guest: building a disk: {why_rebuilt(image_keys, node_keys)}")
    base = rootfs(say)
    shutil.rmtree(disk.directory, ignore_errors=True)
    disk.directory.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="blackhole-guest-disk-") as tmp:
        tree = Path(tmp) / "root"
        say("guest: copying the root filesystem")
        _run(["cp", "-a", str(base), str(tree)], "copying the root filesystem", timeout=600)
        (tree / ".complete").unlink()
        _keys(disk, tree)
        say(f"guest: loading {len(image_keys)} lab images into the guest's Docker directory")
        images_tar = Path(tmp) / "images.tar"
        save_images(images_tar)
        _load_images(tree / "var/lib/docker", images_tar, Path(tmp))
        images_tar.unlink()
        if node:
            say(f"guest: a cluster node's {len(node.program_files())} programs, and {len(node.image_keys)} images "
                "imported into its containerd")
            node.put_in(tree, Path(tmp))
        say(f"guest: writing the {DISK_SIZE} disk image (sparse)")
        _run(["mkfs.ext4", "-q", "-F", "-L", "root", "-d", str(tree), str(disk.image) + ".partial", DISK_SIZE],
             "mkfs.ext4", timeout=900)
    Path(str(disk.image) + ".partial").replace(disk.image)
    (disk.directory / "build.json").write_text(json.dumps(
        {"rootfs": rootfs_key(), "images": image_keys, "node_images": node_keys, "built_s": round(time.monotonic() - started, 1),
         "built_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}, indent=1))
    prune(keep=KEEP_DISKS)
    return disk, time.monotonic() - started


def why_rebuilt(image_keys: Mapping[str, str], node_keys: Mapping[str, str] | None = None) -> str:
    """Why no cached disk fits these images, against the most recently used one."""
    disks = sorted((d for d in cache_dir("guest", "disks").iterdir() if (d / "build.json").exists()),
                   key=lambda d: (d / "build.json").stat().st_mtime, reverse=True)
    if not disks:
        return "none cached yet"
    last = json.loads((disks[0] / "build.json").read_text())
    return rebuild_reason(last, rootfs_key(), image_keys, node_keys)


def rebuild_reason(last_build: Mapping[str, Any], rootfs_now: str, image_keys: Mapping[str, str],
                   node_keys: Mapping[str, str] | None = None) -> str:
    """What differs between the last disk's build.json and what is wanted now."""
    reasons = []
    if last_build.get("rootfs") != rootfs_now:
        reasons.append("the guest's root tree recipe changed (harness/lab/guest/disk.py, files/)")
    before = last_build.get("images", {})
    changed = sorted(name for name in set(before) | set(image_keys) if before.get(name) != image_keys.get(name))
    if changed:
        reasons.append("images changed: " + ", ".join(changed))
    last_node = last_build.get("node_images") or {}
    if last_node and node_keys:
        changed = sorted(name for name in set(last_node) | set(node_keys) if last_node.get(name) != node_keys.get(name))
        if changed:
            reasons.append("a cluster node's programs or images changed: " + ", ".join(changed))
    elif last_node or node_keys:
        reasons.append("a cluster node's programs and images: " + (
            "not in the last disk" if node_keys else "the last disk had them, this one does not"))
    return "; ".join(reasons) or "the code that loads images into it changed"


def prune(keep: int) -> None:
    """Delete all but the `keep` most recently used disks, and root trees of other recipes."""
    disks = sorted((d for d in cache_dir("guest", "disks").iterdir() if (d / "build.json").exists()),
                   key=lambda d: (d / "build.json").stat().st_mtime, reverse=True)
    for stale in disks[keep:]:
        shutil.rmtree(stale, ignore_errors=True)
    for tree in cache_dir("guest", "rootfs").iterdir():
        if tree.name != rootfs_key():
            shutil.rmtree(tree, ignore_errors=True)


def _keys(disk: "GuestDisk", tree: Path) -> None:
    """A login key pair for this disk, and the guest's host key pinned in known_hosts."""
    _run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "blackhole-lab", "-f", str(disk.key)], "ssh-keygen",
         timeout=30)
    ssh_dir = tree / "root/.ssh"
    ssh_dir.mkdir(mode=0o700, exist_ok=True)
    shutil.copy(str(disk.key) + ".pub", ssh_dir / "authorized_keys")
    host_key = tree / "etc/ssh/ssh_host_ed25519_key"
    _run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", HOST_ALIAS, "-f", str(host_key)], "ssh-keygen",
         timeout=30)
    public = (Path(str(host_key) + ".pub")).read_text().split()
    disk.known_hosts.write_text(f"{HOST_ALIAS} {public[0]} {public[1]}\n")


def _load_images(data_root: Path, images_tar: Path, tmp: Path) -> None:
    """`docker load` into data_root with a throwaway dockerd of our own, off the host's network."""
    data_root.mkdir(parents=True, exist_ok=True)
    sock, pidfile = tmp / "docker.sock", tmp / "docker.pid"
    (tmp / "daemon.json").write_text("{}\n")
    log = open(tmp / "dockerd.log", "w")
    daemon = subprocess.Popen(
        [*throwaway.OWN_NAMESPACES, "dockerd", "--data-root", str(data_root), "--exec-root", str(tmp / "exec"), "--pidfile", str(pidfile),
         "-H", f"unix://{sock}", "--bridge=none", "--iptables=false", "--ip-masq=false", "--ip-forward=false",
         "--storage-driver=overlay2", "--config-file", str(tmp / "daemon.json"), "--log-level=error"],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        docker = ["docker", "-H", f"unix://{sock}"]
        if not polling.until(lambda: daemon.poll() is not None
                             or not subprocess.run(docker + ["info"], capture_output=True).returncode,
                             LOADING_DAEMON_START_S, poll_s=0.3) or daemon.poll() is not None:
            raise LabError(f"guest disk: the loading dockerd did not start: {(tmp / 'dockerd.log').read_text()[-800:]}")
        _run(docker + ["load", "-i", str(images_tar)], "docker load", timeout=900)
    finally:
        throwaway.stop(daemon)
        log.close()
    for leftover in ("network", "runtimes"):            # state that belongs to that dockerd only
        shutil.rmtree(data_root / leftover, ignore_errors=True)
