"""The edge check: each refusal the operator would otherwise meet as a silently wrong run, said in
one line naming the knob; good knobs pass with their values."""
import pytest

from harness.settings import SettingsError, check

MAKE_ENV = {"HOME": "/root", "PATH": "/usr/bin", "CI": "true", "LANG": "C.UTF-8"}


def refused(goals, given, **values):
    with pytest.raises(SettingsError) as caught:
        check(goals, list(given), {**MAKE_ENV, **values, **given})
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("goals, given, says", [
    ((), {"scenario": "lvs-switchover", "TCP_RETRIES": "5"}, "did you mean TCP_RETRIES2?"),
    ((), {"scenario": "lvs-switchover", "WARMUP": "10"}, "did you mean WARMUP_S?"),
    ((), {"SCENARIO": "lvs-switchover"}, "not a knob of make help; did you mean scenario?"),
    ((), {"scenario": "nosuch"}, "scenario='nosuch': no such scenario"),
    ((), {"scenario": "lvs-swichover"}, "did you mean lvs-switchover"),
    ((), {"scenario": "lvs-switchover", "KERNEL": "9.9"}, "not a kernel series the lab boots"),
    ((), {"scenario": "lvs-switchover", "KERNEL": "../../etc/passwd"}, "use host, a series"),
    ((), {"scenario": "lvs-switchover", "TCP_RETRIES2": "abc"}, "must be a whole number (1-255)"),
    ((), {"scenario": "lvs-switchover", "TCP_RETRIES2": "0"}, "between 1 and 255"),
    (("explain",), {"TCP_RETRIES2": "-1"}, "between 1 and 255"),
    (("explain",), {"TCP_RETRIES2": "99999"}, "between 1 and 255"),
    (("explain",), {"TCP_RETRIES2": "300"}, "between 1 and 255"),
    (("explain",), {"HZ": "7"}, "one of 100, 250, 300, 1000"),
    (("explain",), {"READ_TIMEOUT_S": "-3"}, "not a duration"),
    (("explain",), {"socketTimeot": "3000"}, "did you mean socketTimeout (CLIENT=jdbc)?"),
    (("explain",), {"TCP_USER_TIMEOUT": "3000"}, "did you mean TCP_USER_TIMEOUT_MS?"),
    (("explain",), {"CLIENT": "pymysql", "read_timeout": "5"}, "did you mean READ_TIMEOUT_S?"),
    (("explain",), {"CLIENT": "jdbc", "readTimeout": "5"}, "readTimeout' is a setting of go, not of jdbc"),
    (("kernel-matrix",), {"scenario": "matrix-short", "KERNELS": ""}, "KERNELS: empty"),
    (("kernel-matrix",), {"scenario": "matrix-short", "KERNELS": "6.12 6.12"}, "6.12 named twice"),
    (("kernel-matrix",), {"scenario": "matrix-short", "KERNELS": "host 9.9"}, "not a kernel series"),
    (("kernel-matrix",), {"KERNELS": "host"}, "make kernel-matrix needs a scenario"),
    (("test",), {"KERNEL": "6.1"}, "make test does not use it; it is a knob of make run"),
    # make up, down and status bring up, take down and read a Compose lab by KERNEL; cluster-up writes its own kubeconfig
    (("up",), {"LAB": "kubernetes"}, "make up does not use it"),
    (("status",), {"LAB": "kubernetes"}, "make status does not use it"),
    (("down",), {"LAB": "kubernetes"}, "make down does not use it"),
    (("up",), {"KUBECONFIG": "/etc/hostname"}, "make up does not use it"),
    (("cluster-up",), {"KUBECONFIG": "/etc/hostname"}, "make cluster-up does not use it"),
    (("cluster-check",), {"LAB": "compose"}, "make cluster-check does not use it"),
    (("clean",), {"LAB_PROJECT": "mine"}, "make clean does not use it"),       # it finds labs by their labels
    (("run",), {"scenario": "keepalived-failover", "KEEPALIVED": "delay_lop=2"}, "did you mean delay_loop?"),
    (("exercise",), {"N": "99"}, "one of the exercises 1-"),
    (("run",), {"scenario": "./no-such-file.yaml"}, "no such file"),
])
def test_a_knob_the_goal_cannot_use_is_refused_in_one_line(goals, given, says):
    assert says in refused(goals, given)


def test_knobs_in_the_environment_are_checked_and_a_near_miss_of_a_knob_is_refused():
    assert "KERNEL='9.9'" in refused(("run",), {"scenario": "lvs-switchover"}, KERNEL="9.9")
    assert "did you mean TCP_RETRIES2?" in refused(("run",), {"scenario": "lvs-switchover"}, TCP_RETRIES="5")
    # a knob another goal uses, set in the shell, is not this goal's business
    assert check(("test",), [], {**MAKE_ENV, "KERNEL": "6.1"}).values == ()


def test_good_knobs_pass_with_their_values():
    env = {**MAKE_ENV, "scenario": "lvs-switchover", "TCP_RETRIES2": "5", "KERNEL": "6.12", "WARMUP_S": "250ms"}
    settings = check((), ["scenario", "TCP_RETRIES2", "KERNEL", "WARMUP_S"], env)
    assert settings.goals == ("run",)
    assert (settings.get("TCP_RETRIES2"), settings.get("KERNEL"), settings.get("WARMUP_S")) == (5, "6.12", 0.25)
    matrix = check(("kernel-matrix",), ["scenario", "KERNELS"], {**MAKE_ENV, "scenario": "matrix-short",
                                                                "KERNELS": "host 6.1 7.3 6.12.117+deb12"})
    assert matrix.get("KERNELS") == ("host", "6.1", "7.3", "6.12.117+deb12")


def test_explain_takes_a_drivers_settings_by_their_own_names():
    env = {**MAKE_ENV, "CLIENT": "jdbc", "socketTimeout": "3000"}
    settings = check(("explain",), ["CLIENT", "socketTimeout"], env)
    assert settings.get("CLIENT") == "jdbc" and settings.driver == (("socketTimeout", "3000"),)
    # a driver's setting is no knob of a run: a cell sets it (jdbc: {socketTimeout: 3000})
    assert "not a knob of make run" in refused(("run",), {"scenario": "client-zoo-short", "socketTimeout": "3000"})
