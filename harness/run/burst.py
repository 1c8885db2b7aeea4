"""A burst run: for each cell, in turn, a burst of new connections from its client container
to one web server's slow upstream (directly, or through that server's nginx), with the
server namespace's kernel counters before and after and its listen queue sampled meanwhile."""
import json
import time

from ..scenario.burst import BurstCell, BurstScenario
from ..store import RunDir
from .base import RunBase
from .phases import TAKE_DOWN, Undo

VIP_PORTS = {("web-a", "upstream"): 8081, ("web-b", "upstream"): 8082, ("web-a", "nginx"): 81, ("web-b", "nginx"): 82}
BURST_LIMIT_S = 45          # every connection of a burst ends by then (burst --timeout-s)
QUEUE_DRAIN_LIMIT_S = 60
LAB_DOWN_LIMIT_S = 150
WEB_SERVERS = ("web-a", "web-b")


class BurstRun(RunBase[BurstScenario]):
    def execute(self) -> RunDir:
        self.open_run()
        return self.run_then_clean_up(self._run)

    def _run(self) -> None:
        self.say("run: bringing the lab up ...")
        self.phases.enter("bringing the lab up", Undo("taking the lab down", self._down, LAB_DOWN_LIMIT_S, TAKE_DOWN))
        self.lab.up(preflight=self.refuse_what_the_kernel_lacks)
        self.opened()[1].add("lab_up")
        self._write_env()
        self.phases.enter("bursting")
        for cell in self.scenario.cells:
            self._burst(cell)
        self._collect_access_logs()

    def _down(self) -> None:
        self.lab.down()
        self.opened()[1].add("lab_down")

    def _write_env(self) -> None:
        servers = {}
        for server in WEB_SERVERS:
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
        env = {"kernel": self.lab.kernel_release(), "datapath": self.lab.director().datapath, "servers": servers,
               "lab_env": self.scenario.lab_env(), "namespaces": clients}
        self.opened()[0].env_file.write_text(json.dumps(env, indent=1) + "\n")

    def _burst(self, cell: BurstCell) -> None:
        s, (run, events) = self.scenario, self.opened()
        vip = self.lab.director().vip_address()
        path = f"/slow?cell={cell.name}" if cell.target == "nginx" else "/"
        run.write_text(run.cell_file(cell.name, "nstat-before.txt"), self.lab.exec(cell.server, ["nstat", "-az"]).stdout)
        self.say(f"run: {cell.name}: {s.connections} connections at once to {cell.server} ({cell.target}) ...")
        events.add("burst_start", cell=cell.name)
        with run.open(run.cell_file(cell.name, "connections.jsonl")) as out:
            burst = self.lab.spawn(cell.service,
                                   ["burst", "--host", vip, "--port", str(VIP_PORTS[(cell.server, cell.target)]),
                                    "--connections", str(s.connections), "--path", path,
                                    "--timeout-s", str(BURST_LIMIT_S)], stdout=out)
            with run.open(run.cell_file(cell.name, "ss-listen.txt")) as listen:
                while burst.poll() is None:
                    sample = self.lab.exec(cell.server, ["ss", "-lntH", "sport = :8081"], check=False).stdout
                    listen.write(f"@ {self.lab.now():.3f}\n{sample}")
                    time.sleep(0.2)
        events.add("burst_end", cell=cell.name)
        self._wait_queue_drained(cell.server)
        run.write_text(run.cell_file(cell.name, "nstat-after.txt"), self.lab.exec(cell.server, ["nstat", "-az"]).stdout)

    def _wait_queue_drained(self, server: str) -> None:
        """Let the slow server accept what is queued, so the next burst starts from an empty queue."""
        deadline = time.time() + QUEUE_DRAIN_LIMIT_S
        while time.time() < deadline:
            words = self.lab.exec(server, ["ss", "-lntH", "sport = :8081"], check=False).stdout.split()
            if len(words) > 1 and words[1] == "0":
                return
            time.sleep(0.5)

    def _collect_access_logs(self) -> None:
        for server in WEB_SERVERS:
            text = self.lab.exec(server, ["cat", "/var/log/nginx/access.log"], check=False).stdout
            run = self.opened()[0]
            run.write_text(run.service_log(f"{server}-access"), text)
