"""The run page's data-accounting section (load.writer): what the writer was told about its
writes, beside what the new primary holds (the signal: __init__.py)."""
from collections.abc import Mapping, Sequence
from typing import Any

from ..blocks import Block, Table
from .record import DataRun, Refused

TITLE = "Data: what became of each write"
READS = {"signals": ("data",)}
HEADER = ["writes", "acknowledged", "never written", "attempts in doubt", "writes left in doubt",
          "in doubt, committed", "lost", "duplicates", "retried", "no write acknowledged for"]


def rows(part: DataRun) -> list[list[str]]:
    held = part.get("read_back")
    return [[str(part["writes"]), str(part["acknowledged"]), str(part["never_written"]),
             str(part["attempts"]["in_doubt"]), str(part["in_doubt"]),
             str(part["in_doubt_committed"]) if held else "not read", _lost(part) if held else "not read",
             str(part["duplicates"]) if held else "not read", str(part["retried"]), _unwritten(part)]]


def _lost(part: DataRun) -> str:
    """The lost count, and that it says nothing of the time the writer could not write."""
    return str(part["lost"]) if part.get("writes_resumed", True) else f"{part['lost']} (of the writes made)"


def since(part: DataRun) -> str:
    """'the fault' or '0.4 s after the fault': where the writer's longest stretch without an
    acknowledged write began."""
    start = part.get("unwritten_from_s") or 0.0
    return "the fault" if start < 0.05 else f"{start:.1f} s after the fault"


def _unwritten(part: DataRun) -> str:
    if "unwritten_s" not in part:
        return "—"
    began = "" if since(part) == "the fault" else f" from {since(part)}"
    return f"{part['unwritten_s']:.1f} s{began}" + ("" if part["writes_resumed"] else ", to the end of the run")


def stuck_sentence(part: DataRun) -> str:
    """One sentence for a writer that got no write acknowledged from some time after the fault to
    the end; '' else."""
    if part.get("writes_resumed", True):
        return ""
    return (f"The writer got no write acknowledged from {since(part)} to the end of the run "
            f"({part['unwritten_s']:.1f} s): its write in flight waited for an answer that never came, so what it "
            "would have written or lost after then is unknown.")


def _seqs(seqs: Sequence[int], limit: int = 20) -> str:
    shown = ", ".join(str(s) for s in seqs[:limit])
    return shown + (f" … ({len(seqs)} in all)" if len(seqs) > limit else "")


def explanations(part: DataRun) -> list[str]:
    server = part["new_primary"]
    took = "the server taking writes at the end" if part.get("writes_resumed", True) else "the last to acknowledge one"
    read = ("could not be read back" if server in part.get("unreadable", ()) else "was read back directly")
    lines = [*filter(None, [stuck_sentence(part)]), f"A writer inserted sequence-numbered rows through the VIP at {part['rate_per_s']:g}/s, each tried "
             f"up to {part['attempts_per_write']} time(s) until acknowledged; after the run {server} ({took}) {read}."
             + (" (The writer every failover has; load.writer: off or WRITER=0 leaves it out.)"
                if part.get("by_default") else "")]
    semi = part.get("semi_sync_on_first_primary")
    if part.get("replication") == "semi-sync":
        first = part["old_primary"] or part["new_primary"]
        if semi:
            lines.append(f"Semi-sync (timeout {part['semi_sync_timeout_ms']} ms) on {first}: "
                         f"{semi.get('yes_tx', '?')} commits acknowledged by the replica, {semi.get('no_tx', '?')} "
                         f"not; it fell back to async {semi.get('no_times', '?')} time(s) (status at the end: "
                         f"{semi.get('status', '?')}).")
        else:
            lines.append(f"Semi-sync: {first}'s counters could not be read after the run.")
    if part.get("position_at_promotion") is not None:
        applied = f"transactions up to GTID {part['position_at_promotion']}" if part["position_at_promotion"] else "nothing"
        lines.append(f"{part['new_primary']} had applied {applied} when it was promoted.")
    if part.get("in_doubt_sent_at_s"):
        lines.append("Attempts that ended in doubt were sent at " + ", ".join(f"{t:+.2f} s" for t in part["in_doubt_sent_at_s"])
                     + " from the fault.")
    lines += [refused_sentence(r) for r in part.get("refused", ())]
    if part.get("lost"):
        lines.append(f"Lost (acknowledged, not on {part['new_primary']}): seq {_seqs(part['lost_seqs'])}.")
    if part.get("duplicates"):
        lines.append(f"Written twice (a retry of a write that had committed): seq {_seqs(part['duplicate_seqs'])}.")
    if part.get("only_on_old_primary"):
        lines.append(f"On {part['old_primary']} only: seq {_seqs(part['only_on_old_primary'])}.")
    if part.get("unreadable"):
        lines.append(f"Could not be read after the run: {', '.join(part['unreadable'])}.")
    return lines


def refused_sentence(refused: Refused) -> str:
    """What one server refused, and when (its own error: nothing committed)."""
    when = (f"sent at {refused['first_s']:+.2f} s" if refused["count"] == 1
            else f"sent from {refused['first_s']:+.2f} to {refused['last_s']:+.2f} s")
    return (f"{refused['server']} refused {refused['count']} write(s) with its own error, {refused['error']} "
            f"({when} from the fault): nothing committed.")


def no_attempt_sentence(part: DataRun) -> str:
    """One sentence for a writer that made no attempt at all (its log missing or empty); '' else."""
    if "writer_log" not in part:
        return ""
    return (f"The writer (sequence-numbered rows through the VIP at {part['rate_per_s']:g}/s) made no attempt in "
            f"this run: its log (load/writer.jsonl) is {part['writer_log']}, so nothing is known of the writes.")


def blocks(summary: Mapping[str, Any]) -> list[Block]:
    part = summary.get("signals", {}).get("data")
    if not part:
        return []
    if "writer_log" in part:
        return [no_attempt_sentence(part)]
    return [Table(HEADER, rows(part)), *explanations(part)]
