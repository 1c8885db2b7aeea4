"""Patroni promoting the replica by itself and HAProxy following it (scenarios/patroni-failover.yaml),
on this host's kernel. Witnesses: Patroni's own log (when the replica took the leader key),
HAProxy's log (when it marked each server down and up, and how it ended each session), tcpdump on
the director (what the client got), PostgreSQL itself (which server answered: its
lab.server_name), and Patroni's documented timers: the leader key lives `ttl` seconds and its holder renews it every `loop_wait`,
so a dead leader's key expires between ttl - loop_wait and ttl after the death, and a replica,
watching the key, takes it then."""

from harness.measure import haproxy_log
from harness.measure.health_checks import stamp
from harness.measure.run_record import first_fault
from harness.store import RunDir

from tests.control_plane_contract import check_changes
from tests.scenarios.conftest import cells
from tests.scenarios.haproxy_witness import closed_on_wire, sent_to, sessions

TTL_S, LOOP_WAIT_S = 30, 10              # Patroni's defaults (the scenario leaves them)
PROMOTING_S = 3.0                        # the key expired to the promotion logged: etcd's lease check
                                         # (500 ms) and the replica's HA cycle; 1 s idle, 2.4 s under make test
INTER_S, RISE = 2, 2                     # the scenario's HAProxy checks
DELIVERY_S = 0.5


def test_patroni_promotes_by_itself_and_haproxy_follows(run_scenario):
    summary, path = run_scenario("patroni-failover", warmup_s=5, observe_s=45)
    check_changes(path)             # the control plane's contract (tests/control_plane_contract.py)
    run, by_name = RunDir(path), cells(summary)
    fault = first_fault(run.events())

    # Patroni's own log: the replica took the leader key once, inside the key's lifetime after the death
    [promoted] = [stamp(line) for line in run.read(run.service_log("db-replica")).splitlines()
                  if "promoted self to leader" in line]
    assert TTL_S - LOOP_WAIT_S <= promoted - fault["t"] <= TTL_S + PROMOTING_S, promoted - fault["t"]
    # HAProxy marked the promoted server up (its /primary answered 200) after the promotion, within rise checks
    for director in ("director", "director-shutdown"):
        ups = [c for c in haproxy_log.state_changes(run.read(run.service_log(director)))
               if c.state == "UP" and c.server == "standby" and c.t > fault["t"]]
        assert ups and promoted < ups[0].t <= promoted + (RISE + 1) * INTER_S + DELIVERY_S, (director, ups)

    # on-marked-down shutdown-sessions: closed at the markdown (a FIN), back on the promoted server
    shut = next(s for s in sessions(run, "director-shutdown") if s.termination.startswith("D"))
    closed_t = closed_on_wire(run, "director-shutdown", shut)
    cell = by_name["r15-shutdown"]
    assert sent_to(run, "director-shutdown", cell)[0] == "F."
    assert cell["probe"]["error"] == "PG_SERVER_CLOSED"
    assert -0.01 <= fault["t"] + cell["probe"]["detect_s"] - closed_t <= DELIVERY_S
    assert cell["probe"]["server_after"] == "db-replica"
    assert fault["t"] + cell["probe"]["recover_s"] >= promoted, "back on a server before Patroni promoted it"
    # at HAProxy's defaults the session to the dead server stays open, whatever the client's kernel says
    for name in ("r15", "r5-ut3000"):
        assert by_name[name]["probe"]["detect_s"] is None and by_name[name]["probe"]["error"] is None, name
    # the page says what Patroni did, beside its model
    promotion = summary["signals"]["lb"]["promotion"]
    assert promotion["server"] == "db-replica" and abs(promotion["promoted_s"] - (promoted - fault["t"])) < 0.01
