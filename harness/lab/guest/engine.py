"""GuestEngine: the lab inside a QEMU guest booting a packaged Debian kernel (KERNEL=6.1, 6.12, ...).

Booted on first use (ensure_started) and stopped when its `with` block ends; every step is
bounded in time, a guest that does not come up raises LabError with its console's last lines,
and its QEMU never outlives the process that started it. The Docker engine inside is reached
through an ssh-forwarded socket, so Compose and python-on-whales work unchanged.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal, Self

from python_on_whales import DockerClient

from ...errors import LabError
from ..request import LabRequest
from . import accel, evidence, initramfs, kept, kernels, machinery, snapshot
from . import disk as guest_disk
from .node_images import NodeContents
from .qemu import KernelDied, Vm, guest_cpus, qemu_version
from .snapshot import Snapshot
from .ssh import Ssh
from .started_parts import StartedParts

if TYPE_CHECKING:
    from .lab import GuestLab

BOOT_TIMEOUT_S = 240          # QEMU start to ssh (TCG: ~25-35 s measured)
RESUME_TIMEOUT_S = 60         # QEMU start to ssh, resuming a saved guest
ENGINE_TIMEOUT_S = 180        # ssh to `docker info` answering
BOOT_ATTEMPTS = 2             # a kernel that dies booting is booted once more
DOCKERD_LOG = "/var/log/dockerd.log"   # files/blackhole-guest-init starts dockerd writing here
# The guest's init lets IPVS sync's multicast through Docker's filter (files/blackhole-guest-init);
# a restarted dockerd keeps DOCKER-USER's rules, and this puts the rule back if it did not.
SYNC_MULTICAST = ("for _ in $(seq 1 240); do iptables -L DOCKER-USER >/dev/null 2>&1 && break; sleep 0.5; done; "
                  "iptables -C DOCKER-USER -p udp -d 224.0.0.81 --dport 8848 -j ACCEPT 2>/dev/null || "
                  "iptables -I DOCKER-USER -p udp -d 224.0.0.81 --dport 8848 -j ACCEPT")
# What the host needs to build and boot a guest (scripts/ensure-guest-tools.sh installs them).
HOST_TOOLS = ("qemu-system-x86_64", "qemu-img", "cpio", "debootstrap", "ssh", "ssh-keygen", "mkfs.ext4", "depmod")


class GuestEngine(StartedParts):
    where = "guest"
    shared = False              # its Docker engine is this run's alone
    engine_log = DOCKERD_LOG

    def __init__(self, spec: str, image_keys: Callable[[], dict[str, str]] | None = None,
                 save_images: Callable[[Path], None] | None = None, out: IO[str] = sys.stdout,
                 home: str | os.PathLike[str] | None = None, one_lab: bool = False, forwards: Iterable[int] = (),
                 node_images: NodeContents | None = None) -> None:
        """spec: KERNEL's value; image_keys() -> {image: what it is built from} and save_images(path) give the lab's
        images for the disk (harness/lab/images.py supplies both). home: a directory to keep the
        guest's state in, for a guest that outlives this process (`make up`); without one the
        guest lives in a temporary directory and dies with the process. one_lab: the guest runs
        one lab and no other after it, so taking that lab down is stopping the guest (its
        containers, overlay and sockets go with it; `compose down` in a TCG guest took 5.4 s).
        forwards: guest TCP ports this host reaches on its loopback (forwarded_port). node_images:
        a cluster node's programs and images, on its disk from the start (node_images.NodeContents)."""
        self.spec, self.out, self.home = spec, out, Path(home) if home else None
        self.one_lab = one_lab and home is None
        self._image_keys, self._save_images = image_keys, save_images
        self.forwards, self._node_images = tuple(forwards), node_images
        self.kernel, self.vm, self.ssh, self.disk = None, None, None, None
        self.cpus: int | None = None
        self.state_dir = None
        self.timings: dict[str, float] = {}
        self.accel: str | None = None
        self.started = None
        self.said_to: Callable[[str], None] | None = None
        self.clock_offset_s, self.clock = 0.0, {}
        self.failed: str | None = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.stop()
        return False

    def say(self, text: str) -> None:
        if self.said_to is not None:
            self.said_to(text)
            return
        self.out.write(text + "\n")
        self.out.flush()

    # -- lifecycle -------------------------------------------------------------
    def ensure_started(self, say: Callable[[str], None] | None = None) -> None:
        if self.failed is not None:
            raise LabError(f"guest: it did not come up earlier: {self.failed}")
        if self.vm is not None:
            return
        if say:
            self.said_to = say
        try:
            self._start()
        except BaseException as exc:
            self.failed = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise

    def running(self) -> bool:
        """Started, and still there: a guest that failed to come up holds no lab."""
        return self.failed is None and self.vm is not None and self.vm.alive()

    def problem(self) -> str | None:
        return machinery.what_broke(self)

    def compose_env(self) -> dict[str, str]:
        """Healthchecks are `runc exec`s, each costing the one emulated CPU a large fraction of a
        second: check every 10 s, not every second (measured on 6.12: 1 s interval saturates the
        guest; 5 s: lab up 32-41 s; 10 s: a little slower, half the steady cost; 30 s: 54-58 s),
        and allow a check longer than the host would need; the database servers' own start loops
        look every 0.5 s, not every 0.1 s (READY_POLL_S, images/mysql/entrypoint.sh)."""
        return {"HEALTH_INTERVAL": "10s", "HEALTH_TIMEOUT": "30s", "READY_POLL_S": "0.5"}

    def _start(self) -> None:
        missing = [tool for tool in HOST_TOOLS if not shutil.which(tool)]
        if missing:
            raise LabError(f"guest: this host lacks {', '.join(missing)}; `make guest-tools` installs them "
                           "(scripts/ensure-guest-tools.sh)")
        cpus = self.cpus = guest_cpus()
        started = time.monotonic()
        kernel = self.kernel = kernels.fetch(self.spec)
        initrd, modules = initramfs.initramfs(kernel), initramfs.modules_disk(kernel)
        self.timings["kernel_s"] = round(time.monotonic() - started, 1)
        if self._image_keys is None or self._save_images is None:
            raise LabError("guest: no images to put on its disk (image_keys and save_images)")
        disk, built_s = guest_disk.ensure(self._image_keys(), self._save_images, self.say, node=self._node_images)
        self.disk = disk
        self.timings["disk_build_s"] = round(built_s, 1)
        self.accel, why = accel.choose(kernel)
        if self.home:
            self.home.mkdir(parents=True, exist_ok=True)
        self.state_dir = self.home or Path(tempfile.mkdtemp(prefix="blackhole-guest-"))
        vm = self.vm = Vm(self.state_dir, kernel, initrd, modules, disk.image, self.accel, cpus=cpus,
                          forwards=self.forwards)
        saving = snapshot.enabled() and self._node_images is None
        wanted = snapshot.key(vm) if saving else None
        saved = snapshot.find(wanted) if wanted is not None else None
        if saved is None or not self._resume(saved):
            self._boot(why)
            if wanted is not None:
                self._save(wanted)
        self.say(f"guest: {kernel.release} up: {(self.started or {}).get('how')} in {self.timings['boot_s']} s, "
                 f"Docker engine {self.timings['engine_ready_s']} s later")
        if self.home:
            kept.record(self, self.home)

    def _boot(self, why: str) -> None:
        """Boot, and once more if the kernel dies on the way: two vCPUs under TCG can Oops at random
        in early boot (update_rq_clock from sched_init_debug, before init runs); a second death
        is not chance, and raises."""
        kernel, vm = self.booted_kernel(), self.running_vm()
        for attempt in range(1, BOOT_ATTEMPTS + 1):
            self.say(f"guest: booting {kernel.package} ({kernel.version}) under QEMU/{self.accel} ({why}) ...")
            booting = time.monotonic()
            vm.start(detached=self.home is not None)
            ssh = self.ssh = self._ssh_to(vm)
            try:
                vm.wait_for("ssh to answer", BOOT_TIMEOUT_S, ssh.reachable)
                break
            except KernelDied as died:
                if attempt == BOOT_ATTEMPTS:
                    raise
                shutil.copy(vm.console_log, vm.console_log.parent / f"console-boot-{attempt}.log")
                self.say(f"guest: its kernel died while booting ({died.line}); booting it once more, "
                         f"its console kept with the run as console-boot-{attempt}.log")
                self._close_ssh()
                vm.stop()
                why = f"boot {attempt + 1}"
        self.timings["boot_s"] = round(time.monotonic() - booting, 1)
        self.started = {"how": "booted", **({"boots": attempt} if attempt > 1 else {})}
        self._engine_up()

    def _resume(self, saved: Snapshot) -> bool:
        """Start as the saved guest; False, with the saved guest thrown away, when it does not resume."""
        info, vm = saved.info(), self.running_vm()
        self.say(f"guest: resuming {self.booted_kernel().package} as saved at {info['utc']} under QEMU/{self.accel} ...")
        resuming = time.monotonic()
        vm.restore = saved
        try:
            vm.start(detached=self.home is not None)
            snapshot.resume(vm, RESUME_TIMEOUT_S)
            ssh = self.ssh = self._ssh_to(vm)
            vm.wait_for("the resumed guest's ssh", RESUME_TIMEOUT_S, ssh.reachable)
            ssh.run(snapshot.reseed_command(), timeout=30)
        except (LabError, subprocess.TimeoutExpired) as exc:
            qemu_said = (vm.console_tail(lines=1) or "").strip()
            self.say(f"guest: the saved guest did not resume ({str(exc).splitlines()[0]}"
                     f"{'; QEMU: ' + qemu_said if qemu_said else ''}); booting instead")
            self._close_ssh()
            vm.stop()
            snapshot.discard(saved)
            vm.restore = None
            return False
        self.timings["boot_s"] = round(time.monotonic() - resuming, 1)
        self.started = {"how": "resumed", "saved": info, "saved_key": saved.key}
        self._engine_up()
        return True

    def _ssh_to(self, vm: Vm) -> Ssh:
        if vm.port is None or self.disk is None or self.state_dir is None:
            raise LabError("guest: no ssh to a QEMU that has not started")
        return Ssh(vm.port, self.disk, self.state_dir)

    def _engine_up(self) -> None:
        self.set_clock_from_ours()
        engine = time.monotonic()
        self.open_ssh().forward_docker()
        self.running_vm().wait_for("the Docker engine to answer", ENGINE_TIMEOUT_S, self._docker_answers)
        self.timings["engine_ready_s"] = round(time.monotonic() - engine, 1)

    def _save(self, wanted: str) -> None:
        """Save the booted guest for the next run, with none of this host's connections open in it;
        a guest that cannot be saved still runs this one."""
        self.open_ssh().close()
        try:
            self.timings["save_s"] = snapshot.save(self.running_vm(), wanted, self.say)
        except (LabError, OSError) as exc:             # OSError: the cache's disk full, say
            self.say(f"guest: not saved ({str(exc).splitlines()[0]}); the next run boots again")
        self._engine_up()

    @classmethod
    def attach(cls, home: str | os.PathLike[str], out: IO[str] = sys.stdout) -> "GuestEngine":
        """The guest a `make up` left running with its state in home."""
        return kept.attach(cls, Path(home), out)

    def forwarded_port(self, guest_port: int) -> int:
        """This host's loopback port that reaches guest_port (one of forwards)."""
        return self.running_vm().forwarded[guest_port]

    def _docker_answers(self) -> bool:
        return subprocess.run(["docker", "-H", self.docker_host, "info"], capture_output=True).returncode == 0

    def _close_ssh(self) -> None:
        if self.ssh is not None:
            try:
                self.ssh.close()
            except Exception:          # the guest may already be gone; QEMU is stopped next anyway
                pass

    def stop(self) -> None:
        self._close_ssh()
        if self.vm is not None:
            self.vm.stop()
        if self.state_dir is not None:
            shutil.rmtree(self.state_dir, ignore_errors=True)       # the overlay and sockets with it
        self.vm = self.ssh = self.state_dir = None

    def restart_docker_if_idle(self) -> bool:
        """Restart the guest's dockerd when no container is left in it, and say whether it did.
        Docker 20.10 now and then keeps counting an endpoint of a removed container on a network,
        and only a new dockerd forgets it (moby/moby#42119); this guest is the run's alone."""
        if self.ssh is None or self.ssh.run("docker ps -aq", timeout=60).stdout.strip():
            return False
        self.open_ssh().run("pkill -x dockerd; for _ in $(seq 1 300); do pgrep -x dockerd >/dev/null || break; sleep 0.2; done; "
                     f"(setsid dockerd --log-level=warn >> {DOCKERD_LOG} 2>&1 </dev/null &); {SYNC_MULTICAST}",
                     timeout=120)
        self.running_vm().wait_for("the Docker engine to answer after its restart", ENGINE_TIMEOUT_S, self._docker_answers)
        return True

    # -- the engine's face -------------------------------------------------------
    @property
    def docker_host(self) -> str:
        return f"unix://{self.open_ssh().docker_socket}"

    def docker(self, **options: Any) -> DockerClient:
        return DockerClient(host=self.docker_host, **options)

    def kernel_release(self) -> str:
        return self.booted_kernel().release

    def hz(self) -> int | None:
        return self.booted_kernel().hz

    def has_qdisc(self, kind: str) -> bool:
        """Loaded at the guest's start (files/blackhole-guest-init), or not in this kernel."""
        return self._test(f"-d /sys/module/sch_{kind}")

    def describe(self) -> dict[str, Any]:
        kernel = self.booted_kernel()
        return {"where": self.where, "kernel": kernel.release, **kernel.describe(),
                "accel": self.accel, "cpus": self.cpus, "qemu": qemu_version(), "timings": self.timings,
                "clock_at_boot": self.clock, "disk": self.disk.build_info() if self.disk else None,
                "started": self.started}

    def lab_of_shape(self, request: LabRequest) -> "GuestLab":
        from .lab import GuestLab
        return GuestLab(request, engine=self)

    def collect(self, directory: str | os.PathLike[str]) -> None:
        """The guest's console log and its clock's offset now, kept with a run."""
        evidence.collect(self, Path(directory))
