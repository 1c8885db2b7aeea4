"""What a failover run keeps besides the clients' own output: the director's flow table at
moments that matter, every container's log, and one merged timeline."""
import json

from ..measure import probe_log, sysbench_log


def snapshot_flows(run, director, label):
    run.write_text(run.director_flows(label), director.flows())


def collect_logs(run, lab):
    for service in lab.services():
        try:
            text = lab.logs(service)
        except Exception as exc:               # a log that cannot be read is recorded as such
            text = f"(no logs: {exc})\n"
        run.write_text(run.service_log(service), text)


def merge_client_events(run, cells):
    """events.jsonl becomes the one timeline: harness steps and every client operation."""
    records = run.events()
    for cell in cells:
        for op in probe_log.parse(run.read(run.probe_log(cell.name))):
            records.append({"t": op["t1"], "source": f"{cell.name}/probe", "event": "operation", **op})
        for r in sysbench_log.parse(run.read(run.sysbench_log(cell.name))):
            records.append({"t": r.t, "source": f"{cell.name}/sysbench", "event": "report", **r.__dict__})
    records.sort(key=lambda r: r["t"])
    run.events_file.write_text("".join(json.dumps(r) + "\n" for r in records))
