"""make soak-interrupt [RUNS=20] [SEED=n]: runs interrupted at random moments, each checked.

Each run is the seed scenario at the kernel default (it would hang ~940 s, so every moment is
mid-run), sent SIGINT or SIGTERM (alternating) after a random delay that spans the lab coming
up, the clients starting, the warm-up, the steps and the hang. A run passes when it exits with
128 + the signal, leaves no container, network or network namespace of its own, and its
summary says it was interrupted, when and where. The seed is printed so a failure can be replayed.
"""
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence, Set as AbstractSet
from pathlib import Path
from typing import IO, Any

from .bench import store
from .lab import REPO, HostEngine, labelled_leftovers, listed_again_if_one_vanished
from .lab.cleanup import clean, owned_by
from .store import RunDir, bench_dir

SCENARIO = "lvs-switchover"
LATEST_S = 45.0               # the latest moment a signal is sent (the hang is still on by then)
CLEANUP_LIMIT_S = 300.0       # how long a run may take to end after its signal
DOCKER_NETNS = Path("/var/run/docker/netns")


def mounted_netns() -> set[str]:
    """Docker's network namespaces in use. Docker unmounts a container's namespace when it goes
    but deletes the empty file up to a minute later, so only mounted ones count."""
    return {str(p) for p in DOCKER_NETNS.iterdir() if os.path.ismount(p)} if DOCKER_NETNS.exists() else set()


def leaked_netns(before: AbstractSet[str], settle_s: float = 2.0) -> list[str]:
    """Namespaces mounted since `before` that no container holds: another lab's live containers
    (someone else's run) are not this run's leak. One that another lab's container was getting or
    losing while we looked is held, or gone, a moment later: only what two looks agree on counts."""
    def unheld() -> set[str]:
        held = set(listed_again_if_one_vanished(
            lambda: [str(c.network_settings.sandbox_key) for c in HostEngine().docker().container.list(all=True)]))
        return mounted_netns() - before - held
    first = unheld()
    if not first:
        return []
    time.sleep(settle_s)
    return sorted(first & unheld())


def one_run(index: int, delay_s: float, signum: signal.Signals, out: IO[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="blackhole-soak-") as results:
        netns_before = mounted_netns()
        env = {**os.environ, "BLACKHOLE_RESULTS": results, "WARMUP_S": "10"}
        started = time.monotonic()
        log = Path(results) / "run.log"
        with log.open("wb") as written:
            run = subprocess.Popen([sys.executable, "-m", "harness", "run", SCENARIO], cwd=REPO, env=env,
                                   stdout=written, stderr=subprocess.STDOUT, start_new_session=True)
        signalled = time.monotonic()
        try:
            run.wait(timeout=delay_s)
        except subprocess.TimeoutExpired:
            signalled = time.monotonic()
            os.killpg(run.pid, signum)
        code = ended_within(run, CLEANUP_LIMIT_S)
        ended_s, after_signal_s = time.monotonic() - started, time.monotonic() - signalled
        runs = [p for p in Path(results).glob(f"{SCENARIO}/*") if not p.is_symlink()]
        status: dict[str, Any] = {}
        left = {"yours": owned_by(run.pid)}
        if runs:
            run_dir = RunDir(runs[0])
            if run_dir.summary_json.exists():
                status = run_dir.summary().get("status") or {}
            project = run_dir.lab_project()
            left.update(labelled_leftovers(project=project) if project else {})
        result = {"run": index, "signal": signal.Signals(signum).name, "after_s": round(delay_s, 1),
                  "exit": code, "ended_s": round(ended_s, 1), "status": status or None,
                  "left": {k: v for k, v in left.items() if v}, "netns_left": leaked_netns(netns_before)}
        if code is None and result["left"]:
            clean()             # what the killed run left: its owner is gone, so nobody else's
        # A signal that lands while Python is still starting meets its default action: the process
        # dies of it before the harness has made a run directory or anything of a lab's.
        before_start = code == -signum and not runs
        interrupted = (code == 128 + signum and status.get("state") == "interrupted"
                       and status.get("by") == result["signal"])
        result["ok"] = (interrupted or before_start) and not result["left"] and not result["netns_left"]
        what = "killed before it started" if before_start else (
            f"{status.get('state', 'no summary')} while {status.get('phase', '?')}")
        if code is None:
            what = f"still running {CLEANUP_LIMIT_S:g} s after its signal (killed): {what}"
        out.write(f"  {index + 1:2d}  {result['signal']:7} after {delay_s:5.1f} s  exit {code}  {what}  "
                  f"ended {after_signal_s:.1f} s after the signal  "
                  f"left {result['left'] or 'nothing'}  {'ok' if result['ok'] else 'FAILED'}\n")
        if not result["ok"]:
            kept = bench_dir() / f"soak-interrupt-failed-{time.strftime('%Y%m%dT%H%M%S')}-run{index + 1}"
            shutil.copytree(results, kept, symlinks=True)
            out.write(f"      its run directory and output are kept in {kept}; its output, the end:\n" + "".join(
                f"      | {line}\n" for line in log.read_text(errors="replace").splitlines()[-40:]))
        out.flush()
        return result


def ended_within(run: subprocess.Popen, limit_s: float) -> int | None:
    """The run's exit code once it ends, or None when it is still running limit_s on: then its
    whole process group is killed (and reaped), so nothing of it outlives the soak."""
    try:
        return run.wait(timeout=limit_s)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(run.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        run.wait()
        return None


def soak(runs: int, seed: int, out: IO[str] = sys.stdout) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out.write(f"soak-interrupt: {runs} runs of {SCENARIO}, seed {seed}\n")
    results = [one_run(i, rng.uniform(0.5, LATEST_S), signal.SIGINT if i % 2 == 0 else signal.SIGTERM, out)
               for i in range(runs)]
    passed = sum(r["ok"] for r in results)
    out.write(f"soak-interrupt: {passed}/{runs} ended cleanly (seed {seed})\n")
    return results


def main(argv: Sequence[str]) -> int:
    runs = int(argv[0]) if argv else 20
    seed = int(argv[1]) if len(argv) > 1 else random.SystemRandom().randrange(10**6)
    results = soak(runs, seed)
    path = store("soak-interrupt", {"runs": runs, "seed": seed, "passed": sum(r["ok"] for r in results),
                                     "results": results})
    print(f"stored: {path}")
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
