"""The loads a run stops by closing their stdin (no exec into a container: on a busy emulated guest a
round of pkills took ~8 s, and the JVMs were killed at the stop's limit): a zoo JVM with
ZOO_STOP_ON_EOF=1 and the writer with WRITER_STOP_ON_EOF=1 end once their stdin closes, long
before their duration, the writer with its end line; without the variable, stdin's end changes
nothing (a program started by hand with no stdin runs on)."""
import json
import threading
import time

import pytest

CLIENT = "client-r5"
DURATION_S = "600"                 # far longer than any wait below: an end before it is the stop's
ANSWERED_LIMIT_S = 180             # a JVM's start in a busy lab: the first answer comes within this
STILL_RUNNING_S = 5.0              # without the variable, it is still running this long after stdin's end
ENDED_LIMIT_S = 60                 # the stop: the program ends within this of stdin's end (its duration is 600 s)


def lines_of(process):
    """(its stdout's lines as they come, the thread collecting them: joined, it has read to the end)."""
    seen = []

    def read():
        for line in process.stdout:
            seen.append(line.rstrip("\n"))
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return seen, reader


def first_answer(seen, process):
    deadline = time.monotonic() + ANSWERED_LIMIT_S
    while time.monotonic() < deadline and process.poll() is None:
        if any('"ok": true' in line or '"outcome": "ack"' in line for line in seen):
            return
        time.sleep(0.2)
    raise AssertionError(f"no answer within {ANSWERED_LIMIT_S} s: {seen[-5:]}")


PROGRAMS = {
    "jvm": (["zoo-jdbc", "{vip}", "3306", "200", DURATION_S], "ZOO_STOP_ON_EOF=1", 130),
    "writer": (["writer", "{vip}", "3306", "2", DURATION_S, "1"], "WRITER_STOP_ON_EOF=1", 0),
}


@pytest.mark.parametrize("program", sorted(PROGRAMS))
@pytest.mark.parametrize("told", [True, False], ids=["with the variable", "without"])
def test_a_load_ends_at_its_stdins_end_only_when_told_to(lab, program, told):
    argv, variable, exit_code = PROGRAMS[program]
    vip = lab.address("director", "front")
    command = ["env", *([variable] if told else []), *(a.format(vip=vip) for a in argv)]
    process = lab.spawn(CLIENT, command)
    try:
        seen, reader = lines_of(process)
        first_answer(seen, process)
        process.stdin.close()
        if told:
            assert process.wait(timeout=ENDED_LIMIT_S) == exit_code, seen[-5:]
            reader.join(timeout=ENDED_LIMIT_S)     # its last lines may still be in the pipe when it has exited
            if program == "writer":
                assert "end" in json.loads(seen[-1]), seen[-3:]
        else:
            time.sleep(STILL_RUNNING_S)
            assert process.poll() is None, seen[-5:]
    finally:
        lab.exec(CLIENT, ["pkill", "-INT", "-f", "JdbcProbe|writer"], check=False)
        if process.poll() is None:
            process.kill()
        process.wait()
