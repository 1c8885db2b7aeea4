"""nftables/conntrack datapath (kube-proxy style DNAT), used where the kernel has no IPVS.

The whole table is rendered from the state and replaced in one transaction, so the
ruleset always says exactly what the state says. Semantics, matching IPVS:
  - what clients send on a removed backend's old flows (conntrack entries still NATed to it) is
    dropped (nodest=drop) or answered with a TCP reset (nodest=reset), as IPVS does with
    expire_nodest_conn 0 or 1. What the backend sends: with nodest=drop it still reaches them
    (IPVS keeps the entry, and ip_vs_in_hook acts only on packets to a destination that is no
    longer available), so an answer already on its way is not lost; with nodest=reset it is
    dropped (IPVS, since Linux 5.9, flushes the backend's entries when it is deleted), so a client
    whose request that backend had ACKed has nothing to send, never meets the reset, and waits as
    in an app hang (tests/lab/answer_in_flight.py holds both datapaths to this);
  - during a drain both directions are still forwarded (IPVS keeps a draining destination, weight
    0, until it is deleted); a kernel set-element timeout ends the drain, after which the next
    packet of the flow is reset and the backend's answers are dropped;
  - flows to backends are masqueraded, so servers need no route back to the clients
    (Docker drops packets on an internal network whose source is outside its subnet);
  - the LB forgets a flow that has been idle for idle_timeout_s (conntrack timeout); with
    conntrack's loose pick-up off its next packet is invalid: it reaches the director's own
    stack, which resets it, or (forgotten_flows=drop) is dropped without a word.
"""
import subprocess
import time

from .state import parse_endpoint

TABLE = "blackhole_lb"


def render(state, now=None):
    now = time.time() if now is None else now
    dnat_rules, draining, reset, drop = [], [], [], []
    for vip, backends in sorted(state.services.items()):
        if backends:
            dnat_rules.append(_dnat_rule(vip, backends))
    for vip, removed in sorted(state.removed.items()):
        for r in removed:
            host, port = parse_endpoint(r.backend)
            element = f"{host} . {port}"
            if r.draining(now):
                draining.append(f"{element} timeout {max(1, round((r.drain_until - now) * 1000))}ms")
            (reset if r.nodest == "reset" else drop).append(element)
    lines = [
        f"table ip {TABLE} {{}}",
        f"delete table ip {TABLE}",
        f"table ip {TABLE} {{",
        "  ct timeout lb_idle {",
        "    protocol tcp;",
        "    l3proto ip;",
        f"    policy = {{ established: {int(state.idle_timeout_s)} }};",
        "  }",
        _set("draining", draining, timeout=True),
        _set("removed_reset", reset),
        _set("removed_drop", drop),
        "  chain vip_dnat {",
        "    type nat hook prerouting priority dstnat; policy accept;",
        *[f"    {rule}" for rule in dnat_rules],
        "  }",
        *(["  chain forgotten_flows {",
            "    type filter hook prerouting priority -150; policy accept;",
            *[f"    ct state invalid ip daddr {parse_endpoint(vip)[0]} tcp dport {parse_endpoint(vip)[1]} drop"
              for vip in sorted(state.services)],
            "  }"] if state.forgotten_flows == "drop" else []),
        "  chain to_backends {",
        "    type nat hook postrouting priority srcnat; policy accept;",
        "    ct status dnat masquerade",
        "  }",
        "  chain backend_filter {",
        "    type filter hook forward priority filter; policy accept;",
        "    ct direction original ip daddr . tcp dport @draining accept",
        "    ct direction reply ip saddr . tcp sport @draining accept",
        "    ct direction original ip daddr . tcp dport @removed_reset reject with tcp reset",
        "    ct direction original ip daddr . tcp dport @removed_drop drop",
        "    ct direction reply ip saddr . tcp sport @removed_reset drop",
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def _dnat_rule(vip, backends):
    host, port = parse_endpoint(vip)
    match = f"ip daddr {host} tcp dport {port} ct timeout set \"lb_idle\""
    if len(backends) == 1:
        return f"{match} dnat to {backends[0]}"
    choices = ", ".join(f"{i} : {b}" for i, b in enumerate(backends))
    return f"{match} dnat to numgen inc mod {len(backends)} map {{ {choices} }}"


def _set(name, elements, timeout=False):
    flags = "    flags timeout\n" if timeout else ""
    body = f"    elements = {{ {', '.join(elements)} }}\n" if elements else ""
    return f"  set {name} {{\n    type ipv4_addr . inet_service\n{flags}{body}  }}"


class NftablesDatapath:
    name = "nftables"

    def apply(self, state):
        """One transaction: it landed sometime during the call (returns None: no closer bracket)."""
        subprocess.run(["nft", "-f", "-"], input=render(state), text=True, check=True)

    def flows(self):
        result = subprocess.run(["conntrack", "-L", "-p", "tcp"], capture_output=True, text=True)
        return result.stdout

    def age_existing_flows(self, state):
        """A new idle timeout holds for flows already tracked too: their remaining time is set to it
        (a packet of the flow renews it); new flows get it from the ct timeout policy."""
        for vip in state.services:
            host, port = parse_endpoint(vip)
            subprocess.run(["conntrack", "-U", "-p", "tcp", "--orig-dst", host, "--orig-port-dst", str(port),
                            "--timeout", str(int(state.idle_timeout_s))], capture_output=True)
