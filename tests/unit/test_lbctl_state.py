import pytest

from lbctl.state import State, parse_endpoint
from lbctl.__main__ import parse_services


def test_parse_endpoint_accepts_ipv4_and_port():
    assert parse_endpoint("10.0.0.1:3306") == ("10.0.0.1", 3306)


@pytest.mark.parametrize("text", ["10.0.0.1", "10.0.0:80", "10.0.0.300:80", "a.b.c.d:80", "10.0.0.1:0",
                                  "10.0.0.1:70000"])
def test_parse_endpoint_rejects(text):
    with pytest.raises(ValueError):
        parse_endpoint(text)


def test_parse_services_tolerates_spaces_from_folded_yaml():
    assert parse_services(" 1.1.1.1:80=2.2.2.2:80, 1.1.1.1:3306=2.2.2.3:3306") == [
        ("1.1.1.1:80", "2.2.2.2:80"), ("1.1.1.1:3306", "2.2.2.3:3306")]


def test_remove_then_add_again_forgets_the_removal():
    state = State()
    state.add("1.1.1.1:80", "2.2.2.2:80")
    state.remove("1.1.1.1:80", "2.2.2.2:80", "reset")
    assert state.services["1.1.1.1:80"] == []
    assert [r.backend for r in state.removed["1.1.1.1:80"]] == ["2.2.2.2:80"]
    state.add("1.1.1.1:80", "2.2.2.2:80")
    assert state.removed["1.1.1.1:80"] == []


def test_drain_ends_in_reset_whatever_the_nodest_policy():
    state = State()
    state.add("1.1.1.1:80", "2.2.2.2:80")
    removed = state.remove("1.1.1.1:80", "2.2.2.2:80", "drop", drain_s=5, now=100.0)
    assert (removed.nodest, removed.drain_until) == ("reset", 105.0)
    assert removed.draining(104.9) and not removed.draining(105.0)


@pytest.mark.parametrize("kwargs, message", [
    ({"nodest": "explode"}, "nodest"),
    ({"drain_s": -1}, "drain"),
    ({"backend": "9.9.9.9:80"}, "not a backend"),
])
def test_remove_rejects_bad_requests(kwargs, message):
    state = State()
    state.add("1.1.1.1:80", "2.2.2.2:80")
    args = {"vip": "1.1.1.1:80", "backend": "2.2.2.2:80", **kwargs}
    with pytest.raises(ValueError, match=message):
        state.remove(**args)


def test_state_survives_json_round_trip():
    state = State(datapath="nftables", idle_timeout_s=20)
    state.add("1.1.1.1:80", "2.2.2.2:80")
    state.remove("1.1.1.1:80", "2.2.2.2:80", "reset", drain_s=3, now=10.0)
    assert State.from_json(state.to_json()) == state
