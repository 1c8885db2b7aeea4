"""A `harness run` started as its own process (as `make scenario=…` runs it), for tests that break
something under it: started, then waited for until its clients are going."""
import os
import subprocess
import sys
import time

from harness.lab import REPO
from harness.measure import run_phases
from harness.store import RunDir


def start(scenario_id, results, **env):
    """The run's process (its own session: a test can signal its whole group); env: overrides."""
    return subprocess.Popen([sys.executable, "-m", "harness", "run", scenario_id], cwd=REPO,
                            env={**os.environ, "BLACKHOLE_RESULTS": str(results), **env},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)


def clients_going(run, results, scenario_id, timeout_s):
    """The run's RunDir once its events say its loads are ready; fails with its output if it ended first."""
    deadline = time.time() + timeout_s
    while time.time() < deadline and run.poll() is None:
        found = [p for p in results.glob(f"{scenario_id}/*") if not p.is_symlink()]
        if found and '"loads_ready"' in RunDir(found[0]).read(RunDir(found[0]).events_file):
            return RunDir(found[0])
        time.sleep(0.3)
    raise AssertionError("the run never got its clients going:\n"
                         + (run.communicate()[0] if run.poll() is not None else f"(still running after {timeout_s} s)"))


def warm_up_end_t(run_dir, warmup_s):
    """When the run's warm-up would have ended (its events: every client answered, plus warmup_s):
    a run that noticed a breakage before then noticed it mid-run, not at its next phase."""
    return run_phases.first_t(run_dir.events(), "loads_ready") + warmup_s
