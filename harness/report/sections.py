"""The sections a run's page and summary.md show after the results table: each signal's own
(Signal.section, a module of its folder), in the registry's order. A section module has TITLE,
READS (the parts of summary.json it reads: a key under "signals", or a key of each cell) and
blocks(summary): its content as a list of signals/blocks.py's Table, Subheading and plain
sentences, empty when the run has nothing for it. A section is handed the summary with only what
its READS declare (the rest is not there to read); tests/unit/test_report_sections.py holds each
to reading its own signal's parts."""
import copy
from collections.abc import Mapping, Sequence
from typing import Any

from ..signals.registry import SIGNALS

SECTIONS = tuple(signal.section for signal in SIGNALS.members() if signal.section is not None)


def only_what_it_reads(summary: Mapping[str, Any], reads: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """The summary with every signal part and every cell key not in reads removed (a cell keeps its name)."""
    kept = {k: v for k, v in summary.items() if k not in ("signals", "cells")}
    kept["signals"] = {k: copy.deepcopy(v) for k, v in summary.get("signals", {}).items() if k in reads.get("signals", ())}
    kept["cells"] = [{k: copy.deepcopy(v) for k, v in cell.items() if k == "cell" or k in reads.get("cells", ())}
                     for cell in summary.get("cells", [])]
    return kept


def shown(summary: Mapping[str, Any]) -> list[tuple[str, list[Any]]]:
    """[(title, blocks)] of the sections this run has, in page order."""
    return [(section.TITLE, blocks) for section in SECTIONS
            for blocks in [section.blocks(only_what_it_reads(summary, section.READS))] if blocks]


def late_reasons(cell: Mapping[str, Any]) -> list[str]:
    """What the signals measured beside a late cell's verdict ('kernel 14.0 s in window, ...', 'CPU 99%')."""
    return [r for signal in SIGNALS.members() if signal.lateness is not None for r in [signal.lateness.reason(cell)] if r]


def late_notes(summary: Mapping[str, Any]) -> list[str]:
    """The paragraph each signal has on the run's late cells (none: nothing)."""
    return [n for signal in SIGNALS.members() if signal.lateness is not None for n in [signal.lateness.summary_note(summary)] if n]
