"""Malformed scenarios, generated: whatever a file holds, parsing ends in a Scenario or in one
ScenarioError naming the field; no other exception escapes, and the CLI starts nothing."""
import copy

import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from harness import scenario
from tests.cli.nothing_started import run_without_docker
from harness.scenario import ScenarioError

BASES = [scenario.load_raw(name) for name in scenario.available()]
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-10**40, max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from([".nan", ".inf", "-1s", "1e999", "db-primary", "web-a", "drop", "reset", "ipvs_swap", "5/1/3",
                     "99999999999999999999", "", "2m", "250ms"]),
    st.lists(st.one_of(st.integers(), st.text(max_size=5)), max_size=3),
    st.dictionaries(st.text(max_size=6), st.integers(), max_size=3),
)
OPERATIONS = ("replace", "delete", "add_key", "wrap_in_list")


def paths(node, prefix=()):
    """Every place in a YAML tree a mutation can go."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += paths(value, prefix + (index,))
    return found


def mutate(doc, path, operation, junk):
    if not path:
        return junk if operation == "replace" else [doc] if operation == "wrap_in_list" else doc
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if operation == "replace":
        parent[key] = junk
    elif operation == "delete":
        del parent[key]
    elif operation == "wrap_in_list":
        parent[key] = [parent[key]]
    elif isinstance(parent, dict):
        parent[str(junk)[:10] or "x"] = junk
    else:
        parent.append(junk)
    return doc


@st.composite
def malformed(draw):
    doc = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        path = draw(st.sampled_from(paths(doc)))
        doc = mutate(doc, path, draw(st.sampled_from(OPERATIONS)), draw(JUNK))
    return doc


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(malformed())
def test_a_malformed_scenario_gives_a_scenario_error_or_a_scenario(doc):
    try:
        parsed = scenario.parse_definition(doc, "fuzz.yaml", "fuzz")
    except ScenarioError as exc:
        assert str(exc).startswith("fuzz.yaml: ")
        event("rejected with a ScenarioError")
        return
    event("still a valid scenario")
    assert parsed.cells                     # it parsed: then it is a whole, usable scenario


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_in_a_scenario_file_give_a_scenario_error_or_a_scenario(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "bytes.yaml"
    path.write_bytes(data)
    try:
        scenario.load(str(path))
    except ScenarioError as exc:
        assert str(path) in str(exc)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(malformed())
def test_the_cli_rejects_malformed_files_with_exit_2_and_starts_nothing(tmp_path, doc):
    try:
        scenario.parse_definition(copy.deepcopy(doc), "x", "x")
        return                              # a valid one would start a lab: not this test's business
    except ScenarioError:
        pass
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump(doc))
    result, docker_calls = run_without_docker(["run", str(path)], tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"blackhole: {path}: ") and "Traceback" not in result.stderr
    assert docker_calls == []
