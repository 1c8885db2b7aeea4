"""What ended each client's session through a proxy director (a control plane that `proxies`:
HAProxy), by the proxy's own account and by the wire: its log's line for the session (how it ended,
when) and a capture on the director of the FIN or RST it sent the client. The client's own record
(its probe) says when it noticed; these say what it was told and by whom."""
from ...measure import haproxy_log, probe_log
from ...topology import SERVICE_PORTS
from ..base import CellRecord, Load, LoadPlan, Signal
from . import proxy_capture, section
from .record import LaterSession, ProxyCell, ProxyPart

PROCESS = "blackhole-close-capture"
# A capture of the closes only: a FIN or RST is a packet a session has at most a few of.
FILTER = "tcp[tcpflags] & (tcp-fin|tcp-rst) != 0"
# HAProxy's termination state, first character: who or what ended the session (its manual, 8.5)
ENDED_BY = {"D": "HAProxy: the server was marked down (on-marked-down shutdown-sessions)",
            "U": "HAProxy: the primary came back (on-marked-up shutdown-backup-sessions)",
            "K": "HAProxy: an operator's shutdown session",
            "s": "HAProxy: timeout server", "c": "HAProxy: timeout client",
            "S": "an error on the server leg (its kernel gave up, or a reset)",
            "C": "the client closed it", "P": "HAProxy: a local error", "R": "HAProxy: out of resources",
            "-": "ended normally"}


def capture_command(duration_s: float) -> tuple[str, ...]:
    # exec -a names the process for pkill; timeout bounds it as every load is bounded
    return ("bash", "-c", f"exec -a {PROCESS} timeout -s INT {duration_s:.0f} tcpdump -tt -n -l -i any '{FILTER}'")


def ended_by(termination: str) -> str:
    return ENDED_BY.get(termination[:1], f"HAProxy termination state {termination}")


class ProxySessions(Signal):
    name = "proxy"
    files = {"closes": "director/closes-{service}.txt"}
    section = section

    def loads(self, plan: LoadPlan) -> list[Load]:
        return [Load(service, self.file(plan.run, "closes", service=service), capture_command(plan.duration_s), PROCESS,
                     stop_signal="INT") for service in plan.proxy_directors]

    def summarize_cell(self, record: CellRecord) -> ProxyCell:
        c = record.context
        if not c.control.proxies or c.fault is None:
            return {}
        caught = probe_log.caught_connection(record.probe_text, c.t_fault)
        if caught is None:
            return {}
        port, director = caught[0], c.director_of(record.cell)
        address = c.env["cells"][record.cell.name]["front_address"]
        client = f"{address}:{port}"
        sessions = haproxy_log.sessions(c.run.read(c.run.service_log(director)))
        session = next((s for s in sessions if s.client == client), None)
        later_clients = {f"{address}:{p}" for p in probe_log.local_ports(record.probe_text) if p != port}
        later: list[LaterSession] = [
            {"server": s.server, "termination": s.termination, "ended_by": ended_by(s.termination),
             "ended_s": round(s.ended_t - c.t_fault, 3)}
            for s in sessions if s.client in later_clients and s.ended_t > c.t_fault
            and s.termination[:1] not in ("-", "C")]
        sent = proxy_capture.closes_to(proxy_capture.segments(c.run.read(self.file(c.run, "closes", service=director))),
                                       client, set(SERVICE_PORTS.values()))
        part: ProxyPart = {"director": director, "client_port": port, "ended_by": "still open at the end of the run"}
        if session is not None:
            part["termination"], part["ended_by"] = session.termination, ended_by(session.termination)
            part["ended_s"] = round(session.ended_t - c.t_fault, 3)
        if sent and (got := proxy_capture.told(sent)) is not None:
            part["client_got"], part["client_got_s"] = got, round(sent[0].t - c.t_fault, 3)
        if later:
            part["later"] = later          # its reconnections' sessions HAProxy ended too (a failback)
        return {"proxy": part}
