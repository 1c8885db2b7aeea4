"""make explain for a client that lists both servers by their own names (HOST_LIST=1): each new
connection tries the dead primary first for its attempt, then the replica, refused while it is a
standby by a client that keeps only a server taking writes. Held to what dns-failover and
dns-failover-pg measured on this host (docs/facts/dns.md, 2026-12-05: every first error at 13.47 s,
the replica promoted 16.3 s after the death)."""
import pytest

from harness.answer import answer
from harness.answer.back_host_list import through_at
from harness.answer.explain import ExplainError, explain, parse_knobs

LISTED = ["TCP_RETRIES2=5", "HOST_LIST=1", "PROMOTED_AFTER_S=16.33"]
PG = LISTED + ["DB_ENGINE=postgres"]


def found(knobs):
    return answer(parse_knobs(knobs)["QUESTION"])


@pytest.mark.parametrize("knobs, measured", [
    (PG + ["CLIENT=pgx", "connect_timeout=2"], 15.5),
    (PG + ["CLIENT=pgx", "connect_timeout=2", "target_session_attrs=read-write"], 17.50),
    (PG + ["CLIENT=pgjdbc", "connectTimeout=2", "targetServerType=primary"], 17.54),
    (PG + ["CLIENT=pgjdbc", "connectTimeout=2"], 15.6),
    (LISTED + ["CLIENT=jdbc", "connectTimeout=2000"], 15.5),
])
def test_a_host_list_is_back_where_the_lab_measured_it(knobs, measured):
    back = found(knobs).back
    assert back.earliest_s <= measured <= back.latest_s, (back, measured)
    assert "tries the dead primary first" in back.basis


def test_mariadb_connector_j_denies_the_dead_host_and_is_back_at_its_error():
    """dns-failover, 2026-12-05: MariaDB Connector/J 3.5.11 listing both servers erred at 13.53 s and was
    back at 13.54 s; with its deny list off each new connection would try the dead host first."""
    denying = found(LISTED + ["CLIENT=mariadb-jdbc", "connectTimeout=2000"])
    assert denying.back.earliest_s <= 13.54 <= denying.back.latest_s and "deniedListTimeout" in denying.back.basis
    walking = found(LISTED + ["CLIENT=mariadb-jdbc", "connectTimeout=2000", "deniedListTimeout=0"])
    assert walking.back.expected_s == pytest.approx(denying.back.expected_s + 2.0, abs=0.01)


def test_keeping_a_writable_server_walks_the_list_again_until_the_promotion():
    # a walk reaches the replica every attempt: from an error at 13 s with 2 s attempts, promoted at
    # 16.33 s, the walks end at 15 (refused) and 17 s (taken)
    assert through_at(2.0, 13.0, 16.33, writable_only=True) == 17.0
    assert through_at(2.0, 13.0, 16.33, writable_only=False) == 15.0
    assert through_at(2.0, 20.0, 16.33, writable_only=True) == 22.0     # promoted already: the first walk
    cut = found(PG + ["CLIENT=pgx", "connect_timeout=2", "target_session_attrs=read-write", "queryTimeout=3s"])
    # an error after 3 s (the query's deadline) walks the list seven times before the promotion lets one through
    assert cut.error.expected_s == pytest.approx(3.0, abs=0.2) and cut.back.expected_s == pytest.approx(17.1, abs=0.2)


def test_the_page_of_words_says_no_load_balancer_and_the_promotion_is_not_a_cure():
    text = explain(parse_knobs(PG + ["CLIENT=pgx", "connect_timeout=2", "target_session_attrs=read-write"]))
    assert "load balancer none (the client lists db-primary, db-replica, in that order)" in text
    assert "refused at login while it is a standby (target_session_attrs=read-write)" in text
    assert "the promotion: when it comes is the failover's own (PROMOTED_AFTER_S)" in text


@pytest.mark.parametrize("knobs, says", [
    (["HOST_LIST=1", "CLIENT=jdbc"], "go together"),
    (["PROMOTED_AFTER_S=5"], "go together"),
    (["HOST_LIST=1", "PROMOTED_AFTER_S=5", "CLIENT=go"], "CLIENT=go takes one host"),
    (["HOST_LIST=1", "PROMOTED_AFTER_S=5", "DNS_MOVED_AFTER_S=5"], "one load balancer in front at a time"),
    (["HOST_LIST=1", "PROMOTED_AFTER_S=5", "DB_ENGINE=postgres", "CLIENT=pgx", "target_session_attrs=standby"],
     "a client that wants a standby"),
    (["DB_ENGINE=postgres", "CLIENT=pgx", "target_session_attrs=read-write"], "HOST_LIST=1 PROMOTED_AFTER_S"),
])
def test_what_the_host_list_model_does_not_follow_is_refused_by_name(knobs, says):
    with pytest.raises(ExplainError, match=says):
        parse_knobs(knobs)
