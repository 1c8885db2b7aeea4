"""IPVS datapath: real `ipvsadm` in NAT (masquerading) mode, for kernels with ip_vs.

ipvsadm is imperative, so apply() compares the kernel's table (`ipvsadm -Sn`) with the
state and runs only the difference. nodest semantics are IPVS's own, chosen by
net.ipv4.vs.expire_nodest_conn, which the director's container gets when it starts
(compose.ipvs.yaml; /proc/sys is read-only inside it afterwards):
  - drop (expire_nodest_conn=0): `ipvsadm -d`; IPVS silently drops the old flows' packets;
  - reset (expire_nodest_conn=1): `ipvsadm -d`; IPVS expires the old flows' entries, and the
    next packet of one, no longer IPVS's, reaches the director's own stack, which answers
    with a reset (nothing listens on the VIP);
  - drain: weight 0 (no new flows, old ones served), then `ipvsadm -d` when it ends (a
    detached `lbctl sync --at <end>` is started at once and waits for that moment): the reset path;
  - flows to backends are masqueraded (needs net.ipv4.vs.conntrack=1, which compose.ipvs.yaml
    sets), so servers need no route back to the clients; to LB_SNAT_ADDRESS when it is set (an
    address two directors pass between them with VRRP, so a backend sees the same peer whichever
    director forwards a flow; a server's packet to that address which no flow of this director
    maps back is dropped, see UNMAPPED_TO_SHARED_ADDRESS);
  - LB_CONTROL=keepalived: keepalived owns the virtual servers and their real servers; lbctl only
    masquerades their flows and sets the timeouts.
"""
import os
import subprocess
import time

from .state import parse_endpoint

TABLE = "blackhole_lb_ipvs"
EXPIRE_NODEST_CONN = "/proc/sys/net/ipv4/vs/expire_nodest_conn"
# `meta l4proto tcp` first: nft 1.0.6 cannot size `ct original proto-dst` in a concatenation
# without knowing the protocol ("variable sized data types (invalid) in concat expressions").
TABLE_DEFINITION = """table ip {table} {{
  set vips {{
    type ipv4_addr . inet_service
  }}
  chain to_backends {{
    type nat hook postrouting priority srcnat; policy accept;
    ct direction original meta l4proto tcp ct original ip daddr . ct original proto-dst @vips {nat}
  }}
{extra}}}
"""


# A server's packet to the shared address that no conntrack entry maps back to a client: its
# reply to a flow the other director masqueraded, retransmitted to this one after the VIP moved.
# Production LVS-NAT routes such a packet back through IPVS; here the director's own stack would
# reset it (nothing listens on that address) and the server would then reset the client's flow,
# which connection sync had kept. Dropped, the server retransmits once the client's next packet
# has made the mapping again: what a conntrack sync (conntrackd) beside lvs_sync_daemon would give.
UNMAPPED_TO_SHARED_ADDRESS = """  chain unmapped_to_shared_address {{
    type filter hook input priority filter; policy accept;
    ip daddr {snat_address} meta l4proto tcp counter drop
  }}
"""


def table_definition(snat_address=""):
    if not snat_address:
        return TABLE_DEFINITION.format(table=TABLE, nat="masquerade", extra="")
    return TABLE_DEFINITION.format(table=TABLE, nat=f"snat to {snat_address}",
                                   extra=UNMAPPED_TO_SHARED_ADDRESS.format(snat_address=snat_address))


def external_control():
    """Whether another program (keepalived) owns the IPVS virtual servers."""
    return os.environ.get("LB_CONTROL", "manual") != "manual"
NODEST_SETTING = {"drop": 0, "reset": 1}


def available():
    return os.path.exists("/proc/net/ip_vs")


def parse_saved(text):
    """`ipvsadm -Sn` -> {vip: {backend: weight}}."""
    table = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 3 and words[0] == "-A" and words[1] == "-t":
            table.setdefault(words[2], {})
        elif len(words) >= 5 and words[0] == "-a" and words[1] == "-t":
            weight = int(words[words.index("-w") + 1]) if "-w" in words else 1
            table.setdefault(words[2], {})[words[words.index("-r") + 1]] = weight
    return table


def desired(state, now):
    """{vip: {backend: weight}} the kernel should hold now: draining backends at weight 0."""
    table = {vip: {b: 1 for b in backends} for vip, backends in state.services.items()}
    for vip, removed in state.removed.items():
        for r in removed:
            if r.draining(now):
                table.setdefault(vip, {})[r.backend] = 0
            else:
                table.setdefault(vip, {})
    return table


def plan(current, wanted, idle_timeout_s):
    """The ipvsadm argument lists that turn `current` into `wanted`, deletions first."""
    commands = []
    for vip, backends in current.items():
        for backend in backends:
            if backend not in wanted.get(vip, {}):
                commands.append(["-d", "-t", vip, "-r", backend])
    for vip, backends in wanted.items():
        if vip not in current:
            commands.append(["-A", "-t", vip, "-s", "rr"])
        for backend, weight in backends.items():
            have = current.get(vip, {}).get(backend)
            if have is None:
                commands.append(["-a", "-t", vip, "-r", backend, "-m", "-w", str(weight)])
            elif have != weight:
                commands.append(["-e", "-t", vip, "-r", backend, "-m", "-w", str(weight)])
    commands.append(["--set", str(int(idle_timeout_s)), "120", "300"])
    return commands


class IpvsDatapath:
    name = "ipvs"

    def apply(self, state):
        """Returns (t0, t1): the first and last change that decides what existing flows get (a
        removal or a weight change) happened between the two; None if there was none."""
        now = time.time()
        if subprocess.run(["nft", "list", "table", "ip", TABLE], capture_output=True).returncode:
            subprocess.run(["nft", "-f", "-"], input=table_definition(os.environ.get("LB_SNAT_ADDRESS", "")), text=True,
                           check=True)
        vips = [" . ".join(map(str, parse_endpoint(vip))) for vip in state.services]
        if vips:
            subprocess.run(["nft", "add", "element", "ip", TABLE, "vips", "{ " + ", ".join(vips) + " }"],
                           check=True)
        current = parse_saved(_ipvsadm("-Sn"))
        wanted = current if external_control() else desired(state, now)
        self._check_nodest(state)
        landed = None
        for args in plan(current, wanted, state.idle_timeout_s):
            started = time.time()
            _ipvsadm(*args)
            if args[0] in ("-d", "-e"):
                landed = (landed[0] if landed else started, time.time())
        for removed in state.removed.values():
            for r in removed:
                if r.draining(now):
                    # Its report goes to the container's own output, so `docker logs` shows when
                    # the drain really ended.
                    with open("/proc/1/fd/1", "w") as container_log:
                        subprocess.Popen(["lbctl", "sync", "--at", f"{r.drain_until + 0.01:.3f}"],
                                         start_new_session=True, stdout=container_log, stderr=container_log)
        return landed

    @staticmethod
    def _check_nodest(state):
        """Each removal's policy must be the one the kernel's expire_nodest_conn gives."""
        setting = int(open(EXPIRE_NODEST_CONN).read())
        for removed in state.removed.values():
            for r in removed:
                if NODEST_SETTING[r.nodest] != setting:
                    raise ValueError(
                        f"nodest={r.nodest} needs net.ipv4.vs.expire_nodest_conn={NODEST_SETTING[r.nodest]}, "
                        f"and this director started with {setting} (LB_EXPIRE_NODEST_CONN; the harness sets it "
                        "from the scenario's steps)")

    def flows(self):
        return _ipvsadm("-Lnc")

    def age_existing_flows(self, state):
        """IPVS gives an existing connection the new timeout at its next packet only; an idle one
        keeps its old expiry (`ipvsadm -Lnc` shows it). That is why the harness starts the
        director with the scenario's idle timeout, before any flow exists."""


def _ipvsadm(*args):
    return subprocess.run(["ipvsadm", *args], capture_output=True, text=True, check=True).stdout
