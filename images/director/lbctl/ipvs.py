"""IPVS datapath: real `ipvsadm` in NAT (masquerading) mode, for kernels with ip_vs.

ipvsadm is imperative, so apply() compares the kernel's table (`ipvsadm -Sn`) with the
state and runs only the difference. nodest semantics:
  - drop: `ipvsadm -d` alone; with expire_nodest_conn=0 (a new namespace's default) IPVS
    silently drops the old flows;
  - reset: the old flows' client tuples are put in an nftables set whose input-hook rule
    (priority filter, ahead of IPVS's LOCAL_IN hook) answers them with a TCP reset. The
    container cannot write net.ipv4.vs.expire_nodest_conn (/proc/sys is read-only there);
  - flows to backends are masqueraded (needs net.ipv4.vs.conntrack=1, which compose.ipvs.yaml
    sets), so servers need no route back to the clients;
  - drain: weight 0 (no new flows, old ones served), then the reset path when it ends;
    a detached `lbctl sync` is scheduled for that moment.
"""
import os
import subprocess
import time

from .state import parse_endpoint

TABLE = "blackhole_lb_ipvs"
TABLE_DEFINITION = f"""table ip {TABLE} {{
  set vips {{
    type ipv4_addr . inet_service
  }}
  set reset_flows {{
    type ipv4_addr . inet_service . ipv4_addr . inet_service
  }}
  chain vip_input {{
    type filter hook input priority filter; policy accept;
    ip saddr . tcp sport . ip daddr . tcp dport @reset_flows reject with tcp reset
  }}
  chain to_backends {{
    type nat hook postrouting priority srcnat; policy accept;
    ct direction original ct original ip daddr . ct original proto-dst @vips masquerade
  }}
}}
"""


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


def parse_connections(text):
    """`ipvsadm -Lnc` -> [(client, vip, backend)] for TCP entries."""
    flows = []
    for line in text.splitlines():
        words = line.split()
        if len(words) == 6 and words[0] == "TCP":
            flows.append((words[3], words[4], words[5]))
    return flows


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
        now = time.time()
        if subprocess.run(["nft", "list", "table", "ip", TABLE], capture_output=True).returncode:
            subprocess.run(["nft", "-f", "-"], input=TABLE_DEFINITION, text=True, check=True)
        vips = [" . ".join(map(str, parse_endpoint(vip))) for vip in state.services]
        if vips:
            subprocess.run(["nft", "add", "element", "ip", TABLE, "vips", "{ " + ", ".join(vips) + " }"],
                           check=True)
        current = parse_saved(_ipvsadm("-Sn"))
        wanted = desired(state, now)
        for args in plan(current, wanted, state.idle_timeout_s):
            if args[0] == "-d":
                self._reset_if_asked(state, vip=args[2], backend=args[4])
            _ipvsadm(*args)
        for removed in state.removed.values():
            for r in removed:
                if r.draining(now):
                    delay = r.drain_until - now + 0.01
                    subprocess.Popen(["sh", "-c", f"sleep {delay:.3f}; exec lbctl sync"],
                                     start_new_session=True, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)

    def _reset_if_asked(self, state, vip, backend):
        policies = [r.nodest for r in state.removed.get(vip, []) if r.backend == backend]
        if policies != ["reset"]:
            return
        elements = []
        for client, flow_vip, flow_backend in parse_connections(_ipvsadm("-Lnc")):
            if flow_vip == vip and flow_backend == backend:
                (c_host, c_port), (v_host, v_port) = parse_endpoint(client), parse_endpoint(vip)
                elements.append(f"{c_host} . {c_port} . {v_host} . {v_port}")
        if elements:
            subprocess.run(["nft", "add", "element", "ip", TABLE, "reset_flows",
                            "{ " + ", ".join(elements) + " }"], check=True)

    def flows(self):
        return _ipvsadm("-Lnc")

    def age_existing_flows(self, state):
        """IPVS gives an existing connection the new timeout at its next packet; an idle one keeps
        its old expiry (`ipvsadm -Lnc` shows it). Nothing to do here."""

    def healthy(self, state):
        return bool(parse_saved(_ipvsadm("-Sn"))) or not state.services


def _ipvsadm(*args):
    return subprocess.run(["ipvsadm", *args], capture_output=True, text=True, check=True).stdout
