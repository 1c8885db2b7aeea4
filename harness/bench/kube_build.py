"""make bench-kube: what the kube-proxy control plane's programs cost. The cold build of etcd,
kube-apiserver and kube-proxy from the Go module proxy (scripts/ensure-kube.sh into a throw-away
cache, with an empty Go build cache; modules already downloaded are reused), each program's own
build time as the script printed it, then the cached reuse (the same script against the real
cache: it finds the programs and builds nothing), and the image built from them."""
import os
import re
import subprocess
import tempfile
import time
from collections.abc import Mapping

from . import store
from ..lab.images import REPO

SCRIPT = REPO / "scripts" / "ensure-kube.sh"
BUILT_RE = re.compile(r"kube: (\S+) built in (\d+) s")


def timed_script(env: Mapping[str, str]) -> tuple[float, str]:
    started = time.monotonic()
    done = subprocess.run([str(SCRIPT)], env={**os.environ, **env}, capture_output=True, text=True, check=True)
    return time.monotonic() - started, done.stderr


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="blackhole-bench-kube-") as scratch:
        print("bench-kube: cold build into a throw-away cache, empty Go build cache (~5-16 min) ...", flush=True)
        cold_s, log = timed_script({"BLACKHOLE_CACHE": f"{scratch}/cache", "GOCACHE": f"{scratch}/gocache"})
        programs = {name: int(seconds) for name, seconds in BUILT_RE.findall(log)}
    print("bench-kube: cached reuse ...", flush=True)
    cached_s, _ = timed_script({})
    started = time.monotonic()
    subprocess.run([str(REPO / ".venv" / "bin" / "python"), "-c",
                    "from harness.lab import build_plane_images; build_plane_images()"], cwd=REPO, check=True)
    image_s = time.monotonic() - started
    figures = {"cold_build_s": round(cold_s, 1), "programs_s": programs, "cached_reuse_s": round(cached_s, 2),
               "image_build_s": round(image_s, 1), "cpus": os.cpu_count()}
    path = store("kube-build", figures)
    print(f"cold build {figures['cold_build_s']} s ({', '.join(f'{k} {v} s' for k, v in programs.items())}); "
          f"cached reuse {figures['cached_reuse_s']} s; image (layers cached) {figures['image_build_s']} s")
    print(f"stored: {path.relative_to(path.parents[2])}")


if __name__ == "__main__":
    main()
