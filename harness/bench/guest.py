"""make bench-guest [KERNELS="6.1 6.12"]: what running the lab in a guest kernel costs.

Per kernel: the guest disk built from nothing (root filesystem, images, ext4 image: in a
throwaway cache, once), then with the real cache: boot to ssh, Docker engine ready, lab up,
and one short scenario (lvs-switchover, tcp_retries2=5, 10 s warm-up) end to end.
"""
import io
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any

from . import store
from .. import scenario
from ..lab import LabRequest, engine_for, host_image_keys, save_host_images
from ..lab.guest import GuestEngine, disk as guest_disk
from ..pipeline import run_and_report

PROJECT = "blackhole-lab-bench-guest"
SCENARIO, OVERRIDES = "lvs-switchover", {"TCP_RETRIES2": "5", "warmup_s": 10}


def cold_disk_build_s() -> float:
    previous = os.environ.get("BLACKHOLE_CACHE")
    with tempfile.TemporaryDirectory(prefix="blackhole-bench-cache-") as cache:
        os.environ["BLACKHOLE_CACHE"] = cache
        try:
            started = time.monotonic()
            guest_disk.ensure(host_image_keys(), save_host_images, say=lambda text: None)
            return round(time.monotonic() - started, 1)
        finally:
            if previous is None:
                del os.environ["BLACKHOLE_CACHE"]
            else:
                os.environ["BLACKHOLE_CACHE"] = previous


def measure(spec: str) -> dict[str, Any]:
    figures: dict[str, object] = {}
    with engine_for(spec, out=io.StringIO()) as engine:
        if not isinstance(engine, GuestEngine):
            raise ValueError(f"{spec}: bench-guest measures a guest's kernel, not this host's")
        started = time.monotonic()
        engine.ensure_started()
        figures.update(kernel=engine.kernel_release(), start_s=round(time.monotonic() - started, 1), **engine.timings)
        lab = engine.lab_of_shape(LabRequest(project=PROJECT, servers=("db-primary", "db-replica")))
        started = time.monotonic()
        lab.up(timeout_s=600)
        figures["lab_up_s"] = round(time.monotonic() - started, 1)
        lab.down()
        parsed, raw = scenario.load(SCENARIO, OVERRIDES)
        started = time.monotonic()
        run = run_and_report(parsed, raw, project=PROJECT, engine=engine, out=io.StringIO())
        figures["short_scenario_s"] = round(time.monotonic() - started, 1)
        [cell] = run.summary()["cells"]
        figures["short_scenario_detect_s"] = cell["probe"]["detect_s"]
        figures["short_scenario_run"] = str(run.path)
    return figures


def main(kernels: Sequence[str]) -> None:
    kernels = [k for k in kernels if k != "host"] or ["6.1", "6.12"]
    print("bench-guest: cold disk build (throwaway cache) ...", flush=True)
    kernel_figures: dict[str, dict[str, Any]] = {}
    figures = {"cold_disk_build_s": cold_disk_build_s(), "kernels": kernel_figures}
    print(f"  guest disk from nothing   {figures['cold_disk_build_s']:7.1f} s", flush=True)
    for spec in kernels:
        print(f"bench-guest: {spec} ...", flush=True)
        k = kernel_figures[spec] = measure(spec)
        print(f"  {spec} ({k['kernel']}): boot {k['boot_s']} s, engine +{k['engine_ready_s']} s, "
              f"lab up {k['lab_up_s']} s, {SCENARIO} r5 end to end {k['short_scenario_s']} s "
              f"(detect {k['short_scenario_detect_s']} s)", flush=True)
    path = store("guest", figures)
    print(f"stored: {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
