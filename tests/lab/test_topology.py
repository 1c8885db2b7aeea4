"""The lab comes up as designed: healthy services, replication, internal networks, sysctls."""
import os
import time
from pathlib import Path

import pytest


def test_every_service_is_healthy(lab):
    health = lab.health()
    assert set(health) == set(lab.services())
    assert set(health.values()) == {"healthy"}


def test_networks_are_internal(lab):
    networks = lab.networks()
    assert sorted(n.name.rsplit("_", 1)[1] for n in networks) == ["back", "front"]
    assert all(n.internal for n in networks)


def sql(lab, service, query):
    return lab.exec(service, ["mariadb", "-N", "-B", "-e", query]).stdout.strip()


def test_replication_threads_run_and_rows_reach_the_replica(lab):
    status = lab.exec("mysql-replica", ["mariadb", "-e", "SHOW SLAVE STATUS\\G"]).stdout
    assert "Slave_IO_Running: Yes" in status and "Slave_SQL_Running: Yes" in status
    marker = f"row-{time.time_ns()}"
    sql(lab, "mysql-primary", "CREATE TABLE IF NOT EXISTS sbtest.lab_check (v VARCHAR(64)); "
                              f"INSERT INTO sbtest.lab_check VALUES ('{marker}')")
    deadline = time.time() + 15
    while time.time() < deadline:
        if sql(lab, "mysql-replica", f"SELECT COUNT(*) FROM sbtest.lab_check WHERE v='{marker}'") == "1":
            return
        time.sleep(0.2)
    pytest.fail("the row written on the primary did not reach the replica in 15 s")


def test_servers_listen_and_run_their_daemons(node):
    primary, web = node("mysql-primary"), node("web-a")
    assert primary.process.filter(comm="mariadbd")
    assert primary.socket("tcp://0.0.0.0:3306").is_listening
    assert web.socket("tcp://0.0.0.0:80").is_listening


def test_client_cells_get_their_own_tcp_retries2_and_the_host_keeps_its_own(
        node, host_retries2_before):
    default = os.environ.get("TCP_RETRIES2") or "15"
    assert node("client-r5").file("/proc/sys/net/ipv4/tcp_retries2").content_string.strip() == "5"
    assert node("client").file("/proc/sys/net/ipv4/tcp_retries2").content_string.strip() == default
    assert Path("/proc/sys/net/ipv4/tcp_retries2").read_text() == host_retries2_before
