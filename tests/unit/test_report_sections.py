"""The page's and summary.md's sections (report/sections.py, each a signal's own): each reads only
the parts of summary.json it declares (READS; the page hands it nothing else), shows nothing for a
run without them, and the page and summary.md show the same sections in the same order. The fixture is a replay's summary (6.12
guest: keepalived's LB split, health checks, the writer) with a connection-setup part and kept-flow
reconnects made by the measure functions from prober lines and ss/director samples."""
import json
from pathlib import Path

import pytest

from harness.measure import summary_record
from harness.report import html, sections, tables
from harness.report.sections import only_what_it_reads
from harness.signals.blocks import Subheading, Table

FULL = json.loads((Path(__file__).parent / "fixtures" / "summary_with_every_section.json").read_text())


@pytest.mark.parametrize("section", sections.SECTIONS, ids=lambda s: s.__name__.rsplit(".", 2)[1])
def test_a_section_reads_only_its_own_parts(section):
    shown = section.blocks(FULL)
    assert shown and any(isinstance(b, Table) and b.rows for b in shown)
    assert section.blocks(only_what_it_reads(FULL, section.READS)) == shown


@pytest.mark.parametrize("section", sections.SECTIONS, ids=lambda s: s.__name__.rsplit(".", 2)[1])
def test_a_run_without_its_parts_shows_no_section(section):
    assert section.blocks(only_what_it_reads(FULL, {})) == []


def test_the_page_and_summary_md_show_every_section_in_the_registrys_order():
    titles = [section.TITLE for section in sections.SECTIONS]
    md = tables.markdown(summary_record.read(FULL))
    page = "\n".join(html._sections(summary_record.read(FULL)))
    assert [md.index(f"\n{t}\n") for t in titles] == sorted(md.index(f"\n{t}\n") for t in titles)
    assert [page.index(f"<h2>{t}</h2>") for t in titles] == sorted(page.index(f"<h2>{t}</h2>") for t in titles)
    for _, blocks in sections.shown(FULL):
        for block in blocks:
            if isinstance(block, Table):
                assert "| " + " | ".join(block.header) + " |" in md
            elif isinstance(block, Subheading):
                assert f"<h3>{block.text}</h3>" in page.replace("&#x27;", "'")


def test_a_page_hands_a_section_nothing_it_did_not_declare():
    summary = {"scenario": "s", "signals": {"data": {"x": 1}, "machine": {"y": 2}},
               "cells": [{"cell": "a", "probe": {}, "lb": {}, "pool": {}}]}
    assert only_what_it_reads(summary, {"signals": ("data",), "cells": ("pool",)}) == {
        "scenario": "s", "signals": {"data": {"x": 1}}, "cells": [{"cell": "a", "pool": {}}]}


def test_a_backend_whose_limit_saw_no_syn_is_said_so_beside_the_directors_checks():
    health = [s for s in sections.SECTIONS if "Health checks" in s.TITLE][0]
    summary = json.loads(json.dumps(FULL))
    summary["signals"]["health_checks"]["limited_backends"] = {
        "db-primary": {"rate_per_s": 2, "syns_dropped": 0, "syns_passed": 0, "dropped_share": None}}
    assert "db-primary: its limit saw no SYN." in health.blocks(summary)
