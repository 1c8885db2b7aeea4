"""make bench-up: cold image build, warm `up --wait`, and `down`, timed.

Targets on a 2-core machine: cold build <= 10 min (what a fresh machine's `make setup` may spend on
images: Debian packages, the zoo's JDK, Go and npm stages), warm up <= 30 s, down <= 10 s (printed,
not asserted). Image sizes are stored too: the client zoo made the client image the big one.
"""
import time
from collections.abc import Callable
from typing import Any

from . import store
from ..lab import ComposeLab, HostEngine, LabRequest, image_sizes_mb

PROJECT = "blackhole-lab-bench"
WARM_RUNS = 3
COLD_BUILD_TARGET_S = 600


def timed(action: Callable[[], object]) -> float:
    start = time.monotonic()
    action()
    return round(time.monotonic() - start, 2)


def main() -> None:
    engine = HostEngine()
    lab = ComposeLab(LabRequest(project=PROJECT), engine=engine)
    print("bench-up: cold build (no layer cache; base image kept) ...", flush=True)
    ups: list[float] = []
    downs: list[float] = []
    figures: dict[str, Any] = {"datapath": lab.datapath, "cold_build_s": timed(lambda: lab.build(no_cache=True)),
                               "warm_up_s": ups, "down_s": downs}
    try:
        for run in range(WARM_RUNS):
            ups.append(timed(lab.up))
            downs.append(timed(lab.down))
            print(f"bench-up: run {run + 1}: up {ups[-1]} s, down {downs[-1]} s", flush=True)
    finally:
        lab.down()
    figures["image_mb"] = image_sizes_mb(engine)
    figures["warm_up_s_median"] = sorted(ups)[WARM_RUNS // 2]
    figures["down_s_median"] = sorted(downs)[WARM_RUNS // 2]
    path = store("up", figures)
    print(f"cold build      {figures['cold_build_s']:7.2f} s  (target <= {COLD_BUILD_TARGET_S} s)")
    print("images          " + ", ".join(f"{name} {mb} MB" for name, mb in figures["image_mb"].items()))
    print(f"warm up --wait  {figures['warm_up_s_median']:7.2f} s  (median of {WARM_RUNS}; target <= 30 s)")
    print(f"down            {figures['down_s_median']:7.2f} s  (median of {WARM_RUNS}; target <= 10 s)")
    print(f"stored: {path.relative_to(path.parents[2])}")


if __name__ == "__main__":
    main()
