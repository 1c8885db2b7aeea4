"""When a client works again after its error: it reconnects at once, through the VIP. A connect made
before the control plane changed the director meets the dead server. Its SYNs go on being dropped
after the change: the director keeps the connect's own entry on the dead server (IPVS drops the
packets of an entry whose server was removed, unless expire_nodest_conn=1 reschedules them; its
SYN_RECV entry lives 60 s after the last SYN it forwarded; conntrack keeps its DNAT while SYNs keep
coming). So the client gets through with the first SYN after the change that the director schedules
anew: the first of a new connect, begun when the driver's connect timeout or the kernel's SYN
retries (tcp_syn_retries, +tcp_syn_linear_timeouts on 6.5+: 127 s or 131 s at the defaults) end the
attempt; with IPVS also a retransmission after the entry expired, or after the removal with
expire_nodest_conn=1. Through a proxy the client's connect always succeeds; the proxy's session to a
server does once the dead one is marked down. docs/facts/kernel.md, "SYN retransmissions"."""
import dataclasses

from ..load.clients import CLIENTS, DEFAULT_CLIENT
from ..measure import kernel_model
from ..measure.predict import Window

# From the connect that gets through to the first answer: a handshake and a login on a live server,
# expected a tenth of a second; a JVM's first query on a new connection took up to ~1 s in the lab.
RECONNECT_S, RECONNECT_LATE_S = 0.1, 1.0
IPVS_SYN_RECV_S = 60.0          # IPVS's timeout of an entry in SYN_RECV (net/netfilter/ipvs/ip_vs_proto_tcp.c)


@dataclasses.dataclass(frozen=True)
class Reconnect:
    attempt_s: float            # how long one connect into the dead server lasts
    ends: str                   # what ends it, in the owner's words
    linear: int                 # tcp_syn_linear_timeouts: the SYNs' ladder
    ipvs: bool                  # the director is IPVS (its entry of the connect expires; conntrack's does not)
    rescheduled: bool           # expire_nodest_conn=1: a SYN after the removal is scheduled anew

    def syns(self, start):
        """When an attempt begun at `start` sends its SYNs."""
        return [start] + [start + t for t in kernel_model.syn_retransmit_times(self.linear, 20) if t < self.attempt_s]

    def through_at(self, error_s, change_s):
        """When a connect gets through, attempts beginning at the error and one after another."""
        start = error_s
        while True:
            if start >= change_s:
                return start
            sends = self.syns(start)
            forwarded = [t for t in sends if t < change_s]
            late = [t for t in sends if t >= change_s]
            if self.rescheduled and late:
                return late[0]
            if self.ipvs:
                expired = [t for t in late if t >= forwarded[-1] + IPVS_SYN_RECV_S]
                if expired:
                    return expired[0]
            start += self.attempt_s


def reconnect(question, plane, rescheduled):
    cell, client = question.cell, CLIENTS[question.cell.client]
    retries = cell.knob("tcp_syn_retries")
    syn = kernel_model.syn_give_up_s(retries, question.syn_linear_timeouts)
    timeout = client.connect_timeout_s(cell.client_settings)
    if cell.client == DEFAULT_CLIENT and cell.connect_timeout_s is not None:    # the lab's probe's own limit
        timeout = cell.connect_timeout_s or None
    user = cell.tcp_user_timeout_ms / 1000 if cell.socket_options_reach_kernel else 0.0
    if timeout and timeout < syn and not (user and user <= timeout):
        attempt, ends = timeout, f"{client.connect_timeout or 'its connect timeout'} {timeout:g} s"
    elif user and user < syn:               # TCP_USER_TIMEOUT ends a connect too (Linux 5.4+, a41e8a88b06e)
        attempt, ends = user, f"TCP_USER_TIMEOUT {user:g} s on the connect"
    else:
        attempt, ends = syn, f"tcp_syn_retries={retries}: {syn:g} s"
    return Reconnect(attempt, ends, question.syn_linear_timeouts, bool(plane.needs_ipvs), rescheduled)


def back(error, change, question, plane, rescheduled):
    """Window of the client's first answer again, seconds after the death; None where the model
    cannot say (no error, or no model of when the control plane changes the director)."""
    if error.expected_s is None or change is None:
        return None
    if plane.proxies:
        at, how = max, "a new session through the proxy goes to a live server once the dead one is marked down"
    else:
        way = reconnect(question, plane, rescheduled)
        at = way.through_at
        how = f"a connect begun before the change waits out its attempt ({way.ends}), then a new one gets through"
    corners = [at(e, c) for e in (error.earliest_s, error.expected_s, error.latest_s)
               for c in (change.earliest_s, change.expected_s, change.latest_s)]
    expected = at(error.expected_s, change.expected_s) + RECONNECT_S
    return Window(expected, min(corners), max(corners) + RECONNECT_LATE_S,
                  f"the client reconnects after its error; {how}")

