"""An independent simulator of what the lab's models predict, written apart from harness/measure/
from the rules docs/facts/ states, event by event on a jiffy clock: the kernel's retransmission and
keepalive timers on the timer wheel (kernel.py), and the control planes' check schedules
(planes.py). The tests hold the models to it over generated settings, and take their oracles from
it or from the facts' tables."""
