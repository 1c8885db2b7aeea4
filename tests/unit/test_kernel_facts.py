"""What differs between kernels (measure/kernel_facts.py), from env.json's kernel_facts."""
from harness.measure import comparison, kernel_facts, summary_record

OLD = {"hz": 250, "sysctl_defaults": {"tcp_retries2": "15", "tcp_syn_retries": "6", "tcp_rmem": "4096 131072 6291456",
                                      "vs/expire_nodest_conn": "0"}}
NEW = {"hz": 250, "sysctl_defaults": {"tcp_retries2": "15", "tcp_syn_retries": "6", "tcp_rmem": "4096 131072 33554432",
                                      "tcp_syn_linear_timeouts": "4", "tcp_rto_max_ms": "120000"}}


def test_only_defaults_that_differ_are_listed_and_those_that_move_the_figures_come_first():
    rows = kernel_facts.differences({"5.10": OLD, "7.3": NEW})
    assert [r["name"] for r in rows] == ["IPVS", "tcp_rto_max_ms", "tcp_syn_linear_timeouts", "tcp_rmem"]
    linear = rows[2]
    assert linear["values"] == {"5.10": None, "7.3": "4"}
    assert "came with Linux 6.5" in linear["bearing"]
    assert rows[-1]["bearing"] is None


def test_ipvs_s_sysctls_are_compared_only_between_kernels_that_have_it():
    host = {"hz": 250, "sysctl_defaults": {"tcp_retries2": "15"}}
    guest_a = {"hz": 250, "sysctl_defaults": {"tcp_retries2": "15", "vs/expire_nodest_conn": "0", "vs/sync_qlen_max": "46645"}}
    guest_b = {"hz": 250, "sysctl_defaults": {"tcp_retries2": "15", "vs/expire_nodest_conn": "0", "vs/sync_qlen_max": "46599"}}
    rows = {r["name"]: r for r in kernel_facts.differences({"host": host, "a": guest_a, "b": guest_b})}
    assert set(rows) == {"IPVS", "vs/sync_qlen_max"}
    assert rows["IPVS"]["values"] == {"host": None, "a": "yes", "b": "yes"}
    assert rows["vs/sync_qlen_max"]["values"]["host"] == "no IPVS"
    assert "memory" in rows["vs/sync_qlen_max"]["bearing"]


def test_a_run_without_kept_facts_is_left_out_and_one_kernel_has_nothing_to_differ_from():
    assert kernel_facts.differences({"old run": None, "7.3": NEW}) == []


def _summary(base_rto_s):
    return {"scenario": "s", "run": "r", "cells": [
        {"cell": "r5", "probe": {"detect_s": 13.0, "recover_s": 13.5, "error": "E", "within_window": True},
         "predicted": {"expected_s": 13.0, "earliest_s": 12.0, "latest_s": 14.0, "basis": "b",
                       "base_rto_s": base_rto_s}}]}


def test_a_comparison_carries_each_kernel_s_hz_base_rto_and_differing_defaults():
    result = comparison.compare([("5.10", summary_record.read(_summary(0.204)), {"kernel_facts": OLD}),
                                 ("7.3", summary_record.read(_summary(0.208)), {"kernel_facts": NEW})])
    facts = result.kernel_facts
    assert facts["hz"] == {"5.10": 250, "7.3": 250}
    assert facts["base_rto_ms"] == {"5.10": 204.0, "7.3": 208.0}
    assert facts["kept"] == ["5.10", "7.3"] and len(facts["sysctls"]) == 4
