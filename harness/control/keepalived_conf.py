"""keepalived.conf for a lab director, as text: a virtual_server per service the run uses (the
primary its real server, the replica its sorry server, so keepalived itself moves the VIP's
traffic when the primary fails), the check the scenario asks for, and with VRRP the instance
that holds the VIP. Pure: the director's entrypoint writes it (images/director/director-start)."""
from collections.abc import Mapping

from .keepalived_settings import KeepalivedSettings

PORTS = {"mysql": 3306, "web": 80}
PROMOTE = "/usr/local/bin/lab-promote"      # runs the database engine's promotion on the replica
MYSQL_CHECK = "/usr/local/bin/mysql-check"  # a real handshake and a query (keepalived has no MySQL checker)
VRRP_ROUTER_ID = 51
EXTRA_PORT_OFFSET = 10000
FRONT_IF, BACK_IF = "@FRONT_IF@", "@BACK_IF@"   # the entrypoint puts the director's interface names here


def _number(value: float) -> str:
    return f"{value:g}"


def check_block(settings: KeepalivedSettings, service: str, address: str) -> tuple[str, list[str]]:
    """The checker of one real server, with the scenario's timers."""
    s, port = settings, PORTS[service]
    timers = [f"retry {s.retry}", f"delay_before_retry {_number(s.delay_before_retry)}"]
    if s.check == "mysql" and service == "mysql":
        body = [f'misc_path "{MYSQL_CHECK} {address} {port} {_number(s.connect_timeout)}"',
                f"misc_timeout {_number(s.connect_timeout + 1)}", *timers]
        return "MISC_CHECK", body
    if s.check == "http" or service == "web":
        body = ["url {", "    path /", "    status_code 200", "}", f"connect_timeout {_number(s.connect_timeout)}",
                *timers]
        return "HTTP_GET", body
    return "TCP_CHECK", [f"connect_timeout {_number(s.connect_timeout)}", *timers]


def extra_port(service: str, k: int) -> int:
    """The VIP port of a service's k-th extra virtual server (virtual_services): only its checks use it."""
    return PORTS[service] + EXTRA_PORT_OFFSET + k


def virtual_server(settings: KeepalivedSettings, service: str, vip: str, primary: str, standby: str,
                   promote_on_down: str | None = None, vip_port: int | None = None) -> str:
    """primary: the real server; standby: the sorry server keepalived puts in when the primary
    fails; promote_on_down: the standby's address, promoted by notify_down (a database);
    vip_port: the VIP's port when not the service's own (an extra virtual server)."""
    port = PORTS[service]
    kind, check = check_block(settings, service, primary)
    real = [f"real_server {primary} {port} {{", "    weight 1"]
    if settings.inhibit_on_failure:
        real.append("    inhibit_on_failure")
    if promote_on_down:
        real.append(f'    notify_down "{PROMOTE} {promote_on_down}"')
    real += [f"    {kind} {{", *(f"        {line}" for line in check), "    }", "}"]
    lines = [f"virtual_server {vip} {vip_port or port} {{", f"    delay_loop {_number(settings.delay_loop)}", "    lb_algo rr",
             "    lb_kind NAT", "    protocol TCP", f"    sorry_server {standby} {port}", *(f"    {line}" for line in real),
             "}"]
    return "\n".join(lines)


def vrrp_instance(settings: KeepalivedSettings, master: bool, vip: str, back_vip: str, peer: str) -> str:
    """The VRRP instance two directors share: the VIP on the front network and the address the
    directors masquerade to on the back one move together (unicast to the peer: no multicast
    needed on the lab's bridges)."""
    # nopreempt works only from state BACKUP: then both start as backups, the priority decides
    state = "MASTER" if master and settings.preempt else "BACKUP"
    lines = ["vrrp_instance lab {", f"    state {state}", f"    interface {FRONT_IF}",
             f"    virtual_router_id {VRRP_ROUTER_ID}", f"    priority {150 if master else 100}",
             f"    advert_int {_number(settings.advert_int)}", f"    unicast_peer {{\n        {peer}\n    }}",
             "    virtual_ipaddress {", f"        {vip}/24 dev {FRONT_IF}", f"        {back_vip}/24 dev {BACK_IF}",
             "    }"]
    if not settings.preempt:
        lines.append("    nopreempt")
    return "\n".join(lines + ["}"])


def config(settings: KeepalivedSettings, name: str, vip: str, servers: Mapping[str, tuple[str, str]],
           vrrp: tuple[bool, str, str, str] | None = None, promotes: bool = True) -> str:
    """keepalived.conf of director `name`. servers: {service: (primary address, standby address)}
    for the services the run uses; vrrp: (master?, vip, back vip, peer address) with two directors;
    promotes: its notify_down promotes the database replica (one director of a run does)."""
    lines = ["global_defs {", f"    router_id {name}", "    script_user root", "    enable_script_security"]
    if vrrp and settings.vrrp == "sync":
        lines.append("    lvs_sync_daemon @FRONT_IF@ lab")
    lines.append("}")
    blocks = ["\n".join(lines)]
    if vrrp:
        blocks.append(vrrp_instance(settings, *vrrp))
    for service, (primary, standby) in servers.items():
        blocks.append(virtual_server(settings, service, vip, primary, standby,
                                     promote_on_down=standby if service == "mysql" and promotes else None))
        blocks += [virtual_server(settings, service, vip, primary, standby, vip_port=extra_port(service, k))
                   for k in range(1, settings.virtual_services)]
    return "\n".join(blocks) + "\n"
