"""make explain where the clients connect to a name (DNS_MOVED_AFTER_S): each reconnect's lookup
through the client's own cache, held to what dns-failover measured on this host (docs/facts/dns.md,
2026-12-05: the name moved 16.3-16.6 s after the death, every first error at 13.4 s)."""
import pytest

from harness.answer import answer, words
from harness.answer.explain import ExplainError, parse_knobs
from harness.answer.ranking import rank

DNS = ["TCP_RETRIES2=5", "DNS_MOVED_AFTER_S=16.6"]
JVM = DNS + ["CLIENT=jdbc", "connectTimeout=2000"]


def found(knobs):
    return answer(parse_knobs(knobs)["QUESTION"])


@pytest.mark.parametrize("knobs, measured", [
    (DNS, (18.39, 18.44, 18.45)),                                   # the probe: glibc, no cache; 5 s connect timeout
    (JVM + ["networkaddress.cache.ttl=0"], (17.46, 17.48, 17.49)),
    (JVM + ["networkaddress.cache.ttl=5"], (19.45, 19.49)),
    (JVM, (19.48, 19.53, 25.48)),        # 30 s from the JVM's first lookup, made before the death: when it ran out varies
])
def test_each_clients_back_again_is_where_the_lab_measured_it(knobs, measured):
    back = found(knobs).back
    assert all(back.earliest_s <= m <= back.latest_s for m in measured), (back, measured)


def test_a_fresh_lookup_at_the_error_keeps_the_old_address_a_whole_ttl_and_for_ever_is_never():
    assert found(JVM).back.expected_s == pytest.approx(43.4, abs=0.05)        # 13.3 s + 30 s + its next connect
    assert found(JVM + ["networkaddress.cache.ttl=0"]).back.expected_s < found(JVM + ["networkaddress.cache.ttl=5"]).back.expected_s
    never = found(JVM + ["networkaddress.cache.ttl=-1"])
    assert never.back.expected_s is None and "never answers again" in words.headline(never)
    ranked = rank(never.question)
    assert ranked.rows[0].cure.change.startswith("networkaddress.cache.ttl=5")


def test_a_name_and_a_load_balancer_are_not_asked_together_nor_the_jvms_cache_behind_a_vip():
    with pytest.raises(ExplainError, match="one load balancer in front at a time"):
        parse_knobs(DNS + ["HAPROXY=inter=2"])
    with pytest.raises(ExplainError, match="changes nothing here"):
        parse_knobs(["CLIENT=jdbc", "networkaddress.cache.ttl=5"])
    assert parse_knobs(JVM + ["networkaddress.cache.ttl=-1"])["SETTINGS"] == (("connectTimeout", 2000),
                                                                              ("networkaddress.cache.ttl", -1))


def test_a_pools_other_dead_connections_hold_the_client_under_a_name_too():
    one = found(DNS + ["CLIENT=hikari", "connectTimeout=2000", "networkaddress.cache.ttl=0"])
    pool = found(DNS + ["CLIENT=hikari", "connectTimeout=2000", "networkaddress.cache.ttl=0", "maximumPoolSize=3"])
    # HikariCP checks each of the 2 other dead connections for validationTimeout (5 s) before a new one
    assert pool.back.expected_s >= one.error.expected_s + 2 * 5.0 and pool.back.expected_s > one.back.expected_s
    assert "validationTimeout" in pool.back.basis


def test_the_closed_form_ends_where_the_name_models_reconnects_do():
    """back_by_name.through_at against measure/dns_model.reconnects, connect by connect (attempt
    lengths that divide no TTL: a lookup at the very instant an entry runs out is either's)."""
    import random

    from harness.answer.back_by_name import through_at
    from harness.measure.dns_model import Connects, NameCache, back_t, reconnects
    rng = random.Random(11)
    for _ in range(3000):
        attempt, ttl = rng.choice((0.7, 2.3, 3.1, 4.9)), rng.choice((0.0, 1.0, 5.0, 30.0, 60.0))
        error, moved = rng.uniform(0, 40), rng.uniform(0, 60)
        expiry = error + rng.uniform(0, ttl) if ttl else error
        caches = (NameCache("the runtime", ttl),) if ttl else ()
        attempts = reconnects(error, moved, caches, Connects(attempt, attempt, 0.0),
                              looked_up_t=expiry - ttl if ttl else None)
        assert through_at(attempt, ttl, error, moved, expiry) == pytest.approx(back_t(attempts)), (
            attempt, ttl, error, moved, expiry)


def test_a_day_long_cache_is_answered_at_once_not_tried_every_tenth_of_a_second():
    from harness.answer.back_by_name import MOST_TRIED, back_window
    expected, earliest, latest = back_window(0.001, 86_400, 938.0, 3600.0)   # 86 million attempt starts
    assert earliest <= expected <= latest and expected == pytest.approx(938.0 + 86_400, abs=0.01)
    assert MOST_TRIED <= 20_000


NSCD = ["TCP_RETRIES2=5", "DNS_MOVED_AFTER_S=16.4", "NAME_CACHE=nscd", "DNS_TTL_S=5"]


@pytest.mark.parametrize("knobs, measured", [
    (NSCD, 23.55),                                                          # the probe, through nscd
    (NSCD + ["CLIENT=jdbc", "connectTimeout=2000", "networkaddress.cache.ttl=0"], 21.56),
    (NSCD + ["CLIENT=go", "timeout=2s"], 17.54),                          # Go's resolver never asks nscd
])
def test_nscd_keeps_the_old_address_until_its_reload_as_dns_failover_nscd_measured(knobs, measured):
    """docs/facts/dns.md: dns-failover-nscd, TTL 5 s, the name moved 16.4 s after the death, nscd
    reloaded it at 20.19 s; without nscd the probe was back at 18.4 s, the JVM at 17.5 s."""
    back = found(knobs).back
    assert back.earliest_s <= measured <= back.latest_s, (back, measured)
    without = found([k for k in knobs if not k.startswith(("NAME_CACHE", "DNS_TTL_S"))]).back
    if "CLIENT=go" in knobs:
        assert (back.earliest_s, back.latest_s) == (without.earliest_s, without.latest_s)
    else:
        assert back.latest_s > without.latest_s and "through nscd" in back.basis


def test_nscd_is_asked_with_the_records_ttl_under_a_name_and_its_cache_off_is_a_cure():
    from harness.answer.explain import explain
    for knobs in (["DNS_MOVED_AFTER_S=16", "NAME_CACHE=nscd"], ["DNS_MOVED_AFTER_S=16", "DNS_TTL_S=5"],
                  ["NAME_CACHE=nscd", "DNS_TTL_S=5"]):
        with pytest.raises(ExplainError):
            parse_knobs(knobs)
    text = explain(parse_knobs(NSCD))
    assert "nscd on the clients' host answers the new address from 16.4 to 37.9 s after the death" in text
    assert "nscd's hosts cache off (enable-cache hosts no)" in text
