"""sysbench's oltp_read_write beside a cell's client: its per-second reports, when its
throughput stopped and came back, whether it crashed, and the socket options it ran with."""
from ...load import sysbench
from ...measure import recovery, sysbench_log
from ..base import CellRecord, Load, LoadPlan, Signal
from .record import SysbenchCell

REPORT_EVERY_S = 1.0          # sysbench reports once a second: its detection may lag the probe's window by one line


class Sysbench(Signal):
    name = "sysbench"

    def loads(self, plan: LoadPlan) -> list[Load]:
        s, spec = plan.scenario, plan.scenario.sysbench
        if spec is None:
            return []
        return [Load(cell.service, plan.run.sysbench_log(cell.name),
                     tuple(sysbench.run_command(spec, plan.vip_for(cell), plan.duration_s, cell.socket_env(),
                                                gate=plan.sysbench_gate or None)),
                     sysbench.PROCESS, cell=cell.name, watched_as="sysbench")
                for cell in s.cells if s.runs_sysbench(cell)]

    def summarize_cell(self, record: CellRecord) -> SysbenchCell:
        c = record.context
        log = c.run.sysbench_log(record.cell.name)
        if not (c.scenario.runs_sysbench(record.cell) and log.exists()):
            return {}
        text, window = log.read_text(), record.window
        outcome = recovery.sysbench_outcome(sysbench_log.parse(text), c.t_fault)
        late_ok = window.expected_s is not None and outcome.detect_s is not None and (
            window.bounds()[0] <= outcome.detect_s <= window.bounds()[2] + REPORT_EVERY_S)
        o = outcome
        return {"sysbench": {"detect_s": o.detect_s, "recover_s": o.recover_s, "stalled_s": o.stalled_s,
                             "reconnects": o.reconnects, "disrupted": o.disrupted, "crashed": sysbench_log.crashed(text),
                             "within_window": late_ok if window.expected_s is not None else outcome.detect_s is None,
                             "socket_options_applied": sysbench_log.socket_options(text)}}
