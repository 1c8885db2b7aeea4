"""What docs/facts/kernel.md says the kernel does, as numbers tests can hold a run to,
independently of the harness's own model (harness/measure/kernel_model.py)."""

# tcp_retries2: (budget s, expected ETIMEDOUT after the first unacknowledged send on a veth path: low, high)
RETRIES2 = {
    1: (0.6, 1.4, 1.7), 2: (1.4, 3.1, 3.4), 3: (3.0, 6.4, 6.9), 5: (12.6, 12.8, 13.5),
    6: (25.4, 26.1, 26.8), 8: (102.2, 104, 108), 10: (324.6, 333, 337), 12: (564.6, 575, 583),
    15: (924.6, 937, 952),
}
FIRST_RTO_S = (0.2, 0.4)        # TCP_USER_TIMEOUT: ETIMEDOUT ~ first RTO + U


# The probe stamps an operation's start just before it sends: the kernel's clock for the
# unacknowledged request, and the application's read timer, start at most this much later.
SEND_STAMP_S = 0.1
APP_TIMER_LATE_S = 0.05         # an application's own timer, as bench-scale's 263 read-timeout cells measured

WHEEL_SLACK = 0.125             # a timer may fire up to 12.5 % of its interval late
RTO_MAX_S = 120.0
TABLE_RTO_S = 0.2               # the table's ladder starts from RTO ~ 200 ms (+ srtt on a veth path)


def blackhole_bounds(retries2, lead_s, base_rto_s=None):
    """Seconds after the fault, as windows the error may fall in. The table's range, the first
    unacknowledged send being up to lead_s (a probe interval, and the fault step's uncertainty)
    after the fault. Given the base RTO the kernel reported for the socket (ss), the ladder, a sum
    of doublings of it, scales with it: docs/facts/guest.md's guests (204-216 ms) stretch it by up to ~1 s.
    Plus an earlier firing's window where that firing can already end it (earliest_firing_window).
    The table was measured on an idle machine; the timer that ends the hang, set for about half of
    it (the RTO doubles), may fire up to WHEEL_SLACK of that late, as it does on a loaded one (a
    busy make test: tcp_retries2=3 ended 7.213 s after the fault, its row's high 6.9 s + lead 0.28 s)."""
    _, low, high = RETRIES2[retries2]
    rto = base_rto_s or TABLE_RTO_S
    scaled_high = high * max(1.0, rto / TABLE_RTO_S)
    table = (low - 0.05, scaled_high + lead_s)
    loaded = (table[0], table[1] + scaled_high * WHEEL_SLACK / 2)
    earliest = earliest_firing_window(retries2, rto, lead_s)
    if earliest[0] >= table[0] or earliest[1] >= table[1]:
        return [loaded]                 # not a firing before the table's row: the row's own
    if earliest[1] < table[0]:
        return [earliest, loaded]
    # a long lead (a slow fault step) stretches the earlier firing's window into the table's
    return [(earliest[0], loaded[1])]


def earliest_firing_window(retries2, rto_s, lead_s):
    """docs/facts/kernel.md: the budget is checked only when the RTO timer fires, from the first
    retransmission on, and each timer may fire up to WHEEL_SLACK late. The TLP fires one RTO
    after the first send, the first retransmission (it starts the clock) one more RTO later,
    then the RTO doubles up to RTO_MAX_S. The first firing that, late, can be past the budget
    is the earliest the error can come: when it falls short of the table's row, late timers
    (a loaded machine) or a longer RTO end the hang one doubling early (the table's
    tcp_retries2=4 row is the same borderline). That firing's window."""
    budget = RETRIES2[retries2][0]
    clock_s = 2 * rto_s
    fired_s, rto = clock_s + 2 * rto_s, 4 * rto_s
    while (fired_s - clock_s) * (1 + WHEEL_SLACK) < budget:
        fired_s, rto = fired_s + rto, min(2 * rto, RTO_MAX_S)
    return fired_s - 0.05, fired_s * (1 + WHEEL_SLACK) + lead_s


def user_timeout_bounds(user_timeout_s, lead_s):
    """ETIMEDOUT ~ first RTO + U; the timer that ends it was set for at most U and may run late
    by the wheel's slack (the table's own 5 s case measured 5.6 s)."""
    low = user_timeout_s + FIRST_RTO_S[0] - 0.05
    return low, user_timeout_s + FIRST_RTO_S[1] + WHEEL_SLACK * user_timeout_s + lead_s


def assert_within(value, bounds, what):
    """bounds: (low, high), or a list of such windows."""
    windows = bounds if isinstance(bounds, list) else [bounds]
    shown = " or ".join(f"{low:.2f}-{high:.2f}" for low, high in windows)
    assert value is not None and any(low <= value <= high for low, high in windows), (
        f"{what}: {value if value is None else round(value, 3)} s, docs/facts/kernel.md says {shown} s")


def assert_meets(bracket, bounds, what):
    """bracket: (earliest, latest) a measured moment lies in; it must meet one of the windows."""
    windows = bounds if isinstance(bounds, list) else [bounds]
    shown = " or ".join(f"{low:.2f}-{high:.2f}" for low, high in windows)
    earliest, latest = bracket
    assert any(earliest <= high and low <= latest for low, high in windows), (
        f"{what}: {earliest:.3f}-{latest:.3f} s, docs/facts/kernel.md says {shown} s")


# docs/facts/production.md (seed 003): when an unanswered SYN is sent again, s after the first, with
# the default tcp_syn_retries=6: kernels with tcp_syn_linear_timeouts (>= 6.5, default 4) and without.
SYN_RETRANSMITTED_AT_S = {"linear": (1, 2, 3, 4, 5, 7, 11, 19, 35, 67), "doubling": (1, 3, 7, 15, 31, 63)}


def syn_schedule(linear_timeouts):
    return SYN_RETRANSMITTED_AT_S["linear" if linear_timeouts else "doubling"]


def assert_answered_at_syn_retransmissions(connects, linear_timeouts, quantum_s=0.5):
    """Connects answered after k SYN retransmissions: none before the k-th went out (the kernel
    cannot be early; the prober noticing late only adds), and the middle one of each group within
    quantum_s after it (the answer to that SYN: setup quantised at the schedule). A few late
    observations (a busy machine delaying the prober) do not move the middle one."""
    schedule = syn_schedule(linear_timeouts)
    groups = {}
    for c in connects:
        if c.ok and c.syn_retrans:
            assert c.seconds >= schedule[c.syn_retrans - 1], (c, schedule)
            groups.setdefault(c.syn_retrans, []).append(c.seconds)
    for k, times in groups.items():
        middle = sorted(times)[len(times) // 2]
        assert middle < schedule[k - 1] + quantum_s, (k, sorted(times))
    return groups
