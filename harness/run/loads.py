"""The client programs of a failover run: which run where, writing what, and stopping them."""
import dataclasses
import subprocess
import time

from ..load import flow_sampler, probe, ss_sampler, sysbench, wrk, zoo
from ..scenario.clients import DEFAULT_CLIENT
from ..topology import DIRECTOR

LOAD_MARGIN_S = 60.0          # loads run this much longer than the run could need, then stop by themselves


@dataclasses.dataclass(frozen=True)
class Load:
    service: str              # the container it runs in
    output: object            # the run's file its stdout goes to
    command: tuple
    process_pattern: str      # what `pkill -f` matches to stop it
    cell: str = None          # the cell whose probe it is (the harness can tell it things)


def planned(scenario, run, vip, datapath):
    """Every load the scenario needs, each bounded in time by its own command line."""
    s = scenario
    duration = s.warmup_s + sum(st.seconds for st in s.steps) + s.observe_s + LOAD_MARGIN_S
    loads = []
    for cell in s.cells:
        if cell.client == DEFAULT_CLIENT:
            loads.append(Load(cell.service, run.probe_log(cell.name), tuple(probe.command(s, cell, vip, duration)),
                              probe.PROCESS, cell=cell.name))
        else:
            loads.append(Load(cell.service, run.probe_log(cell.name), tuple(zoo.command(s, cell, vip, duration)),
                              zoo.PROCESSES[cell.client], cell=cell.name))
        if s.runs_sysbench(cell):
            loads.append(Load(cell.service, run.sysbench_log(cell.name),
                              tuple(sysbench.run_command(s.sysbench, vip, duration, cell.socket_env())),
                              sysbench.PROCESS))
    for namespace, service in sorted({(c.namespace, c.service) for c in s.cells}):
        loads.append(Load(service, run.ss_samples(namespace), tuple(ss_sampler.command(vip, duration)),
                          ss_sampler.PROCESS))
    if s.wrk:
        loads.append(Load(s.cells[0].service, run.wrk_log(), tuple(wrk.command(s.wrk, vip, duration)), wrk.PROCESS))
    loads.append(Load(DIRECTOR, run.director_flow_samples(), tuple(flow_sampler.command(duration, datapath)),
                      flow_sampler.PROCESS))
    return loads


class RunningLoads:
    """Started loads: their processes (the lab's exec sessions) and open output files."""

    def __init__(self, lab, run):
        self.lab, self.run = lab, run
        self.started = []         # (Load, Popen, file)

    def start(self, loads):
        for load in loads:
            f = self.run.open(load.output)
            self.started.append((load, self.lab.spawn(load.service, list(load.command), stdout=f), f))

    def tell(self, cell, text):
        """Write a line to a cell's probe (probe.IDLE_COMMAND)."""
        for load, process, _ in self.started:
            if load.cell == cell:
                process.stdin.write(text)
                process.stdin.flush()

    def stop(self, timeout_s=10):
        """Ask each to stop (SIGINT in its container), give them all timeout_s together, then kill
        what is left (its exec session; the container goes down with the lab)."""
        # one pkill per container and program, however many cells run it there
        for service, pattern in dict.fromkeys((load.service, load.process_pattern) for load, _, _ in self.started):
            self.lab.exec(service, ["pkill", "-INT", "-f", pattern], check=False)
        deadline = time.monotonic() + timeout_s
        for _, process, f in self.started:
            try:
                process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            f.close()
        self.started = []
