"""The sysctl import on `sysctl -a` of every guest kernel the lab boots (tests/sysctl_dumps/,
captured from the guests by `make sysctl-dumps`) and on the example's host dump: each read whole,
every TCP/IPVS/core line accounted for once, and the client's knobs at the defaults the kernel
documents (Documentation/networking/ip-sysctl.rst)."""
from pathlib import Path

import pytest

from harness.imports import sysctl_dump
from harness.measure.sysctl_knobs import SYSCTL_KNOBS
from harness.settings.targets import KNOWN_SERIES

ROOT = Path(__file__).resolve().parents[2]
GUEST_DUMPS = sorted((ROOT / "tests" / "sysctl_dumps").glob("*.txt"))
HOST_DUMP = ROOT / "examples" / "incident-0312" / "sysctl.txt"
# ip-sysctl.rst's defaults for the knobs a client cell turns.
DOCUMENTED_DEFAULTS = {"net.ipv4.tcp_retries2": 15, "net.ipv4.tcp_keepalive_time": 7200,
                       "net.ipv4.tcp_keepalive_intvl": 75, "net.ipv4.tcp_keepalive_probes": 9,
                       "net.ipv4.tcp_syn_retries": 6}


def relevant_lines(text):
    """{key: value} of the dump's net.ipv4.tcp_*, net.ipv4.vs.* and net.core.* lines, read by hand."""
    pairs = (line.split(" = ", 1) for line in text.splitlines() if " = " in line)
    return {key.strip(): value.strip() for key, value in pairs if key.strip().startswith(sysctl_dump.RELEVANT)}


def test_a_dump_of_each_series_the_lab_boots_is_kept():
    assert {path.stem for path in GUEST_DUMPS} == set(KNOWN_SERIES)


@pytest.mark.parametrize("path", GUEST_DUMPS + [HOST_DUMP], ids=lambda p: p.stem)
def test_each_relevant_line_is_used_or_named_once(path):
    text = path.read_text()
    dump = sysctl_dump.parse(text, path.name)
    by_name = {SYSCTL_KNOBS[key].sysctl: value for key, value in dump.cell}
    accounted = (list(by_name) + [key for key, _ in dump.not_modelled]
                 + [key for key, _ in dump.no_bearing]
                 + [key for key, knob in sysctl_dump.DIRECTOR.items() if knob in dict(dump.director)])
    assert sorted(accounted) == sorted(relevant_lines(text))
    said = "\n".join(dump.lines())
    assert all(key in said for key, _ in dump.not_modelled + dump.no_bearing)


@pytest.mark.parametrize("path", GUEST_DUMPS, ids=lambda p: p.stem)
def test_a_guests_dump_names_its_series_and_the_documented_defaults(path):
    dump = sysctl_dump.parse(path.read_text(), path.name)
    assert dump.kernel_release.startswith(f"{path.stem}.")
    cell = {SYSCTL_KNOBS[key].sysctl: value for key, value in dump.cell}
    for key, default in DOCUMENTED_DEFAULTS.items():
        assert cell[key] == default, key
    assert dump.others > 500                # a whole dump, most of it not the lab's business
