"""A scenario's load: section (the clients' loads besides each cell's probe), its lb: and its
replication: sections."""
import dataclasses
from collections.abc import Mapping
from typing import Any

from .. import topology
from ..databases import DATABASES
from .model import ConnectProbe, LoadBalancer, Probe, Replication, Sysbench, Wrk, Writer
from .reader import Reader, ScenarioError

# sysbench --rate queues the transactions its stuck threads cannot start; a full queue is FATAL and
# pacing ends (measured on 1.0.20 with its server stopped: "queue length" rose to 131071 and stayed,
# the FATAL line beside it): the rate times the longest its threads can hang stays below that.
SYSBENCH_QUEUE = 131_071
# Every failover through the database counts what it did to writes unless told not to (load.writer:
# off, WRITER=0); light, as one emulated CPU shares the guest with the probes it times.
DEFAULT_WRITER_RATE = 4.0
DEFAULT_SYSBENCH_RATE = 50      # transactions per second (unpaced: ~350 on this host, and a CPU each)


def read_load(r: Reader) -> tuple[Sysbench | None, Probe, Wrk | None, ConnectProbe | None, Writer | None]:
    """(sysbench, probe, wrk, connect, writer) of a scenario's load: section."""
    load = Reader(r.get("load", dict, required=True), "load", {"sysbench", "probe", "wrk", "connect", "writer"})
    wrk = sysbench = connect = writer = None
    if load.raw.get("writer") is not False:      # `writer: off` (YAML's false): none
        w = Reader(load.raw.get("writer", {}), "load.writer", {"rate_per_s", "attempts", "read_timeout_s"})
        writer = Writer(w.get("rate_per_s", float, DEFAULT_WRITER_RATE, minimum=0.1, maximum=500),
                        w.get("attempts", int, 2, minimum=1, maximum=10),
                        w.get("read_timeout_s", "duration", 0.0, maximum=3600),
                        by_default="writer" not in load.raw)
    if "connect" in load.raw:
        c = Reader(load.raw["connect"], "load.connect", {"rate_per_s", "timeout_s"})
        connect = ConnectProbe(c.get("rate_per_s", int, 100, minimum=1, maximum=1000),
                               c.get("timeout_s", "duration", 5.0, minimum=0.1, maximum=300))
    if "wrk" in load.raw:
        w = Reader(load.raw["wrk"], "load.wrk", {"threads", "connections"})
        wrk = Wrk(w.get("threads", int, 1, minimum=1, maximum=8), w.get("connections", int, 4, minimum=1, maximum=256))
    if "sysbench" in load.raw:
        sb = Reader(load.raw["sysbench"], "load.sysbench", {"threads", "tables", "table_size", "rate"})
        sysbench = Sysbench(sb.get("threads", int, 1, minimum=1, maximum=64),
                            sb.get("tables", int, 2, minimum=1, maximum=64),
                            sb.get("table_size", int, 1000, minimum=1, maximum=1_000_000),
                            sb.get("rate", int, None, minimum=0, maximum=SYSBENCH_QUEUE))
    pr = Reader(load.raw.get("probe", {}), "load.probe", {"proto", "interval_ms"})
    probe = Probe(pr.get("proto", str, "mysql", choices=topology.PROTOCOLS),
                  pr.get("interval_ms", float, 100.0, minimum=10, maximum=10_000))
    if writer and probe.proto != "mysql":
        if not writer.by_default:
            raise ScenarioError("load.writer: writes go to the database: it needs load.probe.proto mysql")
        writer = None
    return sysbench, probe, wrk, connect, writer


def read_replication(raw: Mapping[str, Any], database: str) -> Replication:
    if "replication" not in raw:
        return Replication()
    r = Reader(raw["replication"], "replication", {"mode", "semi_sync_timeout_ms"})
    engine = DATABASES[database]
    if "semi_sync_timeout_ms" in raw["replication"] and engine.semi_sync_status_sql is None:
        raise ScenarioError(f"replication.semi_sync_timeout_ms: {engine.title} has no semi-sync timeout "
                            f"(its modes: {', '.join(engine.replication_modes)})")
    return Replication(r.get("mode", str, "async", choices=DATABASES[database].replication_modes),
                       r.get("semi_sync_timeout_ms", int, 10_000, minimum=100, maximum=600_000))


def read_lb(raw: Mapping[str, Any]) -> LoadBalancer:
    if "lb" not in raw:
        return LoadBalancer()
    b = Reader(raw["lb"], "lb", {"idle_timeout_s", "conntrack_loose"})
    return LoadBalancer(int(b.get("idle_timeout_s", "duration", 900)), b.get("conntrack_loose", int, 1, choices=(0, 1)))


def paced(sysbench: Sysbench | None, hang_s: float) -> Sysbench | None:
    """sysbench with its rate set: the one asked for, else DEFAULT_SYSBENCH_RATE or what its queue
    allows over a hang of hang_s (the scenario's steps and observation); a rate whose queue would
    fill within that is refused."""
    if sysbench is None:
        return None
    most = int(SYSBENCH_QUEUE * 0.9 / max(hang_s, 1.0))
    if sysbench.rate is None:
        return dataclasses.replace(sysbench, rate=max(1, min(DEFAULT_SYSBENCH_RATE, most)))
    if sysbench.rate > most:
        raise ScenarioError(f"load.sysbench.rate: {sysbench.rate} transactions/s would fill sysbench's queue of "
                            f"{SYSBENCH_QUEUE} within a {hang_s:g} s hang (it then stops); give at most {most}, "
                            "or 0 for unpaced")
    return sysbench
