"""What every control plane (harness/control/) must tell about a run it changed the director in:
when it changed it and why, read from the run's files, and its "LB noticed" model around that.
The witness is the clients' own record: none of them reached the new backend before the first
change after the fault (a plane may also change it before, as keepalived does while servers start)."""
from harness.control import NoticeWindow, control_plane
from harness.measure.run_record import first_fault
from harness.scenario import of_run
from harness.store import RunDir

# The scenario test whose run each control plane changed the director in (tests/scenarios/).
CLOUD = "tests/scenarios/test_cloud_lb.py::"
PERSIST = CLOUD + "test_a_dead_targets_flows_persist_and_each_client_waits_for_its_own_kernel"
CONTRACT_RUNS = {"aws-nlb": CLOUD + "test_aws_nlb_resets_a_dead_targets_flows_at_their_next_retransmission",
                 "gcp-passthrough": PERSIST + "[gcp-passthrough]", "azure-standard": PERSIST + "[azure-standard]",
                 "haproxy": "tests/scenarios/test_haproxy.py::test_haproxy_ends_each_wait_by_its_own_limits_and_"
                            "the_clients_kernel_settings_do_nothing",
                 "manual": "tests/scenarios/test_blackhole.py::test_lvs_switchover_hang_follows_tcp_retries2",
                 "dns": "tests/scenarios/test_dns_failover.py::test_a_name_that_moves_leaves_each_reconnect_to_its_own_limits",
                 "patroni": "tests/scenarios/test_patroni.py::test_patroni_promotes_by_itself_and_haproxy_follows",
                 "patroni-dns": "tests/scenarios/test_patroni_dns.py::test_patronis_callback_moves_the_name_and_each_"
                                "client_follows_it",
                 "keepalived": "tests/guest/test_keepalived.py::test_keepalived_takes_a_silently_dead_primary_out_and_"
                               "each_client_follows",
                 "kube-proxy": "tests/scenarios/test_kube_proxy.py::test_kube_proxy_nftables_reprograms_the_director_"
                               "from_the_endpoint_write_and_clients_blackhole"}


def manual_window(scenario):
    """The manual plane's change is the scenario's own command: it lands when its step runs, the waits
    before it after the first fault (its lb_noticed counts from the change itself, so it cannot be
    the witness of when the change landed)."""
    steps = list(scenario.steps)
    first = next(i for i, s in enumerate(steps) if s.kind == "fault")
    swap = next(i for i, s in enumerate(steps) if s.kind == "fault" and s.name in ("ipvs_swap", "lb_idle_timeout"))
    waited = sum(s.seconds for s in steps[first:swap] if s.kind == "wait")
    return NoticeWindow(waited, waited, waited, "the scenario's own command, after its waits")


def check_changes(run_path):
    run = RunDir(run_path)
    summary, ran = run.summary(), of_run(run)
    plane = control_plane(ran.control, ran.control_settings)
    assert run.env()["control_plane"] == plane.name
    changes, fault = plane.changes(run), first_fault(run.events())
    assert [c.t for c in changes] == sorted(c.t for c in changes)
    assert all(c.what and c.why and "None" not in f"{c.what} {c.why}" for c in changes), changes
    after = [c for c in changes if c.t >= fault["started_t"] - 0.001]
    assert after, f"{plane.name}: no change of the director read from the run after its fault"
    first = after[0]
    # the clients that go through the plane (a client listing the servers' own names does not)
    through = {c.name for c in ran.cells if not c.hosts}
    reached_new = [fault["t"] + c["probe"]["recover_s"] for c in summary["cells"]
                   if c["cell"] in through and c["probe"]["recover_s"] is not None
                   and c["probe"]["server_after"] != c["probe"]["server_before"]]
    assert reached_new and first.t <= min(reached_new), "a client reached the new backend before the change"
    if plane.name == "dns":
        check_step_change(ran, run.events(), fault, first, "dns_move")
        return
    window = plane.lb_noticed(first, fault["t"]) if plane.name != "manual" else manual_window(ran)
    # the change landed between first.t and first.uncertainty_s later (the director's table sampled
    # still serving, then the control plane's log or the table without it): that span meets the model,
    # counted from a death that itself took effect up to the fault's own uncertainty_s after its stamp
    landed = (first.t - fault["t"], first.t + first.uncertainty_s - fault["t"])
    late_by = first.uncertainty_s + fault["uncertainty_s"] + 0.001
    assert window.earliest_s - 0.001 <= landed[1] and landed[0] <= window.latest_s + late_by, (
        f"{plane.name}: the change landed {landed[0]:.3f}-{landed[1]:.3f} s after the fault, the model says "
        f"{window.earliest_s:g}-{window.latest_s:g} s ({window.basis})")



def check_step_change(scenario, events, fault, change, step_name):
    """A plane whose change is a scenario step of its own (the dns plane's re-pointing): the change
    landed within that step's own run, which began once the waits before it had passed."""
    steps = list(scenario.steps)
    first = next(i for i, s in enumerate(steps) if s.kind == "fault")
    index = next(i for i, s in enumerate(steps) if s.kind == "fault" and s.name == step_name)
    waited = sum(s.seconds for s in steps[first:index] if s.kind == "wait")
    step = next(e for e in events if e.get("event") == "fault" and e.get("step") == index)
    assert step["started_t"] - fault["t"] >= waited - 0.01, (step, waited)
    assert step["started_t"] <= change.t and change.t + change.uncertainty_s <= step["done_t"] + 0.001, (step, change)
