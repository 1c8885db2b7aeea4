"""The model of a name that moves (harness/measure/dns_model.py), held to the rules its sources
state (docs/facts/dns.md): an answer is kept ttl seconds after the lookup that fetched it, -1 for
ever, 0 not at all; a connect to a silent address lasts the driver's connect timeout or the
kernel's SYN retries; a host list is walked in order, each try bounded (the wrapper's monitor:
test_host_monitor.py)."""
import math

from harness.measure import syn_model
from harness.measure.dns_model import NEW, OLD, Connects, NameCache, back_t, host_list_connect_s, reconnects

JVM_DEFAULT = NameCache("the JVM", 30.0)       # OpenJDK without a security manager
SYN_6_1 = syn_model.syn_give_up_s(6, 0)     # 127 s
NO_LIMIT = Connects(None, SYN_6_1, 0.1)
LIMIT_3 = Connects(3.0, SYN_6_1, 0.1)


def test_the_kernels_syn_retries_are_the_facts_ladders():
    assert SYN_6_1 == 127.0 and syn_model.syn_give_up_s(6, 4) == 131.0
    assert NO_LIMIT.silent_s == 127.0 and LIMIT_3.silent_s == 3.0
    assert Connects(300.0, SYN_6_1, 0.1).silent_s == 127.0     # a limit longer than the kernel's never ends it


def test_a_client_whose_cache_expired_after_the_record_moved_connects_to_the_new_primary_at_once():
    attempts = reconnects(13.5, record_moved_t=10.0, caches=(JVM_DEFAULT,), connects=NO_LIMIT, looked_up_t=-60.0)
    assert [(a.address, a.answered_by) for a in attempts] == [(NEW, "the record")]
    assert back_t(attempts) == 13.5


def test_a_reconnect_before_the_record_moved_keeps_the_old_address_for_the_whole_ttl():
    # the read timeout ends the wait at 3 s; the record moves at 10 s; the lookup at 3.1 s is kept to 33.1 s
    attempts = reconnects(3.1, 10.0, (JVM_DEFAULT,), LIMIT_3, looked_up_t=-60.0)
    old = [a for a in attempts if a.address == OLD]
    assert old[0].answered_by == "the record" and all(a.answered_by == "the JVM" for a in old[1:])
    assert all(math.isclose(a.ended_t - a.t, 3.0) for a in old)
    assert attempts[-1].address == NEW and 33.1 <= back_t(attempts) < 33.1 + 3.1
    # without a connect timeout the one connect to the old address waits out the SYN retries
    slow = reconnects(3.1, 10.0, (JVM_DEFAULT,), NO_LIMIT, looked_up_t=-60.0)
    assert [a.address for a in slow] == [OLD, NEW] and math.isclose(back_t(slow), 3.1 + 127.0 + 0.1)


def test_a_cache_kept_for_ever_never_lets_the_client_back_and_no_cache_follows_the_record():
    forever = reconnects(3.1, 10.0, (NameCache("the JVM under a security manager", None),), LIMIT_3,
                         looked_up_t=-60.0, until_t=600.0)
    assert back_t(forever) is None and {a.address for a in forever} == {OLD}
    never = reconnects(3.1, 10.0, (NameCache("the JVM, ttl 0", 0.0),), LIMIT_3, looked_up_t=-60.0)
    assert back_t(never) == min(a.t for a in never if a.t >= 10.0)


def test_an_outer_cache_answers_when_the_runtimes_has_expired():
    # Go keeps no cache; a caching daemon on the host with a 60 s TTL answered at the client's first connect
    daemon = NameCache("nscd", 60.0)
    attempts = reconnects(3.1, 10.0, (NameCache("Go", 0.0), daemon), LIMIT_3, looked_up_t=-30.0)
    assert attempts[0].answered_by == "nscd" and attempts[0].address == OLD
    assert back_t(attempts) >= 30.0 and attempts[-1].answered_by == "the record"


def test_a_host_list_walks_its_hosts_in_order_each_try_bounded():
    assert host_list_connect_s([False, True], LIMIT_3) == (3.0, 1)
    assert host_list_connect_s([False, True], NO_LIMIT) == (127.0, 1)    # libpq without connect_timeout
    assert host_list_connect_s([True, True], NO_LIMIT) == (0.0, 0)
    assert host_list_connect_s([False, False], LIMIT_3) == (6.0, None)
