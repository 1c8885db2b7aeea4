"""The witnesses of a run through HAProxy that the HAProxy tests share: HAProxy's own session log
(how each session ended: its termination state) and tcpdump on the director (when: the FIN or RST
it sent the client, stamped by the kernel). Times come from the wire, not the log: the log's end
of a session is its accept date plus its total time on HAProxy's own clock, which fell 0.109 s
behind the wall clock on a busy CI machine (the end it logged came before the command that caused
it had started), and 1.15 s behind on another (a clean clone's make test, 2026-12-03, three labs on
two cores, the fault step 4.6 s long: `timeout server 10s` closed the session 10.94 s after the
fault on the wire, 10.84 s after the probe's request, while the log put its end at 9.80 s).
HAProxy's clock.c says why: after a poll that returns later than its timeout + 100 ms, HAProxy
takes it for a jump of the system's clock and advances its own by the poll's timeout only, so
a process held off the CPU loses the rest, and its timers fire that much later on the wall."""
from harness.measure import haproxy_log
from harness.signals.proxy import ProxySessions, proxy_capture
from harness.topology import SERVICE_PORTS
from tests.flow_witness import client_address


def sessions(run, director):
    return haproxy_log.sessions(run.read(run.service_log(director)))


def closes_to(run, director, client):
    """Each FIN/RST tcpdump saw the director send the client ('address:port'), in order."""
    found = proxy_capture.segments(run.read(ProxySessions.file(run, "closes", service=director)))
    return proxy_capture.closes_to(found, client, set(SERVICE_PORTS.values()))


def sent_to(run, director, cell):
    """The flags of each FIN/RST the director sent the connection the cell's summary names: 'F.', 'R', ..."""
    client = f"{client_address(run, cell['cell'])}:{cell['proxy']['client_port']}"
    return [segment.flags for segment in closes_to(run, director, client)]


def clock_lost(session, closed_t):
    """How far HAProxy's clock had fallen behind the wall when it closed the session: the wire's
    close (tcpdump) less the end it logged on its own clock; 0 when the log is not behind."""
    return max(0.0, closed_t - session.ended_t)


def closed_on_wire(run, director, session):
    """When the director sent the session's client its first FIN or RST (tcpdump's time)."""
    sent = [s for s in closes_to(run, director, session.client) if s.t >= session.accepted_t]
    assert sent, (director, session, "no FIN or RST to the client on the wire")
    return sent[0].t
