"""The patroni-dns control plane without a lab (harness/control/patroni_dns.py): what it puts in the
lab (the DCS, Patroni's timers, the callback's address on the director), the change it reads from the
director's own log line, its model from Patroni's timers, and Patroni's own rule on them."""
from harness.control import control_plane
from harness.control.patroni_dns import API_PORT, PatroniDns
from harness.databases import database
from harness.lab import planned_addresses
from harness.topology import BACK, DIRECTOR

LOG = ("2026-12-05T11:12:02.220218149Z lab-dns-api: db-replica promoted: db.lab -> 10.213.1.122 between "
       "1796469122.205406 and 1796469122.216302\n"
       "2026-12-05T11:12:02.300000000Z lab-dns-api: refused (400): no such server 'x' (or path /primary)\n")


class Run:
    def read(self, _path):
        return LOG

    def service_log(self, service):
        return service


def test_the_servers_run_patroni_and_call_the_directors_name_server_on_promotion():
    plane = control_plane("patroni-dns", (("ttl", 20), ("loop_wait", 5), ("retry_timeout", 5), ("record_ttl", 7)))
    addresses = planned_addresses()
    found = plane.services(addresses, database("postgres"), ("db-primary", "db-replica"))
    director = found[DIRECTOR]["environment"]
    assert director["DNS_TTL"] == "7" and director["DNS_API_PORT"] == str(API_PORT)
    assert director["DNS_API_LISTEN"] == addresses[DIRECTOR][BACK]
    for server in ("db-primary", "db-replica"):
        env = found[server]["environment"]
        assert env["PATRONI_TTL"] == "20" and env["PATRONI_LOOP_WAIT"] == "5"
        assert env["PATRONI_ROLE_CHANGE_URL"] == f"http://{addresses[DIRECTOR][BACK]}:{API_PORT}/primary"
    assert found["dcs"]["environment"] == {"ROLE": "dcs"}


def test_the_change_is_the_directors_own_line_and_a_refusal_is_none():
    [change] = PatroniDns().changes(Run())
    assert (change.t, change.uncertainty_s) == (1796469122.205406, 0.010896)
    assert change.what == "db.lab -> 10.213.1.122 (db-replica)" and "on_role_change" in change.why


def test_the_model_is_patronis_ttl_then_the_callback_and_its_rule_is_kept():
    plane = PatroniDns((("ttl", 20), ("loop_wait", 5), ("retry_timeout", 5)))
    window = plane.lb_noticed(None, 0.0)
    assert window.earliest_s == 15.0 and 23.0 < window.latest_s < 25.0 and "on_role_change" in window.basis
    assert PatroniDns.problem({"ttl": 20, "loop_wait": 10, "retry_timeout": 10}).startswith("loop_wait + 2 x")
