"""The director through the VIP: where requests land, and what old flows see after a swap.

Each semantic is checked on a real long-lived connection held across the change.
"""
import json

import pytest

from tests.lab import answer_in_flight
from tests.lab.held_connection import HeldConnection


def test_mysql_through_the_vip_lands_on_the_primary(lab):
    vip = lab.address("director", "front")
    out = lab.exec("client", ["mariadb", "-h", vip, "-usbtest", "-psbtest", "-N", "-e", "SELECT @@hostname"])
    assert out.stdout.strip() == "db-primary"


def one_http_request(lab, client="client"):
    out = lab.exec(client, ["probe", "--proto", "http", "--host", lab.address("director", "front"),
                            "--max-operations", "1", "--read-timeout-s", "3", "--exit-on-error"])
    return next(r for r in map(json.loads, out.stdout.splitlines()) if "t1" in r)


def test_http_through_the_vip_lands_on_web_a(lab):
    assert one_http_request(lab)["server"] == "web-a"


def test_after_a_swap_new_connections_land_on_the_new_backend(lab, director):
    director.swap("web", old="web-a", new="web-b")
    assert one_http_request(lab)["server"] == "web-b"
    director.swap("mysql", old="db-primary", new="db-replica")
    vip = lab.address("director", "front")
    out = lab.exec("client", ["mariadb", "-h", vip, "-usbtest", "-psbtest", "-N", "-e", "SELECT @@hostname"])
    assert out.stdout.strip() == "db-replica"


@pytest.fixture
def held(lab):
    """A keepalive HTTP connection to web-a through the VIP, held open until go()."""
    connections = []

    def open_connection(*probe_args):
        connection = HeldConnection(lab, "client", "http", *probe_args)
        assert connection.ready["server"] == "web-a"
        connections.append(connection)
        return connection

    yield open_connection
    for connection in connections:
        connection.close()


def test_nodest_drop_silently_drops_the_old_connection(lab, director, held):
    connection = held("--max-operations", 1, "--read-timeout-s", 2, "--exit-on-error")
    director.swap("web", old="web-a", new="web-b", nodest="drop")
    _, [operation] = connection.go()
    assert operation["ok"] is False
    assert operation["error"] == "TIMEOUT", "something answered a dropped flow"
    assert operation["t1"] - operation["t0"] >= 2.0
    assert one_http_request(lab)["server"] == "web-b"


def test_nodest_drop_lets_an_answer_in_flight_through_then_drops_the_flow(lab, director):
    answer_in_flight.check(lab, director, nodest="drop")


def test_nodest_reset_loses_the_answer_in_flight_and_the_client_waits_for_its_own_timeout(lab, director):
    answer_in_flight.check(lab, director, nodest="reset")


def test_nodest_reset_resets_the_old_connection_within_a_second(director, held):
    connection = held("--max-operations", 1, "--read-timeout-s", 5, "--exit-on-error")
    director.swap("web", old="web-a", new="web-b", nodest="reset")
    _, [operation] = connection.go()
    assert operation["error"] == "ECONNRESET"
    assert operation["t1"] - operation["t0"] < 1.0


def test_drain_keeps_the_old_connection_working_then_resets_it(director, held):
    # The probe runs through the swap (an operation every 100 ms, until its first error), so the
    # drain is judged on the operations' own times and the director's record of the drain,
    # however late the harness's execs land on a busy machine.
    connection = held("--interval-ms", 100, "--read-timeout-s", 5, "--duration-s", 60, "--exit-on-error")
    connection.start()
    _, swapped = director.swap("web", old="web-a", new="web-b", drain_s=6)
    [removal] = director.state()["removed"][director.vip("web")]
    drain_end = removal["drain_until"]          # the director's clock is the host's, as ours
    *served, failed = connection.finish(timeout_s=120)
    during = [op for op in served if op["t0"] >= swapped]
    assert during, "no operation ran while the drain lasted"
    assert {op["server"] for op in served} == {"web-a"}, "drained flows must stay on the old backend"
    assert served[-1]["t1"] >= drain_end - 0.3, "the old connection stopped working before the drain ended"
    assert failed["error"] == "ECONNRESET"
    assert failed["t0"] >= drain_end - 0.1, "reset before the drain ended"
    assert failed["t1"] - failed["t0"] <= 0.5, "no reset at the first packet after the drain ended"
