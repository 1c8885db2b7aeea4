"""The client zoo (scenarios/client-zoo-short.yaml): six real MySQL clients through one
lvs-switchover failover at tcp_retries2=5, each at its defaults, with its own 3 s timeout, with
TCP_USER_TIMEOUT 5000 and with keepalive 5/1/3. Bounds come from KERNEL_FACTS.md and from the
settings the scenario gives each driver, not from the harness's model."""
import io

import pytest

from harness import scenario
from harness.measure import probe_log
from harness.pipeline import run_and_report
from tests.kernel_facts import assert_within, blackhole_bounds, user_timeout_bounds
from tests.scenarios.conftest import assert_nothing_left, cells

CLIENTS = ("pymysql", "jdbc", "hikari", "go", "node", "libmariadb")
OWN_TIMEOUT_S = 3.0             # what client-zoo-short.yaml sets for each driver


@pytest.fixture(scope="module")
def zoo_run(tmp_path_factory):
    parsed, raw = scenario.load("client-zoo-short")
    out = io.StringIO()
    run = run_and_report(parsed, raw, results=tmp_path_factory.mktemp("zoo"), out=out)
    print(out.getvalue())
    assert_nothing_left(run)
    return run.summary(), run


def lead(summary):
    return 0.1 + summary["fault"]["uncertainty_s"]


def kernel_bounds(summary, cell):
    """KERNEL_FACTS.md's tcp_retries2=5 range, its ladder scaled to the RTO the kernel reported (ss)."""
    return blackhole_bounds(5, lead(summary), cell["predicted"]["base_rto_s"])


def test_every_client_at_its_defaults_waits_for_the_kernel(zoo_run):
    summary, _ = zoo_run
    by_name = cells(summary)
    for client in CLIENTS:
        cell = by_name[f"{client}-defaults"]
        assert_within(cell["probe"]["detect_s"], kernel_bounds(summary, cell), cell["cell"])
        assert cell["probe"]["server_after"] == "mysql-replica", f"{client} did not get back to work"


def test_each_drivers_own_timeout_ends_the_wait(zoo_run):
    summary, _ = zoo_run
    by_name = cells(summary)
    for client in CLIENTS:
        cell = by_name[f"{client}-own-timeout"]
        assert_within(cell["probe"]["detect_s"], (OWN_TIMEOUT_S - 0.05, OWN_TIMEOUT_S + 0.5 + lead(summary)),
                      cell["cell"])


def test_tcp_user_timeout_reaches_every_client_that_connects_through_libc(zoo_run):
    summary, run = zoo_run
    by_name = cells(summary)
    for client in CLIENTS:
        cell = by_name[f"{client}-ut5000"]
        log = run.read(run.probe_log(cell["cell"]))
        if client == "go":                 # its runtime makes its own system calls
            assert "libsockopts:" not in log
            assert_within(cell["probe"]["detect_s"], kernel_bounds(summary, cell), cell["cell"])
        else:
            # The kernel's read-back: libsockopts' line for the zoo programs, the probe's own record for pymysql.
            connected = next(r for r in probe_log.records(log) if "connected" in r)
            held = connected.get("sockopts", {}).get("tcp_user_timeout_ms") == 5000
            assert held or "TCP_USER_TIMEOUT=5000 (kernel reads back 5000)" in log, f"{client}: the option did not take"
            assert_within(cell["probe"]["detect_s"], user_timeout_bounds(5.0, lead(summary)), cell["cell"])


def test_keepalive_does_not_help_a_connection_with_a_request_outstanding(zoo_run):
    summary, _ = zoo_run
    for client in CLIENTS:
        cell = cells(summary)[f"{client}-ka5-1-3"]
        assert_within(cell["probe"]["detect_s"], kernel_bounds(summary, cell), cell["cell"])


def test_the_page_names_each_driver_and_what_the_application_saw(zoo_run):
    summary, run = zoo_run
    for cell in summary["cells"]:
        if cell["cell"].startswith("pymysql"):
            continue
        client = cell["client"]
        assert client["driver"] and client["saw"], cell["cell"]
        connected = [r for r in probe_log.records(run.read(run.probe_log(cell["cell"]))) if "connected" in r]
        assert len(connected) >= 2, f"{cell['cell']}: no second connection after the failover"
    page = run.page.read_text()
    assert "Which settings save each client" in page and "mysql-connector-j 8.4.0" in page
