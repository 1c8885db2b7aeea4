"""The machine's CPU, sampled from /proc/stat: its busy share between two moments, and a cell whose
error came after its window on a saturated machine says so beside its verdict."""
import json

from harness import report
from harness.report import tables
from harness.signals.machine import MachineCpu, machine_cpu
from tests.unit.test_render import T, write_run

# /proc/stat's first line: user nice system idle iowait irq softirq steal guest guest_nice (USER_HZ ticks)
BEFORE = "cpu  1000 0 500 2000 100 0 0 0 0 0"
SATURATED = "cpu  5400 0 500 2000 100 0 0 0 0 0"        # 4400 ticks more, all user: 100% busy
HALF = "cpu  3000 0 700 4100 100 100 100 0 0 0"         # 2400 busy (user 2000, system 200, irq, softirq), 2100 idle


def samples_text(*pairs):
    return "".join(f"@ {t}\n{line}\n" for t, line in pairs)


def test_the_busy_share_is_the_ticks_not_idle_nor_iowait_over_all_ticks():
    samples = machine_cpu.parse_samples(samples_text((T - 2, BEFORE), (T + 20, HALF)))
    assert [(s.busy, s.total) for s in samples] == [(1500, 3600), (3900, 8100)]
    assert machine_cpu.busy_share(samples, T, T + 10) == round(2400 / 4500, 3)


def test_no_share_where_the_samples_do_not_bracket_the_wait():
    samples = machine_cpu.parse_samples(samples_text((T - 2, BEFORE), (T + 20, HALF)))
    assert machine_cpu.busy_share(samples, T - 3, T + 10) is None
    assert machine_cpu.busy_share(samples, T, T + 21) is None
    assert machine_cpu.parse_samples("@ 1.0\n") == []


def late_run(tmp_path, cpu_after):
    """The r5 cell's error 2 s after its window's end (15.45 s; tcp_retries2=5 ends near 13 s)."""
    run = write_run(tmp_path)
    ops = [json.loads(line) for line in run.probe_log("r5").read_text().splitlines()]
    ops[-2]["t1"], ops[-1]["t0"], ops[-1]["t1"] = T + 15.45, T + 15.5, T + 15.52
    run.write_text(run.probe_log("r5"), "".join(json.dumps(op) + "\n" for op in ops))
    run.write_text(MachineCpu.file(run, "cpu"), samples_text((T - 2, BEFORE), (T + 20, cpu_after)))
    return run


def test_a_late_cell_on_a_saturated_machine_says_so(tmp_path):
    run = late_run(tmp_path, SATURATED)
    record = report.render(run)
    summary = record.written
    [cell] = summary["cells"]
    assert cell["probe"]["within_window"] is False and cell["probe"]["detect_s"] > cell["predicted"]["latest_s"]
    assert cell["machine"] == {"busy_while_waiting": 1.0, "busy_while_late": 1.0, "saturated": True}
    assert summary["signals"]["machine"]["busy_after_fault"] == 1.0
    for text in (run.summary_md.read_text(), tables.terminal_table(record), run.page.read_text()):
        assert "NO, 1.48 s after the window (CPU 100%)" in text and "CPU busy while they were late (r5 100%)" in text


def test_a_late_cell_on_a_machine_with_idle_cpu_is_plainly_outside(tmp_path):
    run = late_run(tmp_path, HALF)
    record = report.render(run)
    summary = record.written
    [cell] = summary["cells"]
    assert cell["machine"] == {"busy_while_waiting": round(2400 / 4500, 3), "busy_while_late": round(2400 / 4500, 3),
                               "saturated": False}
    assert cell["probe"]["within_window"] is False
    assert "| NO, 1.48 s after the window |" in run.summary_md.read_text() and "CPU busy while they were late" not in run.summary_md.read_text()


def test_a_cell_in_its_window_on_a_saturated_machine_is_not_marked(tmp_path):
    run = write_run(tmp_path)
    run.write_text(MachineCpu.file(run, "cpu"), samples_text((T - 2, BEFORE), (T + 20, SATURATED)))
    record = report.render(run)
    summary = record.written
    [cell] = summary["cells"]
    assert cell["probe"]["within_window"] and cell["machine"]["saturated"]
    assert "busy_while_late" not in cell["machine"] and "CPU busy while they were late" not in run.summary_md.read_text()


def test_what_decides_is_the_cpu_while_the_cell_was_late_not_its_whole_wait(tmp_path):
    # half busy until 13 s (before the window's end), then saturated until after the error
    run = late_run(tmp_path, HALF)
    then = HALF.split()
    saturated_after = "cpu  " + " ".join([str(int(then[1]) + 1000)] + then[2:])
    run.write_text(MachineCpu.file(run, "cpu"), samples_text((T - 2, BEFORE), (T + 13, HALF), (T + 20, saturated_after)))
    record = report.render(run)
    summary = record.written
    [cell] = summary["cells"]
    assert cell["predicted"]["latest_s"] >= 13
    assert cell["machine"] == {"busy_while_waiting": round(3400 / 5500, 3), "busy_while_late": 1.0, "saturated": True}
    assert "NO, 1.48 s after the window (CPU 100%)" in run.summary_md.read_text()


def clocked_samples(stamps):
    """Samples at the given stamps, half busy, each with its uptime read as the sampler reads it (1 ms reads)."""
    return "".join(f"@ {t}\ncpu  {1000 + 50 * i} 0 500 {2000 + 50 * i} 100 0 0 0 0 0\n"
                   f"clock {t} {t - T + 5000:.2f} {t + 0.001}\n" for i, t in enumerate(stamps))


def test_a_late_cell_while_the_machine_woke_its_processes_late_says_so(tmp_path):
    run = late_run(tmp_path, HALF)
    stamps = [T - 2 + 0.501 * i for i in range(32)]                  # on time, to T + 13.53
    stamps += [stamps[-1] + 0.001 + 0.5 + 0.12] + [stamps[-1] + 0.622 + 0.501 * i for i in range(1, 14)]
    run.write_text(MachineCpu.file(run, "cpu"), clocked_samples(stamps))
    record = report.render(run)
    summary = record.written
    [cell] = summary["cells"]
    assert cell["probe"]["within_window"] is False and cell["machine"]["wakeup_late_s"] == 0.12
    assert summary["signals"]["machine"]["late_wakeups"] == [{"at_s": round(stamps[32] - T, 2), "late_s": 0.12}]
    text = run.summary_md.read_text()
    assert "NO, 1.48 s after the window (wakeups 0.12 s late)" in text
    assert "Wakeups came late while they were late (r5 0.12 s)" in text and "Timed wakeups came late 1 time(s)" in text


def test_a_wall_clock_set_between_two_samples_is_no_late_wakeup():
    stamps = [T, T + 0.501, T + 30.0]                 # the wall clock jumped 29 s; the uptime went on 0.5 s
    text = "".join(f"@ {t}\n{HALF}\nclock {t} {5000 + 0.5 * i:.2f} {t + 0.001}\n" for i, t in enumerate(stamps))
    from harness.signals.machine.stalls import stalls
    assert stalls(machine_cpu.parse_samples(text), 0.5) == []
