"""When the machine woke its processes late, as the run's own machine signal saw it
(harness/signals/machine/stalls.py: its sampler woke at least 0.05 s past its 0.5 s wait). A
client's timer due before that wake fires as late, and its report comes as late as any other
wakeup after it (docs/facts/kernel.md, "What the tests allow": a CI make test,
2026-12-05, had two pgx processes and the sampler resume within 5 ms of each other, the clients' 2 s
connect timers 0.172 s late; busy loops alone on the two CPUs delayed a 2 s timer by 5 ms at most)."""
from harness.signals.machine import INTERVAL_S
from harness.signals.machine.machine_cpu import parse_samples
from harness.signals.machine.stalls import resumed_between, stalls


def resumed_t(run, due_t, reported_t):
    """The latest moment in [due_t, reported_t] at which the machine's sampler woke late (the
    machine resumed then); None when it saw no stop there."""
    path = run.file("machine/cpu.txt")
    if not path.exists():
        return None
    stall = resumed_between(stalls(parse_samples(path.read_text()), INTERVAL_S), due_t, reported_t)
    return None if stall is None else stall.resumed_t


def wakeup_late_s(run, due_t, reported_t, late_s):
    """How late a client's timer due at due_t may report: late_s (the facts' allowance on a machine
    that ran it), counted from when the machine resumed when its sampler saw it stopped meanwhile."""
    resumed = resumed_t(run, due_t, reported_t)
    return late_s if resumed is None else resumed - due_t + late_s
