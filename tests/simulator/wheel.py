"""The kernel's timer wheel, as docs/facts/kernel.md states it: a timer armed `delay` jiffies ahead
lands in the level whose range holds the delay (level n holds delays below 63 << 3n jiffies,
8**n jiffies per slot) and fires at the first slot boundary of that level at or after its expiry.
So a timer is never early, and late by less than its level's slot: up to 1/8 of its delay."""

LEVELS = 8


def slot_jiffies(delay):
    level = 0
    while level < LEVELS and delay >= 63 << (3 * level):
        level += 1
    return 8 ** level


def fires_at(now, delay):
    """The jiffy a timer armed at `now` for `delay` jiffies (at least one) fires at."""
    delay = max(1, delay)
    slot = slot_jiffies(delay)
    expiry = now + delay
    return -(-expiry // slot) * slot
