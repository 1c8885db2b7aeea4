"""The sections a run's page and summary.md show after the results table, one module each, in
page order. A section module has TITLE, READS (the parts of summary.json it reads: a key under
"signals", or a key of each cell) and blocks(summary): its content as a list of blocks.py's Table,
Subheading and plain sentences, empty when the run has nothing for it. The page (html.py) and summary.md
(tables.py) loop over SECTIONS; tests/unit/test_report_sections.py holds each to its READS."""
from . import (connect_section, data_section, health_section, kept_flows_section, lb_split, machine_section,
               pool_section, proxy_section)


SECTIONS = (lb_split, proxy_section, pool_section, connect_section, health_section, data_section, kept_flows_section, machine_section)


def shown(summary):
    """[(title, blocks)] of the sections this run has, in page order."""
    return [(section.TITLE, blocks) for section in SECTIONS for blocks in [section.blocks(summary)] if blocks]
