"""sysbench started ahead of its tables (harness/load/sysbench.py): its command waits for a gate
file that prepare makes, then runs at once; a gate never opened ends it with a line saying so.
The gate is the image's /bin/sh, run here by this machine's."""
import subprocess
import threading
import time

from harness import scenario
from harness.load import probe, sysbench
from harness.load.clients import CLIENTS, DEFAULT_CLIENT
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


def test_the_jvm_clients_start_with_the_probes_and_wait_at_their_own_gate_the_others_after(tmp_path):
    parsed, raw = scenario.load("client-zoo")
    run = RunDir.create(parsed.id, raw, tmp_path)
    planned = planned_loads(LoadPlan(parsed, run, "10.213.1.10", "ipvs", client_gate=("/tmp/clients-go", 600)))
    first, rest = early_probes(planned)
    jvm = {c.name for c in parsed.cells if CLIENTS[c.client].runtime == "JVM"}
    others = {c.name for c in parsed.cells if c.client not in (DEFAULT_CLIENT,) and c.name not in jvm}
    assert jvm and others
    assert {load.cell for load in first if load.cell} == jvm and all(load.gated for load in first if load.cell)
    for load in first:
        if load.cell:
            assert "ZOO_GATE=/tmp/clients-go" in load.command and "ZOO_GATE_LIMIT_S=600" in load.command
    assert others <= {load.cell for load in rest}
    assert not any("ZOO_GATE" in " ".join(load.command) for load in rest)
    ungated = planned_loads(LoadPlan(parsed, run, "10.213.1.10", "ipvs"))
    assert not any(load.gated or "ZOO_GATE" in " ".join(load.command) for load in ungated)
    assert {load.cell for load in early_probes(ungated)[0] if load.cell} == set()
