"""The node agent's exec sessions, with this machine's bash as the node (no kubectl before it):
the loop and the framing are the ones the lab sends to a node."""
import subprocess
import threading
import time

import pytest

from harness.errors import LabError
from harness.lab.cluster import agent_session
from harness.lab.cluster.agent_session import SessionPool

HERE = [], False             # no transport, no namespaces to enter: the session's loop runs here


@pytest.fixture
def pool():
    sessions = SessionPool(*HERE)
    yield sessions
    sessions.close()


def test_a_command_gives_its_exit_output_and_error_and_reads_its_stdin(pool):
    result = pool.run("read -r line; echo \"got $line\"; echo 'to stderr' >&2; exit 3", 10, stdin="a b  c\n")
    assert (result.returncode, result.stdout, result.stderr) == (3, "got a b  c\n", "to stderr\n")
    empty = pool.run("true", 10)
    assert (empty.returncode, empty.stdout, empty.stderr) == (0, "", "")


def test_output_of_any_size_and_bytes_comes_back_whole(pool):
    result = pool.run("head -c 300000 /dev/zero | tr '\\0' x; printf '\\n\\t\\xc3\\xa9 \\\\ end'", 30)
    assert result.stdout == "x" * 300000 + "\n\té \\ end"


def loop_of(pool, command="true", timeout=10):
    """The session's loop that ran the command: its parent process."""
    return int(pool.run(f"{command}; echo $PPID", timeout).stdout.split()[-1])


def test_commands_in_turn_share_one_session(pool):
    assert len({loop_of(pool) for _ in range(5)}) == 1


def test_a_command_past_its_time_is_ended_on_the_node_and_the_session_goes_on(pool):
    before = loop_of(pool)
    started = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        pool.run("sleep 20", 1)
    assert time.monotonic() - started < 15          # the node's timeout, not the session's 20 s sleep
    assert loop_of(pool) == before


def test_a_command_past_its_time_is_killed_with_what_it_started(pool, tmp_path):
    with pytest.raises(subprocess.TimeoutExpired):
        pool.run(f"trap '' TERM; (sleep 3; touch {tmp_path}/late) & sleep 20", 1)
    time.sleep(4)
    assert not (tmp_path / "late").exists()


def test_a_node_that_never_answers_is_given_up_after_the_commands_time_and_the_transports(monkeypatch):
    monkeypatch.setattr(agent_session, "TRANSPORT_S", 0.5)
    hung = SessionPool(["bash", "-c", 'read -r _; sleep 30', "--"], False)
    started = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        hung.run("true", 1)
    assert time.monotonic() - started < 20          # given up (and killed), not waited out for 30 s
    hung.close()


def test_a_session_whose_transport_ends_says_so_in_one_line():
    gone = SessionPool(["bash", "-c", "echo 'error: pod node-agent not found' >&2; exit 1", "--"], False)
    with pytest.raises(LabError, match="exec session .*pod node-agent not found"):
        gone.run("true", 10)
    gone.close()


def test_commands_of_several_threads_run_side_by_side_on_sessions_of_their_own(pool, tmp_path):
    """Each command waits until all three have started: in turn on one session, the first would
    wait alone until its time ran out."""
    loops = {}

    def run(name):
        loops[name] = loop_of(pool, f"touch {tmp_path}/{name}; until [ -e {tmp_path}/a ] && [ -e {tmp_path}/b ] && "
                                    f"[ -e {tmp_path}/c ]; do sleep 0.05; done", 30)
    threads = [threading.Thread(target=run, args=(n,)) for n in ("a", "b", "c")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(loops) == ["a", "b", "c"] and len(set(loops.values())) == 3


def test_a_command_busy_when_the_pool_closes_ends_its_session_once_done(tmp_path):
    pool = SessionPool(*HERE)
    loops = []
    busy = threading.Thread(target=lambda: loops.append(loop_of(pool, f"until [ -e {tmp_path}/go ]; do sleep 0.05; done", 30)))
    busy.start()
    while not pool._idle:          # its spare started beside it
        time.sleep(0.01)
    pool.close()
    (tmp_path / "go").touch()
    busy.join()
    assert pool._idle == [] and subprocess.run(["kill", "-0", str(loops[0])], capture_output=True).returncode != 0
