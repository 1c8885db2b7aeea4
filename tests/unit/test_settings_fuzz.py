"""explain and the edge check on thousands of generated inputs, the malformed ones included: each
answers or refuses with a SettingsError, never another exception."""
import random
import string

from harness.answer import explain
from harness.settings import KNOBS, SettingsError, check
from harness.settings.drivers import every_setting_name

VALUES = ["0", "1", "5", "15", "255", "256", "-1", "99999", "3.5", "-3", "1e9", "nan", "inf", "", " ", "abc", "5/1/3",
          "0/0/0", "2s", "1500ms", "2m", "true", "false", "jdbc", "go", "hikari", "ipvs", "nftables", "250", "7",
          "6.12", "9.9", "host", "../../etc/passwd", "é", "\x00", "1" * 400, "3000", "lvs-switchover"]


def word(rng):
    name = rng.choice([*KNOBS, *every_setting_name(), "X", "tcp_retries2", "", "=", "CLIENT"])
    if rng.random() < 0.1:
        name = "".join(rng.choice(string.ascii_letters + "_=") for _ in range(rng.randint(0, 12)))
    value = rng.choice(VALUES) if rng.random() < 0.8 else "".join(rng.choice(string.printable) for _ in range(8))
    return f"{name}={value}" if rng.random() < 0.95 else name


def test_explain_answers_or_refuses_every_input():
    rng, answered, refused = random.Random(42), 0, 0
    for _ in range(3000):
        words = [word(rng) for _ in range(rng.randint(0, 4))]
        try:
            text = explain.explain(explain.parse_knobs(words))
        except SettingsError:
            refused += 1
            continue
        assert text.startswith("Answer: ")
        answered += 1
    assert answered > 100 and refused > 100, (answered, refused)


def test_the_edge_check_answers_or_refuses_every_input():
    rng, passed, refused = random.Random(7), 0, 0
    goals = ["run", "explain", "kernel-matrix", "test", "plan", "exercise", "report", "compare"]
    for _ in range(3000):
        given = {}
        for item in (word(rng) for _ in range(rng.randint(0, 4))):
            name, _, value = item.partition("=")
            if name:
                given[name] = value
        try:
            check([rng.choice(goals)], list(given), given)
            passed += 1
        except SettingsError:
            refused += 1
    assert passed > 50 and refused > 100, (passed, refused)
