"""A burst run: for each cell, in turn, a burst of new connections from its client container
to one web server's slow upstream (directly, or through that server's nginx), with the
server namespace's kernel counters before and after and its listen queue sampled meanwhile."""
import json
import platform
import time

from .. import store
from ..director import Director
from ..lab import ClientCell, Lab
from ..runner import RunBase, ctrl_c_deferred, open_run
from . import chart, results

VIP_PORTS = {("web-a", "upstream"): 8081, ("web-b", "upstream"): 8082, ("web-a", "nginx"): 81, ("web-b", "nginx"): 82}
BURST_LIMIT_S = 45          # every connection of a burst ends by then (burst --timeout-s)
QUEUE_DRAIN_LIMIT_S = 60


class BurstRun(RunBase):
    def execute(self):
        s = self.scenario
        self.run_dir, self.events = open_run(s.id, self.raw, self.results)
        namespaces = {c.namespace: c.cell.kernel_sysctls() for c in s.cells}
        self.lab = Lab(project=self.project, cells=[ClientCell(n, sysctls) for n, sysctls in namespaces.items()],
                       datapath=s.datapath, env={**self.lab_env, **s.lab_env()}, workdir=self.run_dir / "lab")
        self.say(f"run: {s.id} -> {self.run_dir}")
        try:
            self.say("run: bringing the lab up ...")
            self.lab.up()
            self.events.add("lab_up")
            self._write_env()
            for cell in s.cells:
                self._burst(cell)
            self._collect_access_logs()
        except KeyboardInterrupt:
            self.events.add("interrupted")
            raise
        finally:
            with ctrl_c_deferred():
                try:
                    self.lab.down()
                finally:
                    self.events.add("lab_down")
                    self._summarize()
        return self.run_dir

    def _write_env(self):
        servers = {}
        for server in ("web-a", "web-b"):
            values = self.lab.exec(server, ["cat", "/proc/sys/net/core/somaxconn",
                                            "/proc/sys/net/ipv4/tcp_abort_on_overflow",
                                            "/proc/sys/net/ipv4/tcp_syncookies"]).stdout.split()
            listen = self.lab.exec(server, ["ss", "-lntH", "sport = :8081"]).stdout.strip()
            servers[server] = {"somaxconn": int(values[0]), "tcp_abort_on_overflow": int(values[1]),
                               "tcp_syncookies": int(values[2]), "listener": listen}
        clients = {}
        for namespace, service in sorted({(c.namespace, c.service) for c in self.scenario.cells}):
            values = self.lab.exec(service, ["sh", "-c", "cat /proc/sys/net/ipv4/tcp_syn_retries; "
                                   "cat /proc/sys/net/ipv4/tcp_syn_linear_timeouts 2>/dev/null || echo 0"]).stdout.split()
            clients[namespace] = {"tcp_syn_retries": int(values[0]), "tcp_syn_linear_timeouts": int(values[1])}
        env = {"kernel": platform.release(), "datapath": Director(self.lab).datapath, "servers": servers,
               "lab_env": self.scenario.lab_env(), "namespaces": clients}
        (self.run_dir / "env.json").write_text(json.dumps(env, indent=1) + "\n")

    def _burst(self, cell):
        s = self.scenario
        files = store.cell_dir(self.run_dir, cell.name)
        vip = Director(self.lab).vip_address()
        path = f"/slow?cell={cell.name}" if cell.target == "nginx" else "/"
        (files / "nstat-before.txt").write_text(self.lab.exec(cell.server, ["nstat", "-az"]).stdout)
        self.say(f"run: {cell.name}: {s.connections} connections at once to {cell.server} ({cell.target}) ...")
        self.events.add("burst_start", cell=cell.name)
        with open(files / "connections.jsonl", "w") as out:
            burst = self.lab.spawn(cell.service,
                                   ["burst", "--host", vip, "--port", str(VIP_PORTS[(cell.server, cell.target)]),
                                    "--connections", str(s.connections), "--path", path,
                                    "--timeout-s", str(BURST_LIMIT_S)], stdout=out)
            with open(files / "ss-listen.txt", "w") as listen:
                while burst.poll() is None:
                    sample = self.lab.exec(cell.server, ["ss", "-lntH", "sport = :8081"], check=False).stdout
                    listen.write(f"@ {time.time():.3f}\n{sample}")
                    time.sleep(0.2)
        self.events.add("burst_end", cell=cell.name)
        self._wait_queue_drained(cell.server)
        (files / "nstat-after.txt").write_text(self.lab.exec(cell.server, ["nstat", "-az"]).stdout)

    def _wait_queue_drained(self, server):
        """Let the slow server accept what is queued, so the next burst starts from an empty queue."""
        deadline = time.time() + QUEUE_DRAIN_LIMIT_S
        while time.time() < deadline:
            words = self.lab.exec(server, ["ss", "-lntH", "sport = :8081"], check=False).stdout.split()
            if len(words) > 1 and words[1] == "0":
                return
            time.sleep(0.5)

    def _collect_access_logs(self):
        logs = self.run_dir / "logs"
        logs.mkdir(exist_ok=True)
        for server in ("web-a", "web-b"):
            text = self.lab.exec(server, ["cat", "/var/log/nginx/access.log"], check=False).stdout
            (logs / f"{server}-access.log").write_text(text)

    def _summarize(self):
        summary = write(self.run_dir, self.scenario)
        store.link_latest(self.run_dir)
        self.say("\n" + terminal_table(summary))
        self.say(f"\nrun: results in {self.run_dir}")


def write(run_dir, scenario):
    """summary.json, summary.md, the chart and the run's page, from the run's files only."""
    from ..report import html as html_report
    summary = summarize(run_dir, scenario)
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    (run_dir / "summary.md").write_text(markdown(summary))
    charts = []
    if summary["cells"]:
        chart.connect_times(run_dir, summary, run_dir / "charts" / "connect-times.png")
        charts.append("charts/connect-times.png")
    html_report.simple_page(run_dir, summary, HEADER, _rows(summary), charts)
    html_report.index_page(run_dir.parents[1])
    return summary


def summarize(run_dir, scenario):
    def read(path):
        return path.read_text() if path.exists() else ""
    cells = []
    for cell in scenario.cells:
        files = run_dir / "clients" / cell.name
        if not (files / "connections.jsonl").exists():
            continue
        access = read(run_dir / "logs" / f"{cell.server}-access.log")
        cells.append(results.summarize_cell(
            cell, results.parse_connections(read(files / "connections.jsonl")),
            results.parse_nstat(read(files / "nstat-before.txt")), results.parse_nstat(read(files / "nstat-after.txt")),
            access))
    servers = {s.name: {"backlog": s.backlog, "somaxconn": s.somaxconn, "abort_on_overflow": s.abort_on_overflow,
                        "syncookies": s.syncookies} for s in scenario.servers}
    return {"scenario": scenario.id, "run": run_dir.name, "kind": "burst", "servers": servers, "cells": cells}


HEADER = ["cell", "server", "target", "backlog", "connect steps", "statuses", "errors", "nginx", "ListenOverflows"]


def _rows(summary):
    rows = []
    for c in summary["cells"]:
        server = summary["servers"].get(c["server"], {})
        steps = ", ".join(f"{k}:{v}" for k, v in c["connect_steps"].items())
        rows.append([c["cell"], c["server"], c["target"], str(server.get("backlog", "128")), steps or "—",
                     json.dumps(c["statuses"]), json.dumps(c["errors"]), json.dumps(c["nginx_statuses"]) or "—",
                     str(c["server_counters"]["TcpExtListenOverflows"])])
    return rows


def terminal_table(summary):
    rows = [HEADER] + _rows(summary)
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(r, widths)) for r in rows)


def markdown(summary):
    lines = [f"# {summary['scenario']} — {summary['run']}", "", "| " + " | ".join(HEADER) + " |",
             "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(r) + " |" for r in _rows(summary)]
    lines += ["", "connect steps: connections that completed connect() within each band of seconds; "
                  "ListenOverflows: the server namespace's counter during the cell's burst."]
    return "\n".join(lines) + "\n"
