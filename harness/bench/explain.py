"""make bench-explain: how long an operator waits for `make explain`, warm (the venv made, the
files in the page cache): each question asked once to warm, then ROUNDS times through make (the
edge check, the venv's stamp, the harness) and through the lab's own command alone. Prints the
median and the slowest per question; stores them (benchmarks/explain.jsonl)."""
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

from . import store
from ..lab.compose import REPO

QUESTIONS = (("the seed", ()), ("a driver", ("CLIENT=jdbc", "socketTimeout=3000")),
             ("keepalived", ("DELAY_LOOP=5", "EXPIRE_NODEST_CONN=1")),
             ("haproxy", ("HAPROXY=inter=2 fall=3 timeout_server=10",)),
             ("an incident's folder", ("FROM=examples/incident-0312",)))
ROUNDS = 5


def timed(command: Sequence[str]) -> float:
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    started = time.monotonic()
    subprocess.run(command, cwd=REPO, check=True, capture_output=True, env=env, timeout=120)
    return time.monotonic() - started


def one(words: Sequence[str]) -> dict[str, float]:
    through_make = ["make", "-s", "--no-print-directory", "explain", *words]
    alone = [sys.executable, "-m", "harness", "explain", *words]
    timed(through_make)
    make_s = [timed(through_make) for _ in range(ROUNDS)]
    alone_s = [timed(alone) for _ in range(ROUNDS)]
    return {"make_median_s": round(statistics.median(make_s), 3), "make_max_s": round(max(make_s), 3),
            "harness_median_s": round(statistics.median(alone_s), 3), "harness_max_s": round(max(alone_s), 3)}


def main() -> None:
    rows = []
    for name, words in QUESTIONS:
        rows.append({"question": name, "words": list(words), **one(words)})
        print(f"bench-explain: {name}: make {rows[-1]['make_median_s']} s (slowest {rows[-1]['make_max_s']}), "
              f"the harness alone {rows[-1]['harness_median_s']} s", flush=True)
    load = os.getloadavg()[0]
    path = store("explain", {"rounds": ROUNDS, "load_1min": round(load, 2), "questions": rows})
    print(f"load average {load:.2f} (a busy machine's figures are slower); stored: {path.name}")


if __name__ == "__main__":
    main()
