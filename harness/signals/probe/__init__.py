"""Each cell's own client connection through the VIP: the lab's probe (one group per client
container, a fork per cell) or a client of the zoo. When the cell's client first saw the fault
(detect) and worked again (recover), against the kernel model's window."""
from ...load import probe, zoo
from ...load.clients import CLIENTS, DEFAULT_CLIENT
from ...measure import effects, ss_log
from ...measure.run_record import cell_verdict
from ..base import CellRecord, Load, LoadPlan, Signal
from . import client_log
from .record import ProbeCell, ProbePart


class Probe(Signal):
    name = "probe"

    def loads(self, plan: LoadPlan) -> list[Load]:
        s, run = plan.scenario, plan.run
        loads: list[Load] = []
        groups: dict[str, list] = {}      # container service -> [(cell with the built-in probe, its netns)]
        for cell in s.cells:
            if cell.client == DEFAULT_CLIENT:
                container, netns = plan.placement(cell.service)
                groups.setdefault(container, []).append((cell, netns))
            else:
                client = CLIENTS[cell.client]
                gated = bool(plan.client_gate) and client.starts_ahead
                host, port = plan.client_target(cell)
                loads.append(Load(cell.service, run.probe_log(cell.name),
                                  tuple(zoo.command(s, cell, host, port, plan.duration_s,
                                                    plan.client_gate if gated else ())),
                                  client.stop_pattern, cell=cell.name, watched_as="client", gated=gated,
                                  stops_on_eof=client.stops_on_eof))
        # Forks started together tick apart: cell i of n starts i/n of an interval later.
        phases = {cell.name: i / len(s.cells) for i, cell in enumerate(s.cells)}
        for container, cells in groups.items():
            settings = (probe.settings(s, c, plan.client_target(c), plan.duration_s, netns, phases[c.name])
                        for c, netns in cells)
            loads.append(Load(container, None, probe.GROUP_COMMAND, probe.PROCESS, stops_on_eof=True,
                              cells=tuple((c.name, run.probe_log(c.name)) for c, _ in cells), takes_commands=True,
                              first_input=probe.group_input(settings), watched_as="client"))
        return loads

    def summarize_cell(self, record: CellRecord) -> ProbeCell:
        c, outcome, window = record.context, record.outcome, record.window
        o = outcome
        judged = cell_verdict(window, outcome, c.status, c.observed_s,
                              (f"clients/{record.cell.name}/probe.jsonl", "events.jsonl"))
        probe: ProbePart = {"detect_s": o.detect_s, "recover_s": o.recover_s, "error": o.error, "stall_s": o.stall_s,
                            "sent_s": o.sent_s, "server_before": o.server_before, "server_after": o.server_after,
                            "failed_operations": o.failed_operations, "never_worked": o.never_worked,
                            "within_window": judged.within_window, "verdict": judged.as_json(),
                            "ratio": (round(outcome.detect_s / window.expected_s, 3)
                                      if outcome.detect_s is not None and window.expected_s else None)}
        if waits_for_a_lost_answer(record):
            probe["waits_for_a_lost_answer"] = True
        part: ProbeCell = {"survived": not outcome.disrupted and not outcome.never_worked, "probe": probe}
        cell = record.cell
        if cell.client != DEFAULT_CLIENT:
            part["client"] = {"name": cell.client, "settings": dict(cell.client_settings),
                              **client_log.client_entry(record.probe_text, record.ops, c.t_fault, outcome)}
        return part


def waits_for_a_lost_answer(record: CellRecord) -> bool:
    """No operation ended after the fault (in a cell not told to idle), yet ss saw its connection
    there and never retransmitting: the old server had acknowledged the request in flight and its
    answer went with the flow. With nothing unacknowledged to resend, neither tcp_retries2 nor a
    director's reset (which meets only a packet the client sends) ends the wait; a read timeout or
    keepalive would. Not where the model already says so: a hung application, or a proxy in the
    middle (its kernel ACKed the request: the client's leg is healthy)."""
    t_fault = record.context.t_fault
    return (record.idle is None and record.context.effect_on(record.cell).kind != effects.APP_HANG and not any(op["t1"] > t_fault for op in record.ops)
            and ss_log.nothing_unacked_after(record.caught_connection_samples, t_fault))
