"""What the kube-proxy tests (host: nftables; guest: IPVS) check alike: the lab's addresses, and
that each client's wait ended where KERNEL_FACTS.md says, whatever kube-proxy did."""
from tests.kernel_facts import SEND_STAMP_S, blackhole_bounds, user_timeout_bounds
from tests.scenarios.conftest import assert_waited, cells


def primary_and_replica(run):
    """Where compose.yaml places them (.21, .22) on the back network this lab was given."""
    back = run.env()["lab"]["back"]
    return f"{back}.21:3306", f"{back}.22:3306"


def assert_clients_waited_for_their_kernel(summary):
    """r5 within tcp_retries2=5's range, r5-ut3000 within TCP_USER_TIMEOUT 3 s's (KERNEL_FACTS.md),
    each counted as KERNEL_FACTS.md counts it: from the client's first unanswered send, the failed
    operation's own start. Counted from the fault's stamp instead, the wait also holds how late
    the probe sent after the death: in a one-vCPU guest, whose CPU the fault's own execs took,
    r5-ut3000's error came 5.33 s after the stamp (a CI run), the window from the stamp 3.15-4.64 s."""
    by_name = cells(summary)
    for name, bounds in (("r5", blackhole_bounds(5, SEND_STAMP_S, by_name["r5"]["predicted"]["base_rto_s"])),
                         ("r5-ut3000", user_timeout_bounds(3.0, SEND_STAMP_S))):
        assert_waited(by_name[name], bounds)
    return by_name
