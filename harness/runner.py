"""One run of a scenario, on one timeline (the host's wall clock, which containers share).

  lab up -> env.json -> sysbench prepare -> loads start -> warm-up -> steps (faults, waits,
  heals) -> observe until every cell recovered or the limit -> faults undone, loads
  stopped, evidence collected, lab down (always: also on error and Ctrl-C) -> summary.
"""
import json
import signal
import subprocess
import sys
import time
from contextlib import contextmanager

import yaml

from . import environment, store
from .director import Director
from .faults import FAULTS
from .lab import ClientCell, Lab
from .load import probe, ss_sampler, sysbench, wrk
from .measure import sysbench_log
from .report import html as html_report
from .report import summary as summary_module
from .report.live import CellView, LiveView

RECOVERY_GRACE_S = 2.0        # keep watching this long after the last cell recovered
LOAD_MARGIN_S = 60.0          # loads run this much longer than the run could need, then stop by themselves


class EventLog:
    def __init__(self, path):
        self.path = path

    def add(self, event, t=None, **fields):
        record = {"t": t or time.time(), "source": "harness", "event": event, **fields}
        with open(self.path, "a") as f:
            f.write(json.dumps(record) + "\n")
        return record


def open_run(scenario_id, raw_definition, results):
    """A new run directory with the definition as run, and its event log."""
    run_dir = store.new_run_dir(scenario_id, results)
    (run_dir / "scenario.yaml").write_text(
        yaml.safe_dump({"id": scenario_id, "definition": raw_definition}, sort_keys=False))
    return run_dir, EventLog(run_dir / "events.jsonl")


@contextmanager
def ctrl_c_deferred():
    """Let cleanup finish even if Ctrl-C is pressed again."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class RunBase:
    """What every kind of run has: its scenario, the lab's project and environment, where
    results go, and a terminal to talk to."""

    def __init__(self, scenario, raw_definition, project="blackhole-lab", lab_env=None, results=store.RESULTS,
                 out=sys.stdout):
        self.scenario, self.raw = scenario, raw_definition
        self.project, self.lab_env, self.results, self.out = project, lab_env or {}, results, out

    def say(self, text):
        self.out.write(text + "\n")
        self.out.flush()


class Run(RunBase):
    """A failover run (see the module's docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.injected, self.processes, self.files = [], [], []

    def execute(self):
        s = self.scenario
        self.run_dir, self.events = open_run(s.id, self.raw, self.results)
        self.say(f"run: {s.id} -> {self.run_dir}")
        namespaces = {c.namespace: c.kernel_sysctls() for c in s.cells}
        cells = [ClientCell(name, sysctls) for name, sysctls in namespaces.items()]
        self.lab = Lab(project=self.project, cells=cells, datapath=s.datapath,
                       env={**self.lab_env, **s.lb.lab_env()}, workdir=self.run_dir / "lab")
        self.view = LiveView([CellView(c.name, self._cell_file(c, "probe.jsonl"),
                                       self._cell_file(c, "sysbench.log") if self._runs_sysbench(c) else None)
                              for c in s.cells], out=self.out)
        try:
            self._run()
        except KeyboardInterrupt:
            self.events.add("interrupted")
            self.say("run: interrupted; undoing faults and taking the lab down")
            raise
        except BaseException as exc:
            self.events.add("failed", error=repr(exc))
            raise
        finally:
            with ctrl_c_deferred():
                self._cleanup()
        return self.run_dir

    def _cell_file(self, cell, name):
        return store.cell_dir(self.run_dir, cell.name) / name

    def _runs_sysbench(self, cell):
        return bool(self.scenario.sysbench) and cell.sysbench

    def _run(self):
        s = self.scenario
        self.say(f"run: bringing the lab up ({len(s.cells)} client cell(s) in "
                 f"{len({c.namespace for c in s.cells})} client container(s)) ...")
        self.lab.up()
        self.director = Director(self.lab)
        self.events.add("lab_up", datapath=self.director.datapath)
        env = environment.collect(self.lab, self.director, s)
        (self.run_dir / "env.json").write_text(json.dumps(env, indent=1) + "\n")
        self.say(f"run: kernel {env['kernel']}, datapath {env['datapath']}")
        vip = self.director.vip_address()
        if s.sysbench:
            self.say("run: sysbench prepare ...")
            self.lab.exec(s.cells[0].service, sysbench.prepare_command(s.sysbench, vip), timeout=300)
        self._start_loads(vip)
        self._watch(time.time() + s.warmup_s)
        self._snapshot_flows("before-fault")
        for index, step in enumerate(s.steps):
            self._step(index, step)
        self._snapshot_flows("after-steps")
        self._watch(self.view.limit_at, stop_when_recovered=True)
        self.events.add("observe_end", all_recovered=self.view.all_recovered())

    def _start_loads(self, vip):
        s = self.scenario
        duration = s.warmup_s + sum(st.seconds for st in s.steps) + s.observe_s + LOAD_MARGIN_S
        loads = []
        for cell in s.cells:
            loads.append((cell.service, self._cell_file(cell, "probe.jsonl"), probe.command(s, cell, vip, duration),
                          probe.PROCESS))
            if self._runs_sysbench(cell):
                loads.append((cell.service, self._cell_file(cell, "sysbench.log"),
                              sysbench.run_command(s.sysbench, vip, duration, cell.socket_env()), sysbench.PROCESS))
        for namespace, service in sorted({(c.namespace, c.service) for c in s.cells}):
            path = self.run_dir / "namespaces" / namespace / "ss.txt"
            path.parent.mkdir(parents=True, exist_ok=True)
            loads.append((service, path, ss_sampler.command(vip, duration), ss_sampler.PROCESS))
        if s.wrk:
            path = self.run_dir / "load" / "wrk.log"
            path.parent.mkdir(exist_ok=True)
            loads.append((s.cells[0].service, path, wrk.command(s.wrk, vip, duration), wrk.PROCESS))
        for service, path, command, process_pattern in loads:
            f = open(path, "w")
            self.files.append(f)
            self.processes.append((service, process_pattern, self.lab.spawn(service, command, stdout=f)))
        self.events.add("load_start", cells=[c.name for c in s.cells])
        self.view.note(f"load started; warm-up {s.warmup_s:g} s")

    def _step(self, index, step):
        if step.kind == "wait":
            self.view.note(step.describe())
            self._watch(time.time() + step.seconds)
            return
        if step.kind == "heal":
            fault = next(f for f in reversed(self.injected) if f.name == step.name)
            started = time.time()
            fault.recover()
            self.events.add("heal", name=step.name, step=index, started_t=started)
            self.view.note(step.describe())
            return
        fault = FAULTS[step.name](self.lab, **dict(step.params))
        started = time.time()
        details = fault.inject() or {}
        self.injected.append(fault)
        done = time.time()
        # t: when it took effect if the fault knows (landed_t), else when the step started;
        # uncertainty_s: how much later than t it may have taken effect.
        t = details.get("landed_t", started)
        uncertainty = details.get("uncertainty_s", done - started)
        if self.view.t_fault is None:
            self.view.fault_started(t, self.scenario.observe_s)
        self.events.add("fault", t=t, started_t=started, done_t=done, uncertainty_s=round(uncertainty, 3),
                        name=step.name, params=dict(step.params), step=index)
        self.view.note(f"{step.describe()} (took {done - started:.2f} s)", started)

    def _watch(self, until, stop_when_recovered=False):
        recovered_at = None
        while time.time() < until:
            time.sleep(max(0.0, 1 - (time.time() - self.view.started) % 1))
            now = time.time()
            self.view.tick(now)
            if stop_when_recovered and self.view.all_recovered():
                recovered_at = recovered_at or now
                if now - recovered_at >= RECOVERY_GRACE_S:
                    self.view.note("every client recovered")
                    return

    def _snapshot_flows(self, label):
        (self.run_dir / "director").mkdir(exist_ok=True)
        flows = self.lab.exec("director", ["lbctl", "flows"], check=False).stdout
        (self.run_dir / "director" / f"flows-{label}.txt").write_text(flows)

    def _cleanup(self):
        for fault in reversed(self.injected):
            try:
                fault.recover()
                self.events.add("recovered", name=fault.name)
            except Exception as exc:          # cleanup goes on; the failure is recorded
                self.events.add("recover_failed", name=fault.name, error=repr(exc))
        self._stop_loads()
        if hasattr(self, "director"):
            self._collect_logs()
        try:
            self.lab.down()
        finally:
            self.events.add("lab_down")
            self._merge_client_events()
            summary = summary_module.write(self.run_dir)
            store.link_latest(self.run_dir)
            if summary["cells"]:
                self.say("\n" + summary_module.terminal_table(summary))
                page = html_report.render_run(self.run_dir, summary)
                self.say(f"\nrun: report {page}")
            self.say(f"run: results in {self.run_dir}")

    def _stop_loads(self):
        for service, pattern, _ in self.processes:
            self.lab.exec(service, ["pkill", "-INT", "-f", pattern], check=False)
        for _, _, process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for f in self.files:
            f.close()

    def _collect_logs(self):
        logs = self.run_dir / "logs"
        logs.mkdir(exist_ok=True)
        self._snapshot_flows("end")
        for service in self.lab.services():
            try:
                (logs / f"{service}.log").write_text(self.lab.logs(service))
            except Exception as exc:
                (logs / f"{service}.log").write_text(f"(no logs: {exc})\n")

    def _merge_client_events(self):
        """events.jsonl becomes the one timeline: harness steps and every client operation."""
        records = summary_module.read_events(self.run_dir)
        for cell in self.scenario.cells:
            for op in probe.parse(self._read(self._cell_file(cell, "probe.jsonl"))):
                records.append({"t": op["t1"], "source": f"{cell.name}/probe", "event": "operation", **op})
            for r in sysbench_log.parse(self._read(self._cell_file(cell, "sysbench.log"))):
                records.append({"t": r.t, "source": f"{cell.name}/sysbench", "event": "report", **r.__dict__})
        records.sort(key=lambda r: r["t"])
        self.events.path.write_text("".join(json.dumps(r) + "\n" for r in records))

    @staticmethod
    def _read(path):
        return path.read_text() if path.exists() else ""
