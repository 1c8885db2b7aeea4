"""The client zoo on PostgreSQL (scenarios/client-zoo-pg.yaml): libpq (the lab's probe),
pgJDBC, HikariCP on it, node-postgres and pgx through one lvs-switchover failover at
tcp_retries2=5, at their defaults, with their own 3 s read timeout and with TCP_USER_TIMEOUT 5000
(which Go's runtime never takes from the preloaded library, nor pgx from libpq's parameter name). Bounds come from docs/facts/kernel.md
(tests/kernel_facts.py) and the settings the scenario gives each driver; the kernel's own timer
(ss) is the witness that the kernel, not the harness, ended a default client's wait."""
import json

from harness.measure import probe_log
from harness.store import RunDir
from tests.kernel_facts import assert_within, user_timeout_bounds
from tests.scenarios.conftest import cells
from tests.scenarios.test_client_zoo import assert_waited_for_the_kernel, kernel_bounds, lead

CLIENTS = {"libpq": "libpq", "pgjdbc": "pgjdbc", "hikari-pg": "hikari-pgjdbc", "node-pg": "node-postgres", "pgx": "pgx"}
# What each application sees when the kernel gives up: libpq's and Node's messages carry the
# kernel's errno; pgJDBC raises a PSQLException with SQLState 08006 (connection failure); pgx
# reports the end of its stream, the errno lost.
KERNEL_GAVE_UP = {"libpq": "ETIMEDOUT", "pgjdbc": "PSQLException", "hikari-pg": "PSQLException",
                  "node-pg": "ETIMEDOUT", "pgx": "unexpected EOF"}
OWN_TIMEOUT_ERRORS = ("TIMEOUT", "Query_read_timeout", "PSQLException", "timeout: context deadline exceeded")
OWN_TIMEOUT_S = 3.0


def test_each_postgresql_client_waits_for_the_kernel_or_its_own_timeout(run_scenario):
    summary, path = run_scenario("client-zoo-pg", warmup_s=5, observe_s=30)
    run, by_name = RunDir(path), cells(summary)
    versions = json.loads((path / "env.json").read_text())["versions"]
    assert versions["client libpq"].startswith("libpq5 15.") and versions["client node-postgres"] == "pg 8.13.1"
    assert versions["client pgjdbc"] == "postgresql-42.7.4.jar" and versions["client pgx"] == "pgx v5.7.6"
    assert versions["client hikari-pgjdbc"].split() == ["HikariCP-5.1.0.jar", "postgresql-42.7.4.jar"]
    for prefix in CLIENTS:
        defaults = by_name[f"{prefix}-defaults"]
        assert_waited_for_the_kernel(summary, run, defaults, kernel_bounds(summary, defaults))
        assert defaults["probe"]["error"] == KERNEL_GAVE_UP[prefix], defaults["probe"]
        own = by_name[f"{prefix}-own-timeout"]
        notice = lead(summary, "jdbc" if "jdbc" in CLIENTS[prefix] else prefix)   # a JVM's notice, as Connector/J's
        assert_within(own["probe"]["detect_s"], (OWN_TIMEOUT_S - 0.05, OWN_TIMEOUT_S + 0.5 + notice), own["cell"])
        assert own["probe"]["error"] in OWN_TIMEOUT_ERRORS, own["probe"]
        ut = by_name[f"{prefix}-ut5000"]
        for cell in (defaults, own, ut):
            assert cell["probe"]["server_after"] == "db-replica", cell["cell"]
        if prefix == "pgx":                # Go's runtime makes its own system calls: the option never reaches it
            assert "libsockopts:" not in run.read(run.probe_log(ut["cell"]))
            assert_waited_for_the_kernel(summary, run, ut, kernel_bounds(summary, ut))
            habit = by_name["pgx-libpq-habit"]      # libpq's name in pgx's settings: the server's, not the client's
            assert_waited_for_the_kernel(summary, run, habit, kernel_bounds(summary, habit))
            continue
        connected = next(r for r in probe_log.records(run.read(run.probe_log(ut["cell"]))) if "connected" in r)
        log = run.read(run.probe_log(ut["cell"]))
        assert connected.get("sockopts", {}).get("tcp_user_timeout_ms") == 5000 or \
            "TCP_USER_TIMEOUT=5000 (kernel reads back 5000)" in log, f"{prefix}: the option did not take"
        assert_waited_for_the_kernel(summary, run, ut, user_timeout_bounds(5.0, lead(summary)))
