"""Which programs a run starts where: one probe group and one ss sampler per client container,
whether its cells are containers of their own or network namespaces inside one."""
import json

from harness import scenario
from harness.load import probe
from harness.signals.retransmissions import ss_sampler
from harness.signals import LoadPlan, planned_loads
from harness.store import RunDir


def planned(tmp_path, placement=None):
    parsed, raw = scenario.load("matrix-short")
    run = RunDir.create(parsed.id, raw, tmp_path)
    extra = (placement,) if placement else ()
    return parsed, planned_loads(LoadPlan(parsed, run, "10.213.1.10", "nftables", *extra))


def by_program(plan, program):
    return [load for load in plan if load.process_pattern == program]


def test_cells_in_containers_of_their_own_get_a_group_and_a_sampler_each(tmp_path):
    parsed, plan = planned(tmp_path)
    groups = by_program(plan, probe.PROCESS)
    assert sorted(g.service for g in groups) == ["client-r2", "client-r3", "client-r5"]
    assert all(json.loads(g.first_input)[0]["netns"] is None for g in groups)
    samplers = by_program(plan, ss_sampler.PROCESS)
    # each writes its container's one namespace's file itself, untagged
    assert sorted((s.service, s.output.parent.name) for s in samplers) == [
        ("client-r2", "r2"), ("client-r3", "r3"), ("client-r5", "r5")]
    assert not any(s.cells or "nsenter" in " ".join(s.command) for s in samplers)


def test_cells_in_namespaces_of_one_container_get_one_group_entering_each_ones_namespace(tmp_path):
    def placement(service):
        return "client-netns", f"/run/netns/{service.removeprefix('client-')}"
    parsed, plan = planned(tmp_path, placement)
    [group] = by_program(plan, probe.PROCESS)
    assert group.service == "client-netns" and group.takes_commands
    spec = json.loads(group.first_input)
    assert {c["cell"] for c in spec} == {c.name for c in parsed.cells}
    assert {(c["cell"], c["netns"]) for c in spec} == {(c.name, f"/run/netns/{c.namespace}") for c in parsed.cells}
    [sampler] = by_program(plan, ss_sampler.PROCESS)
    assert sampler.service == "client-netns" and not sampler.takes_commands
    assert [tag for tag, _ in sampler.cells] == ["r2", "r3", "r5"]
    assert all(f"nsenter --net=/run/netns/{ns} -- ss" in sampler.command[2] for ns in ("r2", "r3", "r5"))
