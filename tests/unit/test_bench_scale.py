"""bench-scale's pure parts: the generated grids and where a run's wall time went."""
import pytest

from harness.bench import scale
from harness.scenario import files


def test_each_grid_is_a_valid_scenario_of_distinct_cells_in_two_namespaces():
    for size in (12, 50, 200):
        parsed = files.parse_definition(scale.scenario_for(size), "bench-scale", f"scale-{size}")
        assert len(parsed.cells) == size and len({c.name for c in parsed.cells}) == size
        assert {c.namespace for c in parsed.cells} == {"r3", "r5"}
        knobs = {(c.knob("tcp_retries2"), c.tcp_user_timeout_ms, c.read_timeout_s) for c in parsed.cells}
        assert len(knobs) == min(size, 50)                 # every combination before any repeats


def test_percentiles_of_a_sample():
    assert scale.percentile([0.1, 0.2, 0.3, 0.4], 0.5) == 0.3
    with pytest.raises(ValueError, match="no values"):
        scale.percentile([], 0.5)
