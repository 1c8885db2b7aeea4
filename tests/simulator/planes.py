"""A control plane's checks of a server that dies without a word, event by event (docs/facts/
production.md for keepalived, docs/facts/proxies.md for HAProxy): a check starts every `interval`
while the server answers; the first to start after the death fails, and so does every attempt of the
failing run after it, each after its own timeout, with the wait between attempts; the last failure
takes the server out. The death falls anywhere between two checks' starts."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class Checks:
    interval: float                 # between the starts of two checks of a live server
    failing: tuple                  # the failing run: an attempt's timeout, the wait, the next one's, ...

    def removed_after(self, death):
        """Seconds from a death `death` s after a check started to the server's removal."""
        start = 0.0
        while start <= death:           # a check started before the death was answered
            start += self.interval
        at = start
        for step in self.failing:
            at += step
        return at - death

    def span_s(self, points=400):
        deaths = [self.interval * k / points for k in range(points)]
        removed = [self.removed_after(death) for death in deaths]
        return min(removed), max(removed)


def keepalived_checks(settings):
    """keepalived's TCP_CHECK: connect_timeout per attempt, retry more attempts after the first,
    delay_before_retry between them (keepalived.conf(5)). Its MISC_CHECK (the lab's check "mysql")
    starts each retry delay_before_retry after the previous run *started*, at once if that run took
    longer (check_misc.c: the next timer counts from last_ran)."""
    s = settings
    wait = max(0.0, s.delay_before_retry - s.connect_timeout) if s.check == "mysql" else s.delay_before_retry
    run = (s.connect_timeout, wait) * s.retry + (s.connect_timeout,)
    return Checks(s.delay_loop, run)


def haproxy_checks(settings):
    """HAProxy's checks: fall failed checks mark a server down, each failing after its check
    timeout (timeout check: min(timeout connect, inter); else inter), fastinter (or inter) apart."""
    s = settings
    timeout = min(s.timeout_connect, s.inter) if s.timeout_check else s.inter
    between = s.fastinter or s.inter
    return Checks(s.inter, (timeout, between) * (s.fall - 1) + (timeout,))
