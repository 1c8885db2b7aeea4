"""Accounts of a cell's own on MySQL 9.7 (client-zoo-short's Connector/J cells, DB_ENGINE=mysql),
through the zoo's failover. caching_sha2_password without TLS needs the server's RSA key for a login
the server has not cached (docs/facts/mysql.md); Connector/J asks for it only with
allowPublicKeyRetrieval. The witnesses are the drivers' own errors and a second client: the cell
with the fix logs in to the same server at the same time, so the server itself takes logins."""

import pytest

from harness import scenario
from harness.measure import probe_log
from tests.kernel_facts import blackhole_bounds
from tests.kernel_witness import assert_reported_what_the_kernel_ended, first_failure
from tests.clock_steps import once_more_if_the_clock_was_set
from tests.scenarios.conftest import assert_nothing_left, cells, run_scenario_once

REFUSED = {"jdbc": "Public Key Retrieval is not allowed",
           "hikari": "Connection is not available"}      # HikariCP hides the cause (images/client/zoo/README.md)


@pytest.fixture(scope="module")
def logins_run(tmp_path_factory):
    raw = scenario.load_raw("client-zoo-short")
    own = [c for c in raw["cells"] if c.get("account")]
    parsed, raw = scenario.load("client-zoo-short", {"DB_ENGINE": "mysql", "cells": own, "warmup_s": 5,
                                                     "observe_s": 30})
    results = tmp_path_factory.mktemp("logins")
    run = once_more_if_the_clock_was_set(lambda: run_scenario_once(parsed, raw, results))
    assert_nothing_left(run)
    return run.summary(), run


def test_a_cold_account_is_refused_from_the_start_unless_the_driver_may_ask_for_the_key(logins_run):
    summary, _ = logins_run
    assert summary["database"]["engine"] == "mysql"
    by_name = cells(summary)
    for client, refusal in REFUSED.items():
        refused, fixed = by_name[f"{client}-cold-account"], by_name[f"{client}-cold-account-key"]
        assert refusal in (refused["probe"]["never_worked"] or ""), refused["probe"]
        assert refused["probe"]["server_before"] is None and not refused["survived"]
        assert fixed["probe"]["never_worked"] is None and fixed["probe"]["server_before"] == "db-primary"
        assert fixed["probe"]["server_after"] == "db-replica", fixed["probe"]


def test_an_account_in_use_is_refused_by_the_promoted_replica_that_never_saw_it_log_in(logins_run):
    """jdbc-primed-account worked on the primary until the kernel ended its blackholed query, then
    every reconnect to the new primary was refused; its twin with the fix came back there."""
    summary, run = logins_run
    by_name, t_fault = cells(summary), summary["fault"]["t"]
    primed, fixed = by_name["jdbc-primed-account"], by_name["jdbc-primed-account-key"]
    for cell in (primed, fixed):
        assert cell["probe"]["server_before"] == "db-primary", cell["probe"]
        op = first_failure(run, cell, t_fault)
        lead_s = 0.1 + summary["fault"]["uncertainty_s"]      # a probe interval and the fault step's
        assert_reported_what_the_kernel_ended(run, cell, op, blackhole_bounds(5, lead_s, cell["predicted"]["base_rto_s"]),
                                              t_fault)
    assert fixed["probe"]["server_after"] == "db-replica"
    assert primed["probe"]["recover_s"] is None
    later = failures_after(run, primed, t_fault)[1:]
    assert later and all(REFUSED["jdbc"] in op.get("detail", "") for op in later), later[:3]
    assert REFUSED["jdbc"] in primed["client"]["saw"]
    assert fixed["probe"]["recover_s"] < summary["observed_s"]


def failures_after(run, cell, t_fault):
    return [op for op in probe_log.parse(run.read(run.probe_log(cell["cell"]))) if not op["ok"] and op["t1"] > t_fault]
