"""What the kube-proxy tests (host: nftables; guest: IPVS) check alike: the lab's addresses, and
that each client's wait ended where docs/facts/kernel.md says, whatever kube-proxy did."""
from harness.measure import probe_log
from tests.kernel_facts import SEND_STAMP_S, blackhole_bounds, user_timeout_bounds
from tests.scenarios.conftest import assert_waited, cells

BEFORE_FAULT_S = 5.0         # the probe's own operations this long before the fault show its overhead


def primary_and_replica(run):
    """Where compose.yaml places them (.21, .22) on the back network this lab was given."""
    back = run.env()["lab"]["back"]
    return f"{back}.21:3306", f"{back}.22:3306"


def probe_overhead_s(run, cell, t_fault):
    """How long the client's own operations took just before the fault: its stamp, its send, the
    server's answer and its reading of it, all but the network. A failed operation's stall also
    holds its stamp-to-send and error-to-stamp time, which this bounds: in a loaded two-vCPU TCG
    guest a query that the server answered at once took up to 0.47 s (a CI run), on this host
    a few ms. At least SEND_STAMP_S."""
    ops = probe_log.parse(run.read(run.probe_log(cell)))
    recent = [op["t1"] - op["t0"] for op in ops if op.get("ok") and t_fault - BEFORE_FAULT_S <= op["t1"] <= t_fault]
    return max([SEND_STAMP_S, *recent])


def assert_clients_waited_for_their_kernel(summary, run):
    """r5 within tcp_retries2=5's range, r5-ut3000 within TCP_USER_TIMEOUT 3 s's (docs/facts/kernel.md),
    each counted as docs/facts/kernel.md counts it: from the client's first unanswered send, the failed
    operation's own start, with the probe's own overhead as observed before the fault. Counted
    from the fault's stamp instead, the wait also holds how late the probe sent after the death:
    in a one-vCPU guest, whose CPU the fault's own execs took, r5-ut3000's error came 5.33 s after
    the stamp (a CI run), the window from the stamp 3.15-4.64 s."""
    by_name = cells(summary)
    t_fault = summary["fault"]["t"]
    for name in ("r5", "r5-ut3000"):
        lead = probe_overhead_s(run, name, t_fault)
        bounds = (blackhole_bounds(5, lead, by_name[name]["predicted"]["base_rto_s"]) if name == "r5"
                  else user_timeout_bounds(3.0, lead))
        assert_waited(by_name[name], bounds, f"{name} (the probe's own overhead before the fault {lead:.3f} s)")
    return by_name
