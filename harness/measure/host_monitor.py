"""When the AWS Advanced JDBC Wrapper's host monitor (efm2) aborts a connection whose host went silent,
in seconds after the start of the statement it watches (docs/facts/dns.md, "A driver that watches
the host", from the plugin's source, HostMonitorV2Impl and ContextPoolImpl, and the lab's runs):
- a statement's watch is filed under its start + failureDetectionTime cut down to a whole second,
  and a thread waking each second hands due watches to the monitor (idling in 0.1 s naps). The
  watches are pooled and reused: one filed by an earlier statement, when due, hands over the later
  statement now using it. On a connection whose statements come often (the lab's probe: every
  0.1 s) the first check so begins anywhere from the next hand-over (within 1.1 s) to T + 1.1 s
  after the statement started (measured: 0.92 s with T 2 s);
- a check of a silent host fails after its own limit: a connect (monitoring-connectTimeout, else the
  kernel's SYN retries), or, on a monitoring connection opened while the host answered, isValid for
  (interval - 0.1 s) / 2 in whole seconds, at least 1, which Connector/J may take twice;
- checks begin every interval, or 0.1 s after a longer one ended; the host is called dead at the
  end of the first failed check ending (count - 1) x interval or more after the first failed one
  began: between that and one interval plus the longest check later. The connection is aborted then.
All of it holds only while each check meets the silent host: a check that reaches a live server (the
name or VIP the URL names moved on) succeeds and the count starts over. Pure."""
import dataclasses
from collections.abc import Iterable
from typing import Any, Protocol

from .kernel_model import HZ
from .syn_model import syn_give_up_window_s


class MonitoredCell(Protocol):
    """What the monitor's model reads of a cell (scenario/model.py's Cell gives it)."""

    @property
    def client_settings(self) -> tuple[tuple[str, Any], ...]: ...

    def knob(self, key: str) -> int: ...


DEFAULTS = {"failureDetectionTime": 30_000, "failureDetectionInterval": 5_000, "failureDetectionCount": 3}
HAND_OVER_S = 1.1      # the hand-over thread's one-second wake-up, then the monitor's 0.1 s nap


@dataclasses.dataclass(frozen=True)
class HostMonitor:
    time_s: float
    interval_s: float
    count: int

    @classmethod
    def of(cls, settings: Iterable[tuple[str, Any]]) -> "HostMonitor | None":
        """settings: the cell's driver settings ((name, value), ...); None where the monitor is off."""
        values = {**DEFAULTS, **dict(settings)}
        if values.get("failureDetectionEnabled") is False:
            return None
        return cls(values["failureDetectionTime"] / 1000, values["failureDetectionInterval"] / 1000,
                   values["failureDetectionCount"])

    @property
    def is_valid_s(self) -> tuple[float, float]:
        """(shortest, longest) an isValid check of a silent host on a monitoring connection lasts."""
        asked = max(1, int(self.interval_s - 0.1) // 2)
        return float(asked), 2.0 * asked

    def verdict_s(self, check_s: tuple[float, float]) -> tuple[float, float]:
        """(earliest, latest) from the first failed check's start to the verdict, each check lasting
        check_s (shortest, longest)."""
        shortest, longest = check_s
        needed = self.interval_s * (self.count - 1)
        return max(needed, shortest), needed + self.interval_s + longest

    def abort_window_s(self, connect_s: tuple[float, float]) -> tuple[float, float]:
        """(earliest, latest) s after the watched statement began; connect_s: (shortest, longest) a
        connect of the monitor's to the silent host lasts."""
        valid = self.is_valid_s
        early, late = self.verdict_s((min(connect_s[0], valid[0]), max(connect_s[1], valid[1])))
        return early, self.time_s + HAND_OVER_S + late

    def abort_for_cell(self, cell: MonitoredCell, hz: int = HZ) -> tuple[float, float, str]:
        """(earliest, latest, basis) of the abort for a cell: a connect of the monitor's ends at its
        monitoring-connectTimeout, else at the cell's SYN retries (with or without linear timeouts)."""
        timeout_ms = dict(cell.client_settings).get("monitoring-connectTimeout") or 0
        if timeout_ms:
            connect = (timeout_ms / 1000, timeout_ms / 1000)
            checked = f"a connect ending at {timeout_ms / 1000:g} s"
        else:
            retries = cell.knob("tcp_syn_retries")
            ends = [syn_give_up_window_s(retries, linear, hz=hz) for linear in (0, 4)]
            connect = (min(low for low, _ in ends), max(high for _, high in ends))
            checked = f"a connect its SYN retries end ({retries}: no monitoring-connectTimeout)"
        earliest, latest = self.abort_window_s(connect)
        return earliest, latest, (f"the wrapper's host monitor, checks {self.interval_s:g} s apart from as early as "
                                  f"the next second to {self.time_s:g} s into the statement, dead after "
                                  f"{self.count} missed, each {checked} or an isValid, if they meet the silent host")
