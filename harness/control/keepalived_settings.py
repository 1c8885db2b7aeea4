"""keepalived's knobs as the lab exposes them, with keepalived's own defaults (keepalived.conf(5):
its checker and VRRP defaults), and its timing model for "LB noticed"."""
import dataclasses

from .base import DirectorVariants, NoticeWindow

CHECKS = ("tcp", "mysql", "http")          # TCP_CHECK, MISC_CHECK (a real MySQL handshake), HTTP_GET
VRRP_MODES = ("none", "plain", "sync")     # no second director; two with VRRP; two with lvs_sync_daemon too
# keepalived's checker timers and the check's own connect run late on a busy director: in a TCG
# guest its removals came up to 0.23 s after the worst case (delay_loop 2, connect_timeout 1, retry 1)
TIMERS_LATE_S = 0.5


@dataclasses.dataclass(frozen=True)
class KeepalivedSettings(DirectorVariants):
    delay_loop: float = 60.0               # s between checks of a server
    connect_timeout: float = 5.0           # s a check waits for its connect (and the MySQL handshake)
    retry: int = 1                         # failed attempts after the first before the server is down
    delay_before_retry: float = 1.0        # s between those attempts
    check: str = "tcp"
    inhibit_on_failure: bool = False       # a failed server keeps its entry at weight 0 instead of being deleted
    expire_nodest_conn: int = 0            # the director's net.ipv4.vs.expire_nodest_conn
    vrrp: str = "none"
    advert_int: float = 1.0                # VRRP advertisement interval, s
    preempt: bool = True                   # a restarted master takes the VIP back
    directors: tuple = ()                  # ((name, {"inhibit_on_failure": .., "expire_nodest_conn": ..}), ...)
    virtual_services: int = 1              # virtual servers per service, each checking the same real servers



# VRRP version 2 (keepalived's default): the backup declares the master down 3 advert intervals plus
# a skew of (256 - its priority)/256 s after the last advert it heard (docs/facts/production.md section 1)
BACKUP_PRIORITY = 100


def vrrp_takeover(settings: KeepalivedSettings) -> NoticeWindow:
    """The backup takes the VIP over master_down after the last advert it heard, which came up to
    one advert interval before the master died."""
    s = settings
    master_down = 3 * s.advert_int + (256 - BACKUP_PRIORITY) / 256
    basis = (f"VRRP: the backup takes the VIP 3 x advert_int {s.advert_int:g} s + skew "
             f"{(256 - BACKUP_PRIORITY) / 256:.2f} s after the last advert it heard")
    return NoticeWindow(master_down - s.advert_int / 2, master_down - s.advert_int, master_down + TIMERS_LATE_S, basis)


def lb_noticed(settings: KeepalivedSettings) -> NoticeWindow:
    """A silent host (every connect times out): the failing run of checks takes
    (retry+1)·connect_timeout + retry·delay_before_retry, and it starts within one delay_loop of
    the death (keepalived's worst case adds the whole delay_loop; on average half of it), its
    timers up to TIMERS_LATE_S late. A MISC_CHECK (check "mysql") counts each retry's wait from the
    start of the run before it (check_misc.c), so a run longer than delay_before_retry is followed
    at once: connect_timeout + retry·max(connect_timeout, delay_before_retry)."""
    s = settings
    if s.check == "mysql":
        failing = s.connect_timeout + s.retry * max(s.connect_timeout, s.delay_before_retry)
        how = (f"{s.retry + 1} run(s) of the check script of {s.connect_timeout:g} s, each retry "
               f"{s.delay_before_retry:g} s after the previous one started (at once if it ran longer)")
    else:
        failing = (s.retry + 1) * s.connect_timeout + s.retry * s.delay_before_retry
        how = (f"{s.retry + 1} connect(s) of {s.connect_timeout:g} s timing out, {s.retry} wait(s) of "
               f"{s.delay_before_retry:g} s")
    basis = f"keepalived: next check within delay_loop {s.delay_loop:g} s, then {how}"
    return NoticeWindow(s.delay_loop / 2 + failing, failing, s.delay_loop + failing + TIMERS_LATE_S, basis)
