"""tests/machine_stall.py: a stop of the machine is read from its own sampler's late wake, and only
there; a timer due outside the stop keeps the facts' allowance."""
from harness.store import RunDir

from tests.machine_stall import resumed_t, wakeup_late_s


def sampler_file(tmp_path, stamps):
    """machine/cpu.txt of samples at the given stamps, each sample's reads 1 ms long."""
    blocks = [f"@ {t}\ncpu  {i * 100} 0 0 {i * 100} 0 0 0 0 0 0\nclock {t} {1000 + t - 100} {t + 0.001}\n"
              for i, t in enumerate(stamps)]
    (tmp_path / "machine").mkdir()
    (tmp_path / "machine" / "cpu.txt").write_text("".join(blocks))
    return RunDir(tmp_path)


def test_a_late_wake_of_the_sampler_moves_the_allowance_to_it(tmp_path):
    # the CI run of 2026-12-05: the sampler's wait due at 108.893 ended at 108.980
    run = sampler_file(tmp_path, [107.388, 107.890, 108.392, 108.980, 109.481])
    assert resumed_t(run, 108.812, 108.985) == 108.980
    assert abs(wakeup_late_s(run, 108.812, 108.985, 0.12) - (108.980 - 108.812 + 0.12)) < 1e-9


def test_a_sampler_on_time_leaves_the_allowance_as_it_is(tmp_path):
    run = sampler_file(tmp_path, [100.0, 100.505, 101.01, 101.515])
    assert resumed_t(run, 100.2, 101.6) is None
    assert wakeup_late_s(run, 100.2, 101.6, 0.12) == 0.12


def test_a_stop_outside_the_timer_s_lateness_is_not_its(tmp_path):
    run = sampler_file(tmp_path, [100.0, 100.9, 101.405])
    assert resumed_t(run, 101.0, 101.2) is None


def test_a_run_without_a_machine_signal_keeps_the_allowance(tmp_path):
    assert wakeup_late_s(RunDir(tmp_path), 1.0, 2.0, 0.12) == 0.12
