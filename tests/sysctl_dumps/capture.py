"""`sysctl -a` of each guest kernel the lab boots, saved beside this file as <series>.txt: the
sysctl import's unit test reads every one (tests/unit/test_sysctl_dumps.py).

  .venv/bin/python -m tests.sysctl_dumps.capture 5.10 6.1 6.12 7.3   (make sysctl-dumps)

Each guest is booted, asked once, and stopped; the dump is the kernel's own, taken as root in
the guest's initial namespaces (the lab's client cell starts from these defaults too)."""
import sys
from pathlib import Path

from harness.lab import check_kernel, engine_for

HERE = Path(__file__).resolve().parent


def capture(kernel):
    check_kernel(kernel)
    with engine_for(kernel) as engine:
        engine.ensure_started()
        dump = engine.ssh.run("sysctl -a 2>&1", timeout=300, check=False).stdout
    path = HERE / f"{kernel}.txt"
    path.write_text(dump)
    release = next((line.split("=", 1)[1].strip() for line in dump.splitlines()
                    if line.startswith("kernel.osrelease")), "no kernel.osrelease")
    print(f"{path.name}: {len(dump.splitlines())} lines, kernel {release}", flush=True)


def main(kernels):
    if not kernels:
        sys.exit("usage: python -m tests.sysctl_dumps.capture SERIES... (e.g. 5.10 6.1 6.12 7.3)")
    for kernel in kernels:
        capture(kernel)


if __name__ == "__main__":
    main(sys.argv[1:])
