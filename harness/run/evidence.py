"""What a failover run keeps besides the clients' own output: the director's flow table at
moments that matter, every container's log, and one merged timeline."""
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from ..director import Director
from ..lab.base import Lab
from ..measure import probe_log, sysbench_log
from ..scenario.model import Cell
from ..store import RunDir
from .events import EventLog


def snapshot_flows(run: RunDir, director: Director, label: str) -> None:
    """The director's flow table now, kept as evidence: a snapshot that cannot be taken (a busy
    machine once held `docker exec` for over 60 s) is recorded as such, and the run goes on."""
    try:
        text = director.flows()
    except Exception as exc:
        text = f"# not taken: {str(exc).splitlines()[0] if str(exc) else repr(exc)}\n"
    run.write_text(run.director_flows(label), text)


def snapshot_directors(run: RunDir, lab: Lab, director: Director, peers: Sequence[str], label: str) -> None:
    """The director's table as `label` and each peer's (a backup sharing its VIP) as
    `label-<service>`, side by side: which director held a client's flow, and where it went."""
    jobs = [(director, label), *[(lab.director(service), f"{label}-{service}") for service in peers]]
    with ThreadPoolExecutor(len(jobs)) as pool:
        list(pool.map(lambda job: snapshot_flows(run, *job), jobs))


def collect_logs(run: RunDir, lab: Lab) -> None:
    services = lab.services()
    with ThreadPoolExecutor(max(1, min(len(services), 8))) as pool:
        texts = pool.map(lambda service: _log_of(lab, service), services)
        for service, text in zip(services, texts):
            run.write_text(run.service_log(service), text)


def _log_of(lab: Lab, service: str) -> str:
    try:
        return lab.logs(service)
    except Exception as exc:                   # a log that cannot be read is recorded as such
        return f"(no logs: {exc})\n"


def merge_client_events(events: EventLog, run: RunDir, cells: Sequence[Cell]) -> None:
    """events.jsonl becomes the one timeline: harness steps and every client operation."""
    records = []
    for cell in cells:
        for op in probe_log.parse(run.read(run.probe_log(cell.name))):
            records.append({"t": op["t1"], "source": f"{cell.name}/probe", "event": "operation", **op})
        for r in sysbench_log.parse(run.read(run.sysbench_log(cell.name))):
            records.append({"t": r.t, "source": f"{cell.name}/sysbench", "event": "report", **r.__dict__})
    events.merge(records)
