"""What a cluster node's guest disk holds beyond the lab's (harness/lab/cluster), put in on this
host: its programs in /opt/cluster/bin (pushed over ssh they took 100 s of the node's start), and
its images in its containerd, imported by a throwaway containerd of our own whose root is the
guest tree's /var/lib/containerd (the guest's own `docker save | ctr import` of the same ~1.6 GB,
on its one emulated CPU, had not finished after 10 min)."""
import dataclasses
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Callable

from ... import polling
from ...errors import LabError
from . import throwaway

PROGRAMS_DIR = "opt/cluster/bin"        # in the guest's tree
LOADING_DAEMON_START_S = 60              # the throwaway containerd that imports the node's images
NAMESPACE = "k8s.io"                     # the CRI plugin's namespace: what kubelet sees


@dataclasses.dataclass(frozen=True)
class NodeContents:
    image_keys: dict                    # {image: what it is built from}
    save_images: Callable[[Path], None]   # save_images(path): a `docker save` tar of them
    programs: tuple = ()                # directories whose files go to PROGRAMS_DIR
    packages: tuple = ()                # Debian packages (.deb files) unpacked into the tree

    def program_files(self) -> list[Path]:
        return sorted((f for directory in self.programs for f in Path(directory).iterdir() if f.is_file()),
                      key=lambda f: f.name)

    def keys(self) -> dict[str, str]:
        """What the disk's node part is made from: the images' keys, each program's size and time."""
        return {**self.image_keys, **{f"program:{f.name}": f"{f.stat().st_size}-{f.stat().st_mtime_ns}"
                                      for f in self.program_files()},
                **{f"package:{Path(deb).name}": "unpacked" for deb in self.packages}}

    def put_in(self, tree: Path, tmp: Path) -> None:
        """Packages, programs and images into the guest's tree."""
        for deb in self.packages:
            # --keep-directory-symlink: a package's ./lib/ (the CNI plugins' systemd units) goes
            # through the merged-/usr tree's lib -> usr/lib; `dpkg-deb -x` replaced that link with
            # a directory, and the guest's init could not find its shell's libraries
            result = subprocess.run(f"dpkg-deb --fsys-tarfile {shlex.quote(str(deb))} | "
                                    f"tar -x -C {shlex.quote(str(tree))} --keep-directory-symlink",
                                    shell=True, capture_output=True, text=True)
            if result.returncode:
                raise LabError(f"guest disk: unpacking {Path(deb).name} failed: {result.stderr.strip()[-300:]}")
        programs = tree / PROGRAMS_DIR
        programs.mkdir(parents=True, exist_ok=True)
        for program in self.program_files():
            shutil.copy2(program, programs / program.name)
        images_tar = tmp / "node-images.tar"
        self.save_images(images_tar)
        load(tree / "var/lib/containerd", images_tar, tmp)
        images_tar.unlink()


def config(root: Path, state: Path, socket: Path) -> str:
    """Only what importing needs: no CRI plugin (it would look for CNI and a network)."""
    return "\n".join([
        "version = 2", f'root = "{root}"', f'state = "{state}"',
        'disabled_plugins = ["io.containerd.grpc.v1.cri"]',
        "[grpc]", f'  address = "{socket}"', ""])


def load(root: Path, images_tar: Path, tmp: Path, timeout_s: float = 900) -> list[str]:
    """`ctr images import` images_tar (a `docker save`) into a containerd root (the guest tree's
    /var/lib/containerd), unpacked for its overlayfs snapshotter."""
    root.mkdir(parents=True, exist_ok=True)
    socket = tmp / "containerd.sock"
    (tmp / "containerd.toml").write_text(config(root, tmp / "containerd-state", socket))
    log = open(tmp / "containerd.log", "w")
    daemon = subprocess.Popen([*throwaway.OWN_NAMESPACES, "containerd", "--config", str(tmp / "containerd.toml")],
                              stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    ctr = ["ctr", "--address", str(socket), "--namespace", NAMESPACE]
    try:
        if not polling.until(lambda: daemon.poll() is not None
                             or not subprocess.run([*ctr, "version"], capture_output=True).returncode,
                             LOADING_DAEMON_START_S, poll_s=0.3) or daemon.poll() is not None:
            raise LabError(f"guest disk: the loading containerd did not start: "
                           f"{(tmp / 'containerd.log').read_text()[-800:]}")
        result = subprocess.run([*ctr, "images", "import", str(images_tar)], capture_output=True, text=True,
                                timeout=timeout_s)
        if result.returncode:
            raise LabError(f"guest disk: ctr import failed: {(result.stdout + result.stderr)[-800:]}")
        return sorted(line.split()[0] for line in subprocess.run(
            [*ctr, "images", "ls", "-q"], capture_output=True, text=True).stdout.splitlines() if line.strip())
    finally:
        throwaway.stop(daemon)
        log.close()
