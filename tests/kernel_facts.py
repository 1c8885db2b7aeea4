"""What ../shared/KERNEL_FACTS.md says the kernel does, as numbers tests can hold a run to,
independently of the harness's own model (harness/measure/kernel_model.py)."""

# tcp_retries2: (budget s, expected ETIMEDOUT after the first unacknowledged send on a veth path: low, high)
RETRIES2 = {
    1: (0.6, 1.4, 1.7), 2: (1.4, 3.1, 3.4), 3: (3.0, 6.4, 6.9), 5: (12.6, 12.8, 13.5),
    6: (25.4, 26.1, 26.8), 8: (102.2, 104, 108), 10: (324.6, 333, 337), 12: (564.6, 575, 583),
    15: (924.6, 937, 952),
}
FIRST_RTO_S = (0.2, 0.4)        # TCP_USER_TIMEOUT: ETIMEDOUT ~ first RTO + U


TABLE_RTO_S = 0.2               # the table's ladder starts from RTO ~ 200 ms (+ srtt on a veth path)


def blackhole_bounds(retries2, lead_s, base_rto_s=None):
    """Seconds after the fault: the table's range, the first unacknowledged send being up to
    lead_s (a probe interval, and the fault step's uncertainty) after the fault. Given the base RTO
    the kernel reported for the socket (ss), the ladder, a sum of doublings of it, scales with it:
    VM_FACTS.md's guests (204-216 ms) stretch it by up to ~1 s."""
    _, low, high = RETRIES2[retries2]
    scale = max(1.0, (base_rto_s or TABLE_RTO_S) / TABLE_RTO_S)
    return low - 0.05, high * scale + lead_s


WHEEL_SLACK = 0.125              # a timer may fire up to 12.5 % of its interval late


def user_timeout_bounds(user_timeout_s, lead_s):
    """ETIMEDOUT ~ first RTO + U; the timer that ends it was set for at most U and may run late
    by the wheel's slack (the table's own 5 s case measured 5.6 s)."""
    low = user_timeout_s + FIRST_RTO_S[0] - 0.05
    return low, user_timeout_s + FIRST_RTO_S[1] + WHEEL_SLACK * user_timeout_s + lead_s


def assert_within(value, bounds, what):
    low, high = bounds
    assert value is not None and low <= value <= high, f"{what}: {value} s, KERNEL_FACTS.md says {low:.2f}-{high:.2f} s"
