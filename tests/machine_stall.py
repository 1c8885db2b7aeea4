"""When the whole machine stopped running processes for a while, as the run's own machine signal saw
it: its sampler (harness/signals/machine) waits 0.5 s between samples with bash's `read -t`, so a
sample that came much later than that after the previous one ended says no process of the machine
was run until then. A client's timer due during such a stop fires when the machine resumes, and its
report comes as late as any other wakeup after that (docs/facts/kernel.md, "What the tests allow":
a CI make test, 2026-12-05, had two pgx processes and the sampler resume within 5 ms of each other,
the clients' 2 s connect timers 0.172 s late; busy loops alone on the two CPUs delayed a 2 s timer
by 5 ms at most)."""
from harness.signals.machine import INTERVAL_S
from harness.signals.machine.machine_cpu import parse_samples

# The sampler's own wake past its 0.5 s wait, over 7,332 waits of 129 runs (docs/facts/kernel.md):
# median 0.001 s, 99 % within 0.042 s. Later than this, the machine stopped running it.
STALL_SEEN_S = 0.05


def resumed_t(run, due_t, reported_t):
    """The latest moment in [due_t, reported_t] at which the machine's sampler woke at least
    STALL_SEEN_S past its wait (the machine resumed then); None when it saw no stop there."""
    path = run.file("machine/cpu.txt")
    if not path.exists():
        return None
    samples = parse_samples(path.read_text())
    resumed = [b.t for a, b in zip(samples, samples[1:])
               if due_t <= b.t <= reported_t and b.t - _ended(a) - INTERVAL_S >= STALL_SEEN_S]
    return max(resumed, default=None)


def wakeup_late_s(run, due_t, reported_t, late_s):
    """How late a client's timer due at due_t may report: late_s (the facts' allowance on a machine
    that ran it), counted from when the machine resumed when its sampler saw it stopped meanwhile."""
    resumed = resumed_t(run, due_t, reported_t)
    return late_s if resumed is None else resumed - due_t + late_s


def _ended(sample):
    """When a sample's own reads were done (its clock line's last stamp), else its header's stamp."""
    return sample.clock.after_t if sample.clock is not None else sample.t
