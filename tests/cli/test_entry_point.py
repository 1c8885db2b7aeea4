"""The lab's own command keeps its exit codes where make turns every failure into 2: invalid input
is 2 with nothing started, --json puts one object on stdout and the progress on stderr."""
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def blackhole(*words, **env):
    return subprocess.run([sys.executable, "-m", "harness", *words], cwd=REPO, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", **env}, timeout=120)


def test_invalid_input_is_2_and_said_in_one_line():
    done = blackhole("plan", "nosuch")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "no such scenario" in done.stderr
    assert blackhole("plan", "lvs-switchover", TCP_RETRIES2="0").returncode == 2
    # a folder's conflict with a knob: one line, without the list of knobs typed ones get
    done = blackhole("explain", "FROM=examples/incident-0312", "HAPROXY=inter=2")
    assert done.returncode == 2 and done.stderr == "blackhole: explain: keepalived and HAPROXY: one load balancer in front at a time\n"


def test_json_is_one_object_on_stdout():
    done = blackhole("--json", "plan", "lvs-switchover", TCP_RETRIES2="5")
    answer = json.loads(done.stdout)
    assert done.returncode == answer["exit_code"] == 0 and answer["command"] == "plan" and answer["error"] is None
    assert "tcp_retries2=5" in done.stderr                    # the plan itself went to stderr
    refused = json.loads(blackhole("--json", "plan", "lvs-switchover", KERNEL="9.9").stdout)
    assert refused["exit_code"] == 2 and "not a kernel series" in refused["error"]


def test_the_installed_command_runs_this_clones_harness_from_anywhere():
    """make's venv step installs .venv/bin/blackhole (scripts/blackhole); it finds its clone by
    its own path, so a CI job may call it from any directory."""
    command = REPO / ".venv" / "bin" / "blackhole"
    assert command.read_text() == (REPO / "scripts" / "blackhole").read_text()
    done = subprocess.run([str(command), "--version"], cwd="/", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("blackhole-lab ")
    done = subprocess.run([str(command), "plan", "lvs-switchover"], cwd="/", capture_output=True, text=True,
                          timeout=60, env={"PATH": "/usr/bin:/bin", "TCP_RETRIES2": "abc"})
    assert done.returncode == 2 and "TCP_RETRIES2='abc'" in done.stderr


def test_the_labs_own_defect_is_exit_4_with_its_traceback_and_json_stays_one_object(tmp_path):
    """A run directory whose events.jsonl holds a torn line with lines after it (the lab's writer
    never leaves one): what breaks is the lab's reading, said as its defect, never a bare traceback."""
    from harness import report
    from tests.unit.test_render import write_run
    run = write_run(tmp_path)
    report.render(run)
    with run.events_file.open("a") as events:
        events.write('{"t": 1, "source": "harness", "event": "fault"\n')
    done = blackhole("--json", "report", str(run.path))
    answer = json.loads(done.stdout)
    assert done.returncode == answer["exit_code"] == 4
    assert answer["error"].startswith("the lab's own defect, not your input: JSONDecodeError")
    assert "Traceback (most recent call last)" in done.stderr


def test_cluster_check_of_a_burst_scenario_is_refused_as_input_before_any_cluster_is_asked():
    done = blackhole("cluster-check", "backlog-overflow")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "backlog-overflow is a burst scenario" in done.stderr
