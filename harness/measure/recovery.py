"""Per client: when did the application first see the fault, and when did it work again?

Probe (ms precision), seconds after t_fault:
  detect_s   end of the first failed operation after t_fault (None: it never failed)
  sent_s     that operation's start: the kernel's and the application's clocks start there
  recover_s  end of the first successful operation after the disruption began. A disruption
             is the first failed operation, or an operation slower than SLOW_S that finally
             succeeded (a partition healed in time, a frozen server resumed): that operation's
             own end is then the recovery; but an operation in flight at the fault answered
             slowly, whose connection then failed, is passed over for that failure.
never_worked: the client never worked before the fault (a login refused from the start): what it
             saw, and no detect or recover, as the fault had nothing to take from it.
sysbench (1 s report lines): detect_s is the first line counting a reconnect (a lost
connection; err/s is not used, as concurrent clients' deadlocks count there too);
recover_s the first line with tps > 0 from the first bad line (tps 0 or a reconnect) on.
"""
import dataclasses
from collections.abc import Sequence

from .probe_log import Record
from .sysbench_log import Report

SLOW_S = 1.0
# A client whose last operation ended this long before the observation did is stuck in one (an
# operation is logged when it ends): its probes go out every 0.1-0.25 s.
STUCK_AT_END_S = 5.0


@dataclasses.dataclass(frozen=True)
class Outcome:
    detect_s: float | None = None
    recover_s: float | None = None
    error: str | None = None            # what the application saw first (errno name / MYSQL_<code>)
    stall_s: float | None = None        # how long the first disrupted operation took
    sent_s: float | None = None         # when the first failed operation was sent, s after t_fault (< 0: before it)
    server_before: str | None = None
    server_after: str | None = None
    failed_operations: int = 0
    never_worked: str | None = None     # what a client that never worked before the fault saw (error: detail)

    @property
    def disrupted(self) -> bool:
        return self.stall_s is not None


def probe_outcome(operations: Sequence[Record], t_fault: float, observed_s: float | None = None) -> Outcome:
    """From the probe's JSON operations (t0, t1, ok, server, error). observed_s: how long after the
    fault the run watched (None: not known, as in the live view, or a cell told to idle)."""
    ended_before = [op for op in operations if op["t1"] <= t_fault and op.get("ok")]
    if not ended_before:
        refused = next((op for op in sorted(operations, key=lambda op: op["t1"]) if op["t1"] <= t_fault), None)
        if refused is not None:
            return Outcome(error=refused.get("error"), never_worked=said(refused))
    after = sorted((op for op in operations if op["t1"] > t_fault), key=lambda op: op["t1"])
    server_before = ended_before[-1]["server"] if ended_before else None
    bad = next((op for op in after if not op.get("ok") or op["t1"] - op["t0"] > SLOW_S), None)
    if bad is not None and bad.get("ok") and bad["t0"] < t_fault:
        bad = _failed_later_on_its_connection(after, bad) or bad
    stuck_since = _stuck_since(operations, t_fault, observed_s)
    if stuck_since is not None and observed_s is not None and (bad is None or (bad.get("ok") and bad["t0"] < t_fault)):
        # no answer in the run's last seconds: the client is stuck in an operation, whatever the old
        # server answered after the fault's stamp (a busy machine lands a fault seconds later), and
        # a slow answer in flight at the fault is no recovery
        return Outcome(stall_s=round(t_fault + observed_s - stuck_since, 3), server_before=server_before)
    if bad is None:
        return Outcome(server_before=server_before)
    recovered: Record | None
    if bad.get("ok"):
        recovered = bad
    else:
        recovered = next((op for op in after if op["t0"] >= bad["t1"] and op.get("ok")), None)
    first_failure = next((op for op in after if not op.get("ok")), None)
    if recovered is not None and first_failure is not None and first_failure["t1"] > recovered["t1"]:
        first_failure = None        # a failure after recovery belongs to something else
    failed = [op for op in after if not op.get("ok") and (recovered is None or op["t1"] <= recovered["t1"])]
    return Outcome(
        detect_s=round(first_failure["t1"] - t_fault, 3) if first_failure else None,
        recover_s=round(recovered["t1"] - t_fault, 3) if recovered else None,
        error=first_failure.get("error") if first_failure else None,
        stall_s=round(bad["t1"] - bad["t0"], 3),
        sent_s=round(first_failure["t0"] - t_fault, 3) if first_failure else None,
        server_before=server_before,
        server_after=recovered["server"] if recovered else None,
        failed_operations=len(failed),
    )


def _stuck_since(operations: Sequence[Record], t_fault: float, observed_s: float | None) -> float | None:
    """The end of the last operation, when none ended in the last STUCK_AT_END_S of the observation
    and none failed after the fault; else None."""
    if observed_s is None or not operations or any(not op.get("ok") for op in operations if op["t1"] > t_fault):
        return None
    last = max(op["t1"] for op in operations)
    return last if t_fault + observed_s - last > STUCK_AT_END_S else None


def _failed_later_on_its_connection(after: Sequence[Record], slow: Record) -> Record | None:
    """An operation in flight at the fault that was answered slowly (a busy machine, a stalled
    server) but whose connection then failed: the failure is the disruption, not that answer."""
    return next((op for op in after if not op.get("ok") and op["t0"] >= slow["t1"]
                 and op.get("conn") is not None and op.get("conn") == slow.get("conn")), None)


def said(op: Record) -> str | None:
    """What a failed operation said: its error, and its detail when that says more."""
    error, detail = op.get("error"), op.get("detail")
    return f"{error}: {detail}" if detail and detail != error else error


@dataclasses.dataclass(frozen=True)
class SysbenchOutcome:
    detect_s: float | None = None
    recover_s: float | None = None
    stalled_s: int = 0           # report lines (seconds) with tps == 0 from the fault to recovery
    reconnects: float = 0.0
    disrupted: bool = False


def sysbench_outcome(reports: Sequence[Report], t_fault: float) -> SysbenchOutcome:
    """Read in sysbench's own order and on its own clock: lines that reach the stamper together
    share one stamp (the last zero-tps second and the reconnect, 2.1 s late, under three labs; a
    reconnect line and the two after it 2.1 s late in another), so a stamp cannot say which came
    first, nor when. Each line is timed by its second since sysbench started, the start being
    where the earliest stamp puts it (a late stamp is only ever later)."""
    if reports:
        origin = min(r.t - r.second for r in reports)
        reports = [dataclasses.replace(r, t=origin + r.second) for r in reports]
    after = [r for r in reports if r.t > t_fault]
    first_bad = next((i for i, r in enumerate(after) if r.tps == 0 or r.reconn_per_s > 0), None)
    if first_bad is None:
        return SysbenchOutcome()
    detect = next((r for r in after if r.reconn_per_s > 0), None)
    recovered = next((i for i in range(first_bad, len(after)) if after[i].tps > 0), None)
    until = after[:recovered + 1] if recovered is not None else after
    return SysbenchOutcome(
        detect_s=round(detect.t - t_fault, 3) if detect else None,
        recover_s=round(after[recovered].t - t_fault, 3) if recovered is not None else None,
        stalled_s=sum(1 for r in until if r.tps == 0),
        reconnects=sum(r.reconn_per_s for r in until),
        disrupted=True,
    )
