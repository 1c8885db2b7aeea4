"""The kernel's timer wheel, as docs/facts/kernel.md states it: a timer armed `delay` jiffies ahead
lands in the level whose range holds the delay (level n holds delays below 63 << 3n jiffies,
8**n jiffies per slot) and fires at the first slot boundary of that level after its expiry, never
on it (kernel/time/timer.c, calc_index: `(expires >> LVL_SHIFT(lvl)) + 1`, so that a timer armed at
the edge of a tick still sleeps a whole jiffy). So a timer is never early, and late by one jiffy to
a whole slot of its level: up to 1/8 of its delay. A delay that is a whole number of slots, armed
on a slot's boundary (the previous timer's firing), is late by the whole slot."""

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
    return (expiry // slot + 1) * slot
