"""The recipes in docs/adding-*.md cannot drift from the code: every path they name exists, the
fault recipe is short, names every member a Fault may define and the files every fault is found in,
and its example is a real file of the lab."""
import inspect
import re
from pathlib import Path

from harness.faults import FAULTS
from harness.faults.base import Fault
from harness.registered import Registered

REPO = Path(__file__).parents[2]
DOCS = REPO / "docs"
RECIPE_LIMIT = 40
PATH = re.compile(r"`((?:harness|tests|docs|scenarios|images|scripts|examples)/[^`<>*\s]+)`")


def test_every_path_a_recipe_names_exists():
    for recipe in sorted(DOCS.glob("adding-*.md")):
        for path in PATH.findall(recipe.read_text()):
            assert (REPO / path.split(":")[0]).exists(), f"{recipe.name}: {path}"


def members(base):
    """What a subclass may define: the base's own public attributes and methods."""
    own = set(vars(Registered)) | set(vars(object)) | {"registry"}       # the family's own, not a member's
    return sorted(name for name in vars(base) if not name.startswith("_") and name not in own)


def short_recipe_naming(doc, names):
    """The recipe's text, once held to RECIPE_LIMIT lines and to naming each of `names` in backticks."""
    text = (DOCS / doc).read_text()
    assert len(text.splitlines()) <= RECIPE_LIMIT
    missing = [name for name in names if f"`{name}" not in text]
    assert missing == [], missing
    return text


def test_the_fault_recipe_is_short_and_names_every_member_a_fault_may_define():
    text = short_recipe_naming("adding-a-fault.md", members(Fault))
    example = REPO / "harness/faults/backend_restart.py"
    assert f"]({'../' + str(example.relative_to(REPO))})" in text
    assert len(example.read_text().splitlines()) <= 20 and "def stops" in example.read_text()


def test_the_files_the_fault_recipe_lists_are_where_every_fault_is_found():
    text = (DOCS / "adding-a-fault.md").read_text()
    package = (REPO / "harness/faults/__init__.py").read_text()
    found_in = {"tests/unit/test_fault_effects.py": lambda name, module: f'"{name}"' in
                (REPO / "tests/unit/test_fault_effects.py").read_text(),
                "README.md": lambda name, module: name in (REPO / "README.md").read_text(),
                "harness/faults/__init__.py": lambda name, module: module in package,
                "scenarios/<id>.yaml": lambda name, module: any(
                    f"fault: {name}" in p.read_text() for p in (REPO / "scenarios").glob("*.yaml"))}
    for name, cls in FAULTS.items():
        module = inspect.getmodule(cls).__name__.rsplit(".", 1)[1]
        for file, holds in found_in.items():
            assert holds(name, module), f"{name} is not in {file}"
    for file in found_in:
        assert f"`{file}`" in text


def test_the_signal_recipe_is_short_names_every_member_and_the_files_every_signal_is_found_in():
    from harness.signals.base import Signal
    from harness.signals.registry import SIGNALS
    text = short_recipe_naming("adding-a-signal.md", members(Signal))
    found_in = ["harness/signals/registry.py", "README.md", "docs/reference.md"]
    for signal in SIGNALS.members():
        for file in found_in:
            assert signal.name in (REPO / file).read_text(), f"{signal.name} is not in {file}"
        assert (REPO / "harness/signals" / signal.name / "__init__.py").exists()
    for file in found_in + ["tests/unit/fixtures/summary_with_every_section.json"]:
        assert f"`{file}`" in text


def test_the_control_plane_recipe_is_short_names_every_member_and_the_files_every_plane_is_found_in():
    from harness.control import CONTROL_PLANES
    from harness.control.base import ControlPlane
    from harness.scenario.model import Scenario
    from tests.control_plane_contract import CONTRACT_RUNS
    text = short_recipe_naming("adding-a-control-plane.md", members(ControlPlane))
    package, readme = (REPO / "harness/control/__init__.py").read_text(), (REPO / "README.md").read_text()
    scenarios = [p.read_text() for p in (REPO / "scenarios").glob("*.yaml")]
    for name, cls in CONTROL_PLANES.items():
        module = inspect.getmodule(cls).__name__.rsplit(".", 1)[1]
        assert module in package and name in CONTRACT_RUNS and name in readme, name
        default = name == Scenario.__dataclass_fields__["control"].default       # a scenario without control:
        assert default or any(f"control: {name}" in s or f"control:\n  {name}:" in s for s in scenarios), name
    for file in ("harness/control/__init__.py", "tests/scenarios/test_<name>.py", "tests/control_plane_contract.py",
                 "README.md", "scenarios/<id>.yaml", "harness/control/abilities.py"):
        assert f"`{file}`" in text
    from harness.control.abilities import ChangesByItsModel, ConnectsByName
    abilities = [name for ability in (ChangesByItsModel, ConnectsByName) for name in vars(ability)
                 if not name.startswith("_")]
    assert [name for name in abilities if f"`{name}" not in text] == []


def test_the_database_recipe_is_short_names_every_member_and_the_files_every_engine_is_found_in():
    from harness.databases import DATABASES
    from harness.databases.base import DatabaseEngine
    from harness.databases.server_process import ServerProcess
    text = short_recipe_naming("adding-a-database-engine.md", members(DatabaseEngine) + members(ServerProcess))
    package, readme = (REPO / "harness/databases/__init__.py").read_text(), (REPO / "README.md").read_text()
    for name, cls in DATABASES.items():
        module = inspect.getmodule(cls).__name__.rsplit(".", 1)[1]
        assert module in package and name in readme, name
    for file in ("harness/databases/__init__.py", "README.md", "Makefile", "tests/lab/test_database_contract.py"):
        assert f"`{file}`" in text


def test_the_place_recipe_is_short_names_the_lab_protocol_the_engines_face_and_every_place_is_listed():
    from harness.abilities import KeepsEvidenceOfItsPlace, RunsServersAsPods
    from harness.lab.base import Lab
    from harness.lab.engine import HostEngine
    from harness.lab.places import PLACES, OpensItsOwnLab, Place
    text = (DOCS / "adding-a-place-to-run.md").read_text()
    assert len(text.splitlines()) <= RECIPE_LIMIT
    faces = [Lab, HostEngine, OpensItsOwnLab]
    named = [name for face in faces for name in members(face)] + ["pods", "keeps", "keep_evidence"]
    assert {"pods"} <= set(vars(RunsServersAsPods)) and {"keep_evidence"} <= set(vars(KeepsEvidenceOfItsPlace))
    named += [field.name for field in Place.__dataclass_fields__.values()]
    missing = [name for name in named if f"`{name}" not in text and f"{name}," not in text and f"{name})" not in text]
    assert missing == [], missing
    readme = (REPO / "README.md").read_text()
    assert all(name in readme for name in PLACES)
    for file in ("harness/lab/places.py", "harness/settings/registry.py", "harness/settings/machine.py", "README.md",
                 "tests/lab_contract.py",
                 "tests/unit/test_lab_protocol.py", "docs/reference.md"):
        assert f"`{file}" in text
    assert "`place_name(kernel, lab)`" in text and "`LAB`" in text


def test_the_client_recipe_is_short_names_every_field_and_the_files_every_client_is_found_in():
    import dataclasses

    from harness.load.clients import CLIENTS, Client
    text = short_recipe_naming("adding-a-client.md", [field.name for field in dataclasses.fields(Client)])
    zoo_readme = (REPO / "images/client/zoo/README.md").read_text()
    dockerfile = (REPO / "images/client/Dockerfile").read_text()
    reference = (REPO / "docs/reference.md").read_text()
    for name, client in CLIENTS.items():
        if client.program is None:                # the lab's own probe
            continue
        assert f"| {name} " in zoo_readme, f"{name} has no row in images/client/zoo/README.md"
        assert (REPO / "images/client/zoo/bin" / client.program).exists() or client.program in dockerfile, name
        assert name in reference, f"{name} is not in docs/reference.md"
        assert any(f"client: {name}" in p.read_text() for p in (REPO / "scenarios").glob("*.yaml")), name
    for file in ("harness/load/clients.py", "images/client/zoo/README.md", "images/client/Dockerfile",
                 "docs/reference.md"):
        assert f"`{file}`" in text


def test_the_pool_recipe_is_short_names_every_member_and_the_files_every_pool_is_found_in():
    from harness.pools import POOLS
    from harness.pools.base import ConnectionPool
    text = short_recipe_naming("adding-a-connection-pool.md", members(ConnectionPool))
    package, readme = (REPO / "harness/pools/__init__.py").read_text(), (REPO / "README.md").read_text()
    dockerfile, reference = (REPO / "images/client/Dockerfile").read_text(), (REPO / "docs/reference.md").read_text()
    [pool_row] = [line for line in readme.splitlines() if line.startswith("| connection pool |")]
    for name, pool in POOLS.items():
        module = inspect.getmodule(type(pool)).__name__.rsplit(".", 1)[1]
        assert f"from .{module} import" in package and name in pool_row and f"`{name}`" in reference, name
        assert (REPO / f"tests/unit/test_{name}_pool.py").exists(), name
        # its program's name, which its Debian package's contains (pgbouncer; pgpool2's is pgpool)
        assert pool.version_command[0] in dockerfile, f"{name}: {pool.version_command[0]} is not in the client image"
        ids = [p.stem for p in (REPO / "scenarios").glob("*.yaml") if f"pool: {name}" in p.read_text()]
        assert any(i in t.read_text() for i in ids for t in (REPO / "tests/scenarios").glob("test_*.py")), name
    for file in ("harness/pools/<name>.py", "harness/pools/__init__.py", "images/client/Dockerfile", "README.md",
                 "docs/reference.md", "tests/unit/test_<name>_pool.py", "scenarios/<id>.yaml"):
        assert f"`{file}`" in text


def test_a_recipe_whose_members_the_reference_lists_names_the_reference_among_its_files():
    """docs/reference.md is written from the registries (make reference) and a test holds it to the
    code, so a new member of any axis it lists changes it too: a newcomer's fault touched six files
    where its recipe listed five."""
    reference = (DOCS / "reference.md").read_text()
    recipes = {"Faults": "adding-a-fault.md", "Control planes": "adding-a-control-plane.md",
               "Database engines": "adding-a-database-engine.md", "Places to run": "adding-a-place-to-run.md",
               "Signals": "adding-a-signal.md", "Clients": "adding-a-client.md",
               "Connection pools": "adding-a-connection-pool.md"}
    for section, recipe in recipes.items():
        assert f"\n## {section}" in reference, section
        files = (DOCS / recipe).read_text().split("## The files", 1)[1].split("\n## ", 1)[0]
        assert "`docs/reference.md`" in files, recipe
