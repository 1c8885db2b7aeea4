"""A client program that dies before its first answer is reported with its last words, at once,
instead of the run waiting out its start-up limit for answers that will never come."""
import subprocess

from harness.run import loads


class LocalLab:
    """Runs a load's command on this machine instead of in a container."""

    def spawn(self, service, command, stdout=subprocess.PIPE):
        return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=stdout, stderr=subprocess.PIPE,
                                text=True, bufsize=1)

    def exec_each(self, commands, check):
        """pkill in the containers: reaches nothing here (a load that ends on EOF needs none)."""


class RunFiles:
    def __init__(self, tmp_path):
        self.tmp_path = tmp_path

    def open(self, name):
        return open(self.tmp_path / name, "w")


def test_a_load_that_exited_is_named_with_its_stderr(tmp_path):
    dying = loads.Load("client-r2", None, ("sh", "-c", "read spec; echo 'probe: error: unrecognized arguments' >&2; exit 2"),
                       "probe", stops_on_eof=True, cells=(("r2", "r2.jsonl"),), first_input="[]\n")
    living = loads.Load("client-r3", None, ("sh", "-c", "read spec; read until_closed"), "probe", stops_on_eof=True,
                        cells=(("r3", "r3.jsonl"),), first_input="[]\n")
    running = loads.RunningLoads(LocalLab(), RunFiles(tmp_path))
    running.start([dying, living])
    try:
        running.started[0].process.wait(10)
        assert running.ended() == ["client-r2: probe exited 2: probe: error: unrecognized arguments"]
    finally:
        running.stop(timeout_s=5)
    assert running.started == []


def test_the_cells_whose_client_or_sysbench_exited_are_named_and_samplers_are_not(tmp_path):
    dying = loads.Load("client-r2", None, ("sh", "-c", "read spec; exit 1"), "probe", stops_on_eof=True,
                       cells=(("r2", "r2.jsonl"), ("r3", "r3.jsonl")), first_input="[]\n", watched_as="client")
    crashed = loads.Load("client-r2", "sb.log", ("sh", "-c", "kill -SEGV $$"), "sysbench oltp_read_write",
                         cell="r4", watched_as="sysbench")
    sampler = loads.Load("client-r2", None, ("sh", "-c", "read spec; exit 0"), "ss", stops_on_eof=True,
                         cells=(("r2", "ss-r2"),), first_input="[]\n")
    running = loads.RunningLoads(LocalLab(), RunFiles(tmp_path))
    running.start([dying, crashed, sampler])
    try:
        for started in running.started:
            started.process.wait(10)
        assert running.exited_cells() == {"r2": ("client", "exited 1"), "r3": ("client", "exited 1"),
                                          "r4": ("sysbench", "exited -11")}
    finally:
        running.stop(timeout_s=5)


def test_a_load_its_stop_signal_never_reached_is_killed_when_the_time_is_up_and_named(tmp_path):
    deaf = loads.Load("client-r2", "pool.log", ("sleep", "30"), "pgbouncer /tmp/pool-r2.ini", stop_signal="TERM")
    ending = loads.Load("client-r2", None, ("sh", "-c", "read spec; read until_closed"), "probe", stops_on_eof=True,
                        cells=(("r2", "r2.jsonl"),), first_input="[]\n")
    running = loads.RunningLoads(LocalLab(), RunFiles(tmp_path))
    running.start([deaf, ending])
    assert running.stop(timeout_s=1.5) == ["client-r2: pgbouncer /tmp/pool-r2.ini"]
    assert running.started == [] and running.stopped.is_set()
