"""HikariCP's pool in the model's `back`: a pool of N hands out its N-1 other connections, caught
dead and idle by the fault, before it opens a new one; the windows hold what the lab measured
(harness/load/clients.py, hikari's notes: client-zoo-short, a pool of 3 at tcp_retries2=5, the
seed's swap at the death: back after 23.7 s checked, 40.8 s with the check skipped)."""
from harness.answer import answer
from harness.answer.question import Question


def back_of(hikari):
    found = answer(Question.of({"client": "hikari", "tcp_retries2": 5, "hikari": hikari}))
    return found.back


def test_a_pool_of_three_is_back_when_the_lab_measured_it():
    one, three = back_of({}), back_of({"maximumPoolSize": 3})
    assert three.earliest_s <= 23.7 <= three.latest_s, three
    assert round(three.expected_s - one.expected_s, 1) == 10.0       # two dead ones, validationTimeout 5 s each
    assert "validationTimeout 5 s" in three.basis
    unchecked = back_of({"maximumPoolSize": 3, "aliveBypassWindowMs": 60000})
    assert unchecked.earliest_s <= 40.8 <= unchecked.latest_s, unchecked


def test_hikaris_connection_timeout_bounds_a_connect_its_driver_leaves_open():
    found = answer(Question.of({"client": "hikari", "tcp_retries2": 15, "hikari": {"socketTimeout": 3000}},
                               plane="keepalived"))
    assert "HikariCP's connectionTimeout, as the driver's login timeout, 30 s" in found.back.basis
    assert found.back.expected_s < 127.0          # not the SYN retries a connectTimeout of 0 leaves
