"""What the kube-proxy tests (host: nftables; guest: IPVS) check alike: the lab's addresses, and
that each client's wait ended where KERNEL_FACTS.md says, whatever kube-proxy did."""
from tests.kernel_facts import assert_within, blackhole_bounds, user_timeout_bounds
from tests.scenarios.conftest import cells


def primary_and_replica(run):
    """Where compose.yaml places them (.21, .22) on the back network this lab was given."""
    back = run.env()["lab"]["back"]
    return f"{back}.21:3306", f"{back}.22:3306"


def assert_clients_waited_for_their_kernel(summary):
    """r5 within tcp_retries2=5's range, r5-ut3000 within TCP_USER_TIMEOUT 3 s's (KERNEL_FACTS.md)."""
    by_name, lead = cells(summary), 0.1 + summary["fault"]["uncertainty_s"]
    assert_within(by_name["r5"]["probe"]["detect_s"], blackhole_bounds(5, lead, by_name["r5"]["predicted"]["base_rto_s"]),
                  "r5")
    assert_within(by_name["r5-ut3000"]["probe"]["detect_s"], user_timeout_bounds(3.0, lead), "r5-ut3000")
    return by_name
