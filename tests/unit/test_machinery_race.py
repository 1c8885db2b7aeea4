"""A killed QEMU takes a moment to be seen gone: a look at the guest's machinery that finds QEMU
still there but reaches no shell over ssh (ssh's own exit status, 255) looks again, and names QEMU
once it is gone, not 'the Docker engine does not answer' (a CI run's qemu-killed case, 2026-12-03)."""
import subprocess
import time

from harness.lab.guest import machinery


class Vm:
    def __init__(self, gone_after_s):
        self.gone_at, self.process = time.monotonic() + gone_after_s, None

    def alive(self):
        return time.monotonic() < self.gone_at


class Ssh:
    forwarder = None

    def __init__(self, code):
        self.code = code

    def run(self, command, timeout, check):
        return subprocess.CompletedProcess(["ssh"], self.code, stdout="", stderr="")


class Engine:
    def __init__(self, vm, ssh):
        self.vm, self.ssh = vm, ssh


def test_a_qemu_seen_gone_a_moment_after_ssh_failed_is_named():
    assert machinery.what_broke(Engine(Vm(0.3), Ssh(255))) == "the guest's QEMU is gone"


def test_ssh_failing_while_qemu_runs_on_is_said_so_and_a_live_guest_is_fine():
    assert machinery.what_broke(Engine(Vm(60), Ssh(255))) == "the guest does not answer ssh (its QEMU runs)"
    assert machinery.what_broke(Engine(Vm(60), Ssh(0))) is None


class Closed:
    """The ssh tunnel's process, ended with the code given."""
    def __init__(self, code):
        self.returncode = code

    def poll(self):
        return self.returncode


def test_a_tunnel_lost_while_qemu_is_exiting_names_qemu_and_one_that_ended_otherwise_names_the_tunnel():
    lost = Ssh(0)
    lost.forwarder = Closed(255)
    assert machinery.what_broke(Engine(Vm(0.3), lost)) == "the guest's QEMU is gone"
    assert machinery.what_broke(Engine(Vm(60), lost)) == \
        "the ssh tunnel to the guest's Docker engine closed (ssh exit status 255)"
    ended = Ssh(0)
    ended.forwarder = Closed(1)
    assert machinery.what_broke(Engine(Vm(60), ended)) == \
        "the ssh tunnel to the guest's Docker engine closed (ssh exit status 1)"
