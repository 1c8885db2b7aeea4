"""Per kernel: a small initramfs (busybox and the modules that mount the root disk) and a disk
image of the kernel's modules, which the guest mounts at /lib/modules/<release>."""
import gzip
import hashlib
import lzma
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from ...errors import LabError
from .cache import cache_dir
from .kernels import Kernel

BUSYBOX = Path("/bin/busybox")
# What the initramfs needs to mount an ext4 root on virtio: these and their dependencies.
# Each entry: the names a kernel may give it, the first it has is taken (Linux 6.15 renamed the
# crypto API's crc32c_generic to crc32c_cryptoapi).
ROOT_MODULES = (("virtio_pci",), ("virtio_blk",), ("ext4",), ("crc32c_generic", "crc32c_cryptoapi"))

# The root disk is mounted without ext4's lazy inode-table initialisation: every boot writes to a
# fresh overlay of the disk, so ext4_lazyinit_thread would zero the same tables at every boot, on an
# emulated CPU, while the guest's init flips the kernel's static keys; a CI make test (2026-12-04)
# had a boot Oops on int3 in that thread's kmem_cache_alloc (docs/guest-kernels.md).
INIT = """#!/bin/busybox sh
/bin/busybox --install -s /bin
mkdir -p /proc /sys /dev /newroot
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
fail() { echo "initramfs: $*"; poweroff -f; }
for m in $(cat /modules.load); do insmod "/modules/$m" || echo "initramfs: insmod $m failed"; done
i=0
while [ ! -b /dev/vda ] || [ ! -b /dev/vdb ]; do
  i=$((i + 1)); [ $i -gt 200 ] && fail "no /dev/vda and /dev/vdb after 20 s"; sleep 0.1
done
mount -t ext4 -o noinit_itable /dev/vda /newroot || fail "cannot mount the root disk"
mkdir -p /newroot/lib/modules/@RELEASE@
mount -t ext4 -o ro /dev/vdb /newroot/lib/modules/@RELEASE@ || fail "cannot mount the modules disk"
umount /proc /sys
mount --move /dev /newroot/dev
exec switch_root /newroot /usr/local/sbin/blackhole-guest-init
"""


def _module_index(kernel: Kernel) -> tuple[dict[str, str], dict[str, list[str]], set[str]]:
    """({module name: path relative to the modules dir}, {path: [dependency paths]}, builtin names)."""
    paths, deps = {}, {}
    for line in (kernel.modules / "modules.dep").read_text().splitlines():
        path, _, rest = line.partition(":")
        deps[path] = rest.split()
        paths[_module_name(path)] = path
    builtin = {_module_name(line) for line in (kernel.modules / "modules.builtin").read_text().split()}
    return paths, deps, builtin


def _module_name(path: str) -> str:
    name = os.path.basename(path)
    for suffix in (".xz", ".zst", ".gz"):
        name = name.removesuffix(suffix)
    return name.removesuffix(".ko").replace("-", "_")


def load_order(kernel: Kernel, wanted: Iterable[Sequence[str]] = ROOT_MODULES) -> list[str]:
    """Module paths to insmod, each after its dependencies; built-in ones are left out."""
    paths, deps, builtin = _module_index(kernel)
    order = []

    def visit(path: str) -> None:
        for dep in reversed(deps.get(path, [])):
            visit(dep)
        if path not in order:
            order.append(path)

    for names in wanted:
        if any(name in builtin for name in names):
            continue
        found = next((paths[name] for name in names if name in paths), None)
        if found is None:
            raise LabError(f"kernel {kernel.release}: no module {' or '.join(names)} (needed to mount the guest's disk)")
        visit(found)
    return order


def _uncompressed(source: Path) -> bytes:
    data = source.read_bytes()
    if source.suffix == ".xz":
        return lzma.decompress(data)
    if source.suffix == ".gz":
        return gzip.decompress(data)
    if source.suffix == ".zst":
        return subprocess.run(["zstd", "-dc", str(source)], capture_output=True, check=True).stdout
    return data


def initramfs(kernel: Kernel) -> Path:
    """The kernel's initramfs (cached): busybox, its root-disk modules and /init."""
    script = INIT.replace("@RELEASE@", kernel.release)
    # keyed by its /init too: a changed script is a new initramfs (and a new saved guest's key)
    target = cache_dir("kernels", "initramfs") / f"{kernel.release}-{hashlib.sha256(script.encode()).hexdigest()[:8]}.cpio.gz"
    if target.exists():
        return target
    if not BUSYBOX.exists():
        raise LabError("no /bin/busybox on this host: install busybox-static (make does)")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "bin").mkdir()
        shutil.copy(BUSYBOX, root / "bin" / "busybox")
        (root / "modules").mkdir()
        names = []
        for path in load_order(kernel):
            name = _module_name(path) + ".ko"
            (root / "modules" / name).write_bytes(_uncompressed(kernel.modules / path))
            names.append(name)
        (root / "modules.load").write_text("\n".join(names) + "\n")
        (root / "init").write_text(script)
        (root / "init").chmod(0o755)
        files = subprocess.run(["find", "."], cwd=root, capture_output=True, text=True, check=True).stdout
        archive = subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=root, input=files.encode(),
                                 capture_output=True, check=True).stdout
        partial = target.with_suffix(".partial")
        partial.write_bytes(gzip.compress(archive, 6))
        partial.replace(target)
    return target


def modules_disk(kernel: Kernel) -> Path:
    """An ext4 image of the kernel's /lib/modules/<release> (cached), mounted read-only by the guest."""
    target = cache_dir("kernels", "modules") / f"{kernel.release}.img"
    if target.exists():
        return target
    size_mb = sum(f.stat().st_size for f in kernel.modules.rglob("*") if f.is_file()) // 2**20
    partial = target.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    result = subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "modules", "-O", "^has_journal", "-d", str(kernel.modules),
                             str(partial), f"{int(size_mb * 1.3) + 64}M"], capture_output=True, text=True)
    if result.returncode:
        raise LabError(f"mkfs.ext4 of {kernel.release}'s modules failed: {result.stderr.strip()[-300:]}")
    partial.replace(target)
    return target
