"""`make compare-control-planes`: the same three cells (tcp_retries2 5 and 8, TCP_USER_TIMEOUT
3 s) failing over under each way a director is changed: the seed's operator, keepalived's health
checks, kube-proxy in IPVS mode and in nftables mode, HAProxy in the middle, Patroni promoting a
PostgreSQL replica behind HAProxy, the three cloud
load balancers' documented behaviour, emulated, and a DNS name re-pointed at the promoted replica. One page, cells lined up, each run's own page
linked; the IPVS planes in a guest kernel (this host has no IPVS)."""
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from . import compare_runs, scenario
from .lab import HOST, engine_for, environment_from_os
from .pipeline import run_and_report
from .store import RunDir

# (label, scenario, where it runs: the host's kernel, or a guest's)
PLANES = (("manual", "control-manual-failover", HOST),
          ("keepalived", "control-keepalived-failover", "guest"),
          ("kube-proxy-ipvs", "kube-proxy-ipvs-failover", "guest"),
          ("kube-proxy-nftables", "kube-proxy-nftables-failover", HOST),
          ("haproxy", "control-haproxy-failover", HOST),
          ("patroni + haproxy (PostgreSQL)", "control-patroni-failover", HOST),
          ("aws-nlb (emulated)", "control-aws-nlb-failover", HOST),
          ("gcp-passthrough (emulated)", "control-gcp-failover", HOST),
          ("azure-standard (emulated)", "control-azure-failover", HOST),
          ("dns (a name that moves)", "control-dns-failover", HOST))
TITLE = ("One failover, ten control planes: manual swap, keepalived, kube-proxy IPVS and nftables, HAProxy, "
         "Patroni behind HAProxy, AWS NLB, GCP passthrough and Azure Standard as their documentation says, and "
         "a DNS name the failover re-points")


def run(project: str | None, guest_kernel: str, out: IO[str] = sys.stdout) -> tuple[Path, list[tuple[str, RunDir]]]:
    """Each plane's scenario run, then the page. Returns (page, [(label, RunDir)])."""
    runs = []
    for label, scenario_id, where in PLANES:
        parsed, raw = scenario.load(scenario_id, None)
        kernel = HOST if where == HOST else guest_kernel
        out.write(f"compare-control-planes: {label}: {scenario_id} on {kernel} ...\n")
        out.flush()
        with engine_for(kernel, out=out, one_lab=True) as engine:
            runs.append((label, run_and_report(parsed, raw, project=project, lab_env=environment_from_os(),
                                               engine=engine, out=out)))
    return render(runs), runs


def render(runs: Sequence[tuple[str, RunDir]]) -> Path:
    return compare_runs.compare(runs, line_up=True, title=TITLE)
