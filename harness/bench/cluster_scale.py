"""make bench-cluster-scale [SIZES="4 8 16"]: bench-scale's grids on the cluster `make cluster-up`
keeps, each cell a pod of its own on its one node: the model error, the probe interval achieved,
wall time and the machine's load against cells per node.

What a multi-node cluster would add, and why it is not measured here: cells spread over nodes
(each node's kube-proxy programs its own IPVS table, so the blackhole is per node and every node
adds a kube-proxy sync to the swap's spread), and a node lost for real (node-monitor grace, then
the pods' endpoints turned not ready by the node controller). This machine has two cores: a
second TCG guest for a second node would halve what each emulated node gets, which is the
figure's own limit already; the per-node rows below are what one node carries.
"""
import os

from . import store
from .scale import measure, scenario_for

SIZES = (4, 8, 16)
MULTI_NODE = __doc__.split("What a multi-node cluster would add, and why it is not measured here: ")[1].strip()


def main() -> None:
    from ..lab.cluster.place import ClusterPlace
    place = ClusterPlace()
    place.ensure_started()
    sizes = [int(s) for s in os.environ.get("SIZES", " ".join(map(str, SIZES))).split()]
    rows = []
    for size in sizes:
        print(f"bench-cluster-scale: {size} cells as pods on one node ...", flush=True)
        row = {**measure(scenario_for(size), f"cluster-scale-{size}", None, engine=place), "nodes": 1}
        rows.append(row)
        if "failed" in row:
            print(f"bench-cluster-scale: {size} cells FAILED: {row['failed']} ({row['run']})", flush=True)
            break
        print(f"  {size:3d} cells/node: wall {row['wall_s']} s, error median {row['error_median_s']} / p95 "
              f"{row['error_p95_s']} / max {row['error_max_s']} s, {row['cells_within_window']}/{size} in window, "
              f"probe gap p50 {row['probe_gap_p50_s']} / p99 {row['probe_gap_p99_s']} s, CPU {row['cpu_busy_mean']:.0%}, "
              f"fault applied in {row['fault_uncertainty_s']} s; {row['phases_s']}", flush=True)
    path = store("cluster-scale", {"sizes": sizes, "node": place.node.state(), "rows": rows, "multi_node": MULTI_NODE})
    print(f"stored: {path.relative_to(path.parents[2])}")


if __name__ == "__main__":
    main()
