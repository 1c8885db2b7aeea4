"""A fault whose queueing discipline this host's kernel lacks (6.18 here: no sch_plug, no
sch_netem) is refused before anything of the lab starts, with what would have it."""
import io

import pytest

from harness import scenario
from harness.errors import LabError
from harness.lab import engine_for, labelled_leftovers
from harness.pipeline import run_and_report


@pytest.mark.parametrize("scenario_id, fault, qdisc", [("rx-stall", "rx_stall", "plug"),
                                                       ("lossy-backend", "slow_link", "netem")])
def test_a_fault_whose_qdisc_the_kernel_lacks_is_refused_before_the_lab_starts(tmp_path, scenario_id, fault, qdisc):
    with engine_for("host") as host:
        if host.has_qdisc(qdisc):
            pytest.skip(f"this host's kernel has sch_{qdisc}")
    parsed, raw = scenario.load(scenario_id)
    project = f"blackhole-test-refused-{qdisc}"
    with pytest.raises(LabError, match=rf"fault {fault} needs the tc qdisc {qdisc}, which kernel .*\(KERNEL=6\.12\)"):
        run_and_report(parsed, raw, results=tmp_path, project=project, out=io.StringIO())
    assert labelled_leftovers(project=project) == {"containers": [], "networks": [], "volumes": []}
