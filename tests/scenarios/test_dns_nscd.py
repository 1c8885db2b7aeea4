"""The dns control plane with nscd on the clients' host (scenarios/dns-failover-nscd.yaml): every
getaddrinfo in the client container asks nscd, which asks the name server from the container's own
address; Go's resolver asks the name server itself, from its cell's address (and the dns_move step
from the name server's). The witness is the name
server's own log (dnsmasq: each question and answer, stamped, with the address it came from), held
against each client's log of the address each connect went to."""
import json

from harness.measure import probe_log
from harness.measure.health_checks import stamp
from harness.measure.run_record import first_fault
from harness.store import RunDir
from harness.topology import DIRECTOR

from tests.scenarios.conftest import cells

NAME = "db.lab"
# Docker stamps a log line when it reads it: an answer stamped this close to a connect may have
# come just before or just after it (the name server's own log against the client's clock)
STAMP_EDGE_S = 0.05


def records(run, cell):
    """A cell's client's records (a zoo program's log holds its driver's own lines too)."""
    return list(probe_log.records(run.read(run.path / "clients" / cell / "probe.jsonl")))


def answers(run):
    """[(Docker's stamp, the asker's address, the address answered)] of every IPv4 answer for the name."""
    found = []
    for line in run.read(run.service_log(DIRECTOR)).splitlines():
        words = line.split()
        if f" {NAME} is " in line and " is NODATA" not in line and len(words) > 3:
            found.append((stamp(line), words[3].split("/")[0], line.rsplit(" is ", 1)[1].strip()))
    return found


def held_at(t, given):
    """The addresses nscd may have held at t: its last answer before, or either side of one at t."""
    before = [address for when, address in given if when <= t - STAMP_EDGE_S]
    near = {address for when, address in given if abs(when - t) < STAMP_EDGE_S}
    return ({before[-1]} if before else set()) | near


def test_glibc_and_the_jvm_get_what_nscd_holds_and_go_asks_for_itself(run_scenario):
    summary, path = run_scenario("dns-failover-nscd", warmup_s=5, observe_s=90)
    run = RunDir(path)
    fault = first_fault(run.events())
    cell_addresses = {c["front_address"] for c in run.env()["cells"].values()}
    name_server = f"{run.env()['lab']['front']}.10"     # the dns_move step asks from there (lab-dns-move)
    given = answers(run)
    by_nscd = [(t, address) for t, asker, address in given if asker not in cell_addresses | {name_server}]
    by_cells = [(t, address) for t, asker, address in given if asker in cell_addresses]
    assert by_nscd, f"nscd never asked the name server: {given[:5]}"
    go = [r for r in records(run, "go-own-resolver") if "connected" in r]
    # Go's resolver asked for every connect itself (zoo-go logs the connects that got through, one
    # answer each at least); the glibc clients never asked from the cells' address
    assert len(by_cells) >= len(go) > 0, (len(by_cells), len(go))
    for spec in ("glibc-through-nscd", "jvm-ttl-0-through-nscd"):
        connects = [(r.get("connect_t") or r.get("connecting"), r["address"]) for r in records(run, spec)
                    if r.get("address") and (r.get("connect_t") or r.get("connecting")) and r.get("host") in (None, NAME)]
        assert connects, spec
        for t, address in connects:
            assert address in held_at(t, by_nscd), (spec, t - fault["t"], address, by_nscd)
    for name, cell in cells(summary).items():
        assert cell["probe"]["server_after"] == "db-replica", (name, cell["probe"])
    print(json.dumps({"nscd asked (s after the fault)": [round(t - fault["t"], 2) for t, _ in by_nscd]}))
