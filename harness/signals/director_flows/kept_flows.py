"""Reconnects that a flow the director kept blackholed. When a client's kernel gives up on a
blackholed connection it frees the local port, and a later connect() to the same VIP may take
that port again. If the director's table still holds the old flow for that client address, the
new SYN follows it to the backend the fault took away and is lost like the old connection's
segments: connect() hangs through its SYN retries (tcp_syn_retries) unless the client has a
connect timeout of its own. Evidence: ss in the client's namespace (a SYN resent from the port)
and the director's table after the fault's steps (the flow it held for that address)."""
import dataclasses
from collections.abc import Iterable
from typing import Any

from ...measure.director_flows import Flow
from ...measure.ss_log import SocketSample


@dataclasses.dataclass(frozen=True)
class KeptFlowReconnect:
    client: str            # the reconnect's local address, 10.213.5.128:51548
    backend: str           # where the director's kept flow sends it
    flow_state: str        # that flow's state in the director's table
    first_resent_s: float  # the first sample showing a resent SYN, seconds after the fault
    last_seen_s: float     # the last SYN-SENT sample of that port
    got_through: bool      # a later sample shows the port established

    def as_record(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _resent(sample: SocketSample) -> bool:
    """A SYN-SENT sample whose SYN has been sent again at least once (timer:(on,<left>,<n>), n >= 1)."""
    kind, _, rest = sample.timer.partition(",")
    return sample.state == "SYN-SENT" and kind == "on" and int(rest.rpartition(",")[2] or 0) >= 1


def reconnects_into_kept_flows(samples: Iterable[SocketSample], flows: Iterable[Flow],
                               t_fault: float) -> list[KeptFlowReconnect]:
    """[KeptFlowReconnect] of one client namespace. samples: its ss samples (ss_log.parse);
    flows: the director's table after the fault's steps (director_flows.parse_table). Only an
    ESTABLISHED flow is an old connection kept: a SYN_RECV one is the reconnect's own, scheduled
    to whatever the director held then (a backend a control plane had not yet taken out)."""
    kept = {flow.client: flow for flow in flows if flow.state == "ESTABLISHED"}
    by_address: dict[str, list] = {}
    for sample in samples:
        if sample.t > t_fault and sample.local in kept:
            by_address.setdefault(sample.local, []).append(sample)
    found = []
    for address, own in sorted(by_address.items()):
        resent = [s for s in own if _resent(s)]
        if not resent:
            continue
        syn_sent = [s for s in own if s.state == "SYN-SENT" and s.t >= resent[0].t]
        later = [s for s in own if s.t > syn_sent[-1].t]
        flow = kept[address]
        found.append(KeptFlowReconnect(address, flow.backend, flow.state, round(resent[0].t - t_fault, 3),
                                       round(syn_sent[-1].t - t_fault, 3),
                                       any(s.state == "ESTAB" for s in later)))
    return found

