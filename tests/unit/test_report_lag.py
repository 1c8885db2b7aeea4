"""A cell judged twice: its kernel's end against the model, its report against how late this run's
read-timeout cells of the same runtime reported their own timers (signals/retransmissions/report_lag.py)."""
from harness.signals.retransmissions import lateness, report_lag


def jvm(name, **part):
    return {"cell": name, "client": {"name": "jdbc"}, **part}


def test_a_jvm_late_by_its_report_is_judged_against_the_jvms_own_timer_lag():
    timer = jvm("read-timeout-3s", knobs={"read_timeout_s": 3.0},
                predicted={"basis": "application read timeout 3 s"},
                probe={"detect_s": 4.9, "sent_s": 0.05, "within_window": False})       # 1.85 s after its timer
    late = jvm("retries2-5", knobs={"read_timeout_s": 0.0}, predicted={"basis": "tcp_retries2=5 budget 12.6 s"},
               probe={"detect_s": 15.5, "sent_s": 0.05, "within_window": False},
               kernel={"gave_up_s": [13.86, 13.9], "in_window": True, "reported_after_s": 1.6})
    later = jvm("user-timeout", knobs={"read_timeout_s": 0.0}, predicted={"basis": "TCP_USER_TIMEOUT 3 s"},
                probe={"detect_s": 6.4, "sent_s": 0.05, "within_window": False},
                kernel={"gave_up_s": [3.4, 3.45], "in_window": True, "reported_after_s": 2.95})
    go = {"cell": "go", "client": {"name": "go"}, "knobs": {}, "predicted": {"basis": "x"},
          "probe": {"detect_s": 14.5, "within_window": False},
          "kernel": {"gave_up_s": [13.86, 13.9], "in_window": True, "reported_after_s": 0.6}}
    assert report_lag.annotate([timer, late, later, go]) == {"JVM": {"lag_s": 1.85, "cell": "read-timeout-3s"}}
    assert late["report"]["verdict"] == report_lag.IN_TIME and later["report"]["verdict"] == report_lag.LATE
    assert go["report"]["verdict"] == report_lag.UNKNOWN and "report" not in timer
    assert lateness.reason(late) == ("its kernel gave up in time, at 13.9 s; reported 1.6 s after it, in time for the JVM (its read "
                                     "timeout reported +1.9 s this run)")
    assert lateness.reason(later).endswith("later than the JVM's +1.9 s this run")
