"""Which of a run's loads it stops by closing their stdin (tests/lab/test_stop_on_eof.py holds the
programs to it): the zoo's JVMs, told so by ZOO_STOP_ON_EOF=1, and the writer, by
WRITER_STOP_ON_EOF=1; the other zoo clients are stopped by a signal as before."""
from harness import scenario
from harness.load.clients import CLIENTS, DEFAULT_CLIENT
from harness.signals import LoadPlan, planned_loads
from harness.signals.data import writer
from harness.store import RunDir


def test_the_jvms_and_the_writer_stop_at_their_stdins_end_the_other_clients_by_a_signal(tmp_path):
    parsed, raw = scenario.load("client-zoo")
    planned = planned_loads(LoadPlan(parsed, RunDir.create(parsed.id, raw, tmp_path), "10.213.1.10", "ipvs"))
    zoo = {load.cell: load for load in planned if load.cell and load.watched_as == "client"}
    clients = {c.name: c.client for c in parsed.cells if c.client != DEFAULT_CLIENT}
    assert set(zoo) == set(clients)
    for name, load in zoo.items():
        jvm = CLIENTS[clients[name]].runtime == "JVM"
        assert load.stops_on_eof is jvm and ("ZOO_STOP_ON_EOF=1" in load.command) is jvm, name
    assert any(load.stops_on_eof for load in zoo.values()) and not all(load.stops_on_eof for load in zoo.values())
    parsed, raw = scenario.load("write-loss")
    planned = planned_loads(LoadPlan(parsed, RunDir.create(parsed.id, raw, tmp_path / "w"), "10.213.1.10", "ipvs"))
    [load] = [load for load in planned if load.process_pattern == writer.PROCESS]
    assert load.stops_on_eof and "WRITER_STOP_ON_EOF=1" in load.command
