"""The machine signal's reading of a wall clock set during a run (harness/signals/machine/clock_steps.py):
a step is what the wall clock moved against the kernel's uptime beyond what the reads' own spread and
/proc/uptime's hundredths allow."""
from harness.signals.machine import clock_steps, lateness, machine_cpu

BLOCK = "@ {t}\ncpu  {busy} 0 0 {idle} 0 0 0 0 0 0\nclock {before} {up:.2f} {after}\n"


def sampled(*readings):
    """Blocks of the sampler's file: (wall clock, uptime) pairs, the two stamps 1 ms apart."""
    return "".join(BLOCK.format(t=t, busy=10 * i, idle=90 * i, before=t + 0.001, up=up, after=t + 0.002)
                   for i, (t, up) in enumerate(readings))


def steps(text):
    return clock_steps.steps([s.clock for s in machine_cpu.parse_samples(text)])


def test_a_clock_that_runs_with_uptime_has_no_step_whatever_the_hundredths():
    readings = [(1000.0 + 0.5 * i, 50.0 + 0.5 * i + 0.009 * (i % 2)) for i in range(20)]
    assert steps(sampled(*readings)) == []


def test_a_wall_clock_set_forward_is_a_step_of_at_least_what_it_moved():
    [step] = steps(sampled((1000.0, 50.0), (1000.5, 50.5), (1027.0, 51.0), (1027.5, 51.5)))
    assert step.t == 1027.001 and 25.97 <= step.step_s <= 26.0      # 26.5 s of wall clock, 0.5 s of uptime


def test_a_wall_clock_set_back_is_a_negative_step():
    [step] = steps(sampled((1000.0, 50.0), (1000.4, 50.5)))
    assert -0.1 <= step.step_s < -0.07


def test_steps_within_the_reads_spread_are_not_told():
    assert steps(sampled((1000.0, 50.0), (1000.515, 50.5))) == []


def test_a_sampler_file_without_uptime_readings_says_nothing_of_the_clock():
    text = "@ 1000.0\ncpu  1 0 0 9 0 0 0 0 0 0\n@ 1030.0\ncpu  2 0 0 18 0 0 0 0 0 0\n"
    samples = machine_cpu.parse_samples(text)
    assert len(samples) == 2 and all(s.clock is None for s in samples)


def test_a_run_with_a_step_says_so_beside_its_verdicts_and_one_without_does_not():
    part = {"busy_before_fault": 0.5, "busy_after_fault": 0.5, "saturated_above": 0.95,
            "clock_steps": [{"at_s": 12.3, "step_s": 26.47}]}
    note = lateness.summary_note({"signals": {"machine": part}, "cells": []})
    assert "+26.470 s at +12.3 s" in note and "Run it again" in note
    assert lateness.summary_note({"signals": {"machine": {**part, "clock_steps": []}}, "cells": []}) == ""
