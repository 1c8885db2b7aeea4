"""pgbouncer between the client and the VIP (scenarios/pgbouncer-failover.yaml): the primary
swapped out silently at tcp_retries2=5. Bounds come from docs/facts/kernel.md (tests/kernel_facts.py)
for pgbouncer's server leg, whose socket ss samples in the client's namespace (the kernel's own
account of when it gave up), from the settings the scenario gives pgbouncer, and from pgbouncer's
own log of when and why it closed each connection; the client noticing at that moment is the
client's log, written by another process."""
import pytest

from harness.measure import probe_log
from harness.pools import pgbouncer_log
from harness.pools.base import first_after
from tests.kernel_facts import assert_within, blackhole_bounds, user_timeout_bounds
from tests.kernel_witness import assert_reported_after_the_kernel, first_failure, port_ended
from tests.scenarios.conftest import cells, run_once
from tests.scenarios.test_client_zoo import assert_waited_for_the_kernel, kernel_bounds, lead

QUERY_TIMEOUT_S = 4               # what the scenario gives pgbouncer
JANITOR_PERIOD_S = 1 / 3          # pgbouncer checks query_timeout three times a second (its janitor.c)
LOG_MS_S = 0.001                  # pgbouncer's log stamps times to the millisecond


@pytest.fixture(scope="module")
def pool_run(tmp_path_factory):
    run = run_once(tmp_path_factory, "pgbouncer-failover", {"warmup_s": 5, "observe_s": 30})
    summary = run.summary()
    return summary, run, cells(summary)


def closing(run, cell, side, t_fault):
    found = pgbouncer_log.closings(run.read(run.cell_file(cell, "pool.log")))
    return first_after(found, side, t_fault)


def assert_closed_by_pgbouncer(summary, run, cell, reason):
    """pgbouncer's log closed the server leg and then the client for `reason`; the client's failed
    operation says so in pgbouncer's own words (its FATAL), and came no earlier than the close.
    How soon after it the client woke is the machine's business, not pgbouncer's."""
    t_fault = summary["fault"]["t"]
    server, client = (closing(run, cell["cell"], side, t_fault) for side in ("server", "client"))
    assert server is not None and client is not None, f"{cell['cell']}: pgbouncer closed nothing after the fault"
    assert server.reason == client.reason == reason, (server, client)
    failed = first_failure(run, cell, t_fault)
    assert f"FATAL: {reason}" in " ".join(failed.get("detail", "").split()), failed
    assert failed["t1"] >= client.t - LOG_MS_S, (failed, client)       # its log stamps milliseconds, truncated
    return server.t - t_fault


def test_the_pools_server_leg_decides_and_the_clients_own_socket_options_do_not(pool_run):
    summary, run, by_name = pool_run
    direct = by_name["libpq-direct"]
    assert_waited_for_the_kernel(summary, run, direct, kernel_bounds(summary, direct))
    for name in ("pgb-defaults", "pgb-client-ut5000"):
        cell = by_name[name]
        closed_s = assert_closed_by_pgbouncer(summary, run, cell, "server conn crashed?")
        # the server leg's socket is in the cell's namespace: ss says when its kernel gave up, at its own base RTO
        t_fault = summary["fault"]["t"]
        leg = [o for o in pgbouncer_log.server_openings(run.read(run.cell_file(name, "pool.log"))) if o.t < t_fault][-1]
        assert_reported_after_the_kernel(f"{name}'s pgbouncer", port_ended(run, name, leg.local_port, t_fault),
                                         t_fault + closed_s + LOG_MS_S,
                                         lambda base_rto_s: blackhole_bounds(5, lead(summary), base_rto_s), t_fault)
    connected = next(r for r in probe_log.records(run.read(run.probe_log("pgb-client-ut5000"))) if "connected" in r)
    assert connected["sockopts"]["tcp_user_timeout_ms"] == 5000, connected     # set, on the loopback leg


def test_pgbouncers_own_limits_end_the_wait(pool_run):
    summary, run, by_name = pool_run
    for name in ("pgb-query-timeout4", "pgb-pgjdbc-query-timeout4"):
        closed_s = assert_closed_by_pgbouncer(summary, run, by_name[name], "query timeout")
        assert_within(closed_s, (QUERY_TIMEOUT_S, QUERY_TIMEOUT_S + JANITOR_PERIOD_S + lead(summary) + 0.1), name)
    closed_s = assert_closed_by_pgbouncer(summary, run, by_name["pgb-tcp-user-timeout5000"], "server conn crashed?")
    assert_within(closed_s, user_timeout_bounds(5.0, lead(summary)), "pgbouncer's tcp_user_timeout 5000")


def test_every_client_is_back_on_the_promoted_replica_and_the_page_says_what_closed_it(pool_run):
    summary, run, by_name = pool_run
    for cell in summary["cells"]:
        assert cell["probe"]["server_after"] == "db-replica", cell["cell"]
        if cell["cell"] != "libpq-direct":
            assert cell["pool"]["version"].startswith("PgBouncer 1."), cell["pool"]
            # env.json asked pgbouncer itself; the pool's own log said the same version
            assert cell["pool"]["version"].split()[1] in run.env()["versions"]["pgbouncer"], run.env()["versions"]
            # the run's stop reached it (its own last words), not the kill when the stop's time was up
            assert "LOG got SIGTERM" in run.read(run.cell_file(cell["cell"], "pool.log")), cell["cell"]
    page = run.page.read_text()
    assert "Through a connection pool" in page and "query timeout" in page and "server conn crashed?" in page
