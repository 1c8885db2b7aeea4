"""A run whose machine had its wall clock set while it ran measured nothing the tests can hold: its
times across the step are off by it (harness/signals/machine/clock_steps.py reads the step from the
kernel's uptime, which no one sets). Such a run is made once more; a second step is the test's to
meet. A CI make test (2026-12-03) had the wall clock go 26.5 s between two samples 0.5 s apart while
the kernel accounted 3.7 CPU-seconds on two CPUs, and three labs running then failed their bounds."""


def steps_of(run):
    """The wall-clock steps the run's machine signal saw ([] when none, or no machine signal)."""
    return (run.summary().get("signals", {}).get("machine") or {}).get("clock_steps") or []


def once_more_if_the_clock_was_set(start):
    """start() -> RunDir; run again, once, when the machine's wall clock was set during the first."""
    run = start()
    steps = steps_of(run)
    if steps:
        print(f"the machine's wall clock was set during {run.path} ({steps}): the run is made once more")
        run = start()
    return run
