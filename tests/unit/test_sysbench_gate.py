"""sysbench started ahead of its tables (harness/load/sysbench.py): its command waits for a gate
file that prepare makes, then runs at once; a gate never opened ends it with a line saying so.
The gate is the image's /bin/sh, run here by this machine's."""
import subprocess
import threading
import time

from harness import scenario
from harness.load import probe, sysbench
from harness.run.loads import early_probes, other_sysbench_containers
from harness.signals import LoadPlan, planned_loads
from harness.store import RunDir


def _gate_argv(command):
    """The `sh -c GATE_SCRIPT ...` part of a gated run command, then `echo` in place of the rest."""
    start = command.index("sh")
    return command[start:start + 6] + ["echo", "sysbench ran"]


def test_the_gated_command_runs_once_the_gate_file_exists(tmp_path):
    gate = tmp_path / "go"
    command = sysbench.run_command(scenario.load("lvs-switchover")[0].sysbench, "10.213.1.10", 60, gate=(str(gate), 30))
    assert command[0] == "stamp" and command.index("sh") < command.index("sysbench")
    opened_at = []

    def open_gate():
        time.sleep(0.5)
        opened_at.append(time.monotonic())
        gate.touch()
    threading.Thread(target=open_gate).start()
    result = subprocess.run(_gate_argv(command), capture_output=True, text=True, timeout=30)
    ended = time.monotonic()
    assert (result.returncode, result.stdout) == (0, "sysbench ran\n")
    assert opened_at and opened_at[0] <= ended


def test_a_gate_never_opened_ends_the_command_with_a_line_saying_so(tmp_path):
    command = sysbench.run_command(scenario.load("lvs-switchover")[0].sysbench, "10.213.1.10", 60,
                                   gate=(str(tmp_path / "never"), 0.3))
    result = subprocess.run(_gate_argv(command), capture_output=True, text=True, timeout=30)
    assert result.returncode == 1 and "not told to start" in result.stdout and "sysbench ran" not in result.stdout


def test_prepare_opens_the_gate_only_when_its_tables_are_made(tmp_path):
    spec = scenario.load("lvs-switchover")[0].sysbench
    command = sysbench.prepare_command(spec, "10.213.1.10", opens_gate=str(tmp_path / "go"))
    assert command[-1] == "prepare"
    failing = command[:4] + ["false"]
    assert subprocess.run(failing).returncode == 1 and not (tmp_path / "go").exists()
    assert subprocess.run(command[:4] + ["true"]).returncode == 0 and (tmp_path / "go").exists()
    assert sysbench.prepare_command(spec, "10.213.1.10")[0] == "sysbench"


def test_a_gated_sysbench_starts_with_the_probes_and_an_ungated_one_after(tmp_path):
    parsed, raw = scenario.load("lvs-switchover")
    run = RunDir.create(parsed.id, raw, tmp_path)
    gated = planned_loads(LoadPlan(parsed, run, "10.213.1.10", "ipvs", sysbench_gate=("/tmp/go", 600)))
    first, rest = early_probes(gated, armed=(sysbench.PROCESS,))
    assert {probe.PROCESS, sysbench.PROCESS} <= {load.process_pattern for load in first}
    assert all(load.process_pattern != sysbench.PROCESS for load in rest)
    [load] = [load for load in first if load.process_pattern == sysbench.PROCESS]
    assert "/tmp/go" in load.command
    ungated = planned_loads(LoadPlan(parsed, run, "10.213.1.10", "ipvs"))
    first, rest = early_probes(ungated)
    assert [load for load in rest if load.process_pattern == sysbench.PROCESS]
    assert all("sysbench-gate" not in load.command for load in ungated)


def test_the_gate_is_opened_in_every_other_container_running_a_cells_sysbench():
    parsed, _ = scenario.load("iptables-drop")          # sysbench beside client-r3's cell and client-r15's
    assert other_sysbench_containers(parsed, lambda service: (service, None)) == ["client-r15"]
    assert other_sysbench_containers(parsed, lambda service: ("client-netns", f"/run/netns/{service}")) == []
