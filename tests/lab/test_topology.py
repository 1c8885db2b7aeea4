"""The lab comes up as designed: healthy services, replication, internal networks, sysctls."""
import os
import time
from pathlib import Path

import pytest


def test_every_service_is_healthy(lab):
    health = lab.health()
    assert set(health) == set(lab.services())
    servers = {service: state for service, state in health.items() if not service.startswith("client")}
    assert set(servers.values()) == {"healthy"}, health
    # Clients have no healthcheck (nothing waits for them): running is what they can be.
    assert {state for service, state in health.items() if service.startswith("client")} == {"running"}


def test_networks_are_internal(lab):
    networks = lab.networks()
    assert sorted(n.name.rsplit("_", 1)[1] for n in networks) == ["back", "front"]
    assert all(n.internal for n in networks)


def sql(lab, service, query):
    return lab.exec(service, ["mariadb", "-N", "-B", "-e", query]).stdout.strip()


def test_replication_threads_run_and_rows_reach_the_replica(lab):
    status = lab.exec("db-replica", ["mariadb", "-e", "SHOW SLAVE STATUS\\G"]).stdout
    assert "Slave_IO_Running: Yes" in status and "Slave_SQL_Running: Yes" in status
    marker = f"row-{time.time_ns()}"
    sql(lab, "db-primary", "CREATE TABLE IF NOT EXISTS sbtest.lab_check (v VARCHAR(64)); "
                              f"INSERT INTO sbtest.lab_check VALUES ('{marker}')")
    deadline = time.time() + 15
    while time.time() < deadline:
        if sql(lab, "db-replica", f"SELECT COUNT(*) FROM sbtest.lab_check WHERE v='{marker}'") == "1":
            return
        time.sleep(0.2)
    pytest.fail("the row written on the primary did not reach the replica in 15 s")


def test_servers_listen_and_run_their_daemons(node):
    primary, web = node("db-primary"), node("web-a")
    assert primary.process.filter(comm="mariadbd")
    assert primary.socket("tcp://0.0.0.0:3306").is_listening
    assert web.socket("tcp://0.0.0.0:80").is_listening


def test_client_cells_get_their_own_tcp_retries2_and_the_host_keeps_its_own(
        node, host_retries2_before):
    default = os.environ.get("TCP_RETRIES2") or "15"
    assert node("client-r5").file("/proc/sys/net/ipv4/tcp_retries2").content_string.strip() == "5"
    assert node("client").file("/proc/sys/net/ipv4/tcp_retries2").content_string.strip() == default
    assert Path("/proc/sys/net/ipv4/tcp_retries2").read_text() == host_retries2_before


def host_listening_ports():
    """TCP ports something on this host listens on (every address, or one of its own)."""
    import subprocess
    lines = subprocess.run(["ss", "-ltnH"], capture_output=True, text=True, check=True).stdout.splitlines()
    return sorted({int(line.split()[3].rsplit(":", 1)[1]) for line in lines if line.split()})


def test_no_container_reaches_a_service_of_the_host(lab):
    """The lab's bridges carry no address of the host (inhibit_ipv4): the networks' gateway
    addresses, where the host would answer, answer nothing."""
    ports = host_listening_ports()
    assert ports, "nothing listens on this host: the test would prove nothing"
    front_gateway = lab.address("director", "front").rsplit(".", 1)[0] + ".1"
    back_gateway = lab.address("director", "back").rsplit(".", 1)[0] + ".1"
    for service, gateway in (("client", front_gateway), ("db-primary", back_gateway)):
        script = "; ".join(f"timeout 2 bash -c 'exec 3<>/dev/tcp/{gateway}/{port}' 2>/dev/null && echo OPEN {port}"
                           for port in ports[:20])
        out = lab.exec(service, ["bash", "-c", script + "; true"]).stdout
        assert "OPEN" not in out, f"{service} reached the host at {gateway}: {out}"


def test_only_the_director_holds_net_admin_unless_a_run_asks(lab):
    """CAP_NET_ADMIN (bit 12 of CapEff): the director's datapath needs it; nothing else does here."""
    def has_net_admin(service):
        status = lab.exec(service, ["cat", "/proc/1/status"]).stdout
        return bool(int(next(l.split()[1] for l in status.splitlines() if l.startswith("CapEff:")), 16) & (1 << 12))
    assert has_net_admin("director")
    assert not any(has_net_admin(s) for s in ("client", "client-r5", "db-primary", "web-a"))
