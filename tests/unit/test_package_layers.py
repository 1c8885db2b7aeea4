"""The harness's packages import one another in layers: no cycle, and no chain of imports longer
than issue 23 asked for (fewer than the 9 package-to-package steps the harness had before it).
Inside a package, no module imports, at run time, one that imports it back (an import inside a
function counts; one for annotations only, under `if TYPE_CHECKING:`, does not; a package's
__init__, which gathers its modules' names, is not a module here)."""
import ast
import functools
from pathlib import Path

HARNESS = Path(__file__).resolve().parents[2] / "harness"
MOST_LAYERS = 8


def _module_name(path):
    parts = path.relative_to(HARNESS.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path, name, at_run_time=False):
    """The harness modules a file imports (at the top or inside a function alike; at_run_time: not
    those under `if TYPE_CHECKING:`)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text())
    for_annotations = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
                       for inner in ast.walk(node)} if at_run_time else set()
    for node in ast.walk(tree):
        if id(node) in for_annotations:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            yield from (f"{module}.{alias.name}" for alias in node.names)
            yield module


def _package(module):
    """harness.run.failover -> harness.run; harness.store -> harness.store."""
    return ".".join(module.split(".")[:2])


def package_graph():
    modules = {_module_name(p): p for p in HARNESS.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        for imported in _imported(path, name):
            if imported in modules and imported != "harness" and _package(imported) != _package(name):
                graph.setdefault(_package(name), set()).add(_package(imported))
    return graph


def module_graph():
    """module -> the modules (not packages' __init__) it imports at run time."""
    modules = {_module_name(p): p for p in HARNESS.rglob("*.py") if p.name != "__init__.py"}
    return {name: {m for m in _imported(path, name, at_run_time=True) if m in modules and m != name}
            for name, path in modules.items()}


def a_cycle(graph):
    """One cycle of the graph (its nodes, the first repeated at the end), or None."""
    done, trail = set(), []

    def visit(node):
        if node in trail:
            return trail[trail.index(node):] + [node]
        if node in done:
            return None
        trail.append(node)
        found = next((c for nxt in sorted(graph.get(node, ())) for c in [visit(nxt)] if c), None)
        trail.pop()
        done.add(node)
        return found
    return next((c for node in sorted(graph) for c in [visit(node)] if c), None)


def longest_chain(graph):
    """The longest path of imports between packages (its packages, in order); raises on a cycle."""
    @functools.lru_cache(None)
    def from_(package, trail=()):
        if package in trail:
            raise AssertionError("import cycle: " + " -> ".join(trail[trail.index(package):] + (package,)))
        return max(((package,) + from_(nxt, trail + (package,)) for nxt in graph.get(package, ())),
                   key=len, default=(package,))
    return max((from_(package) for package in graph), key=len)


def test_no_package_imports_itself_round_a_cycle():
    longest_chain(package_graph())


def test_no_module_imports_itself_round_a_cycle_at_run_time():
    cycle = a_cycle(module_graph())
    assert cycle is None, " -> ".join(cycle)


def test_the_module_checker_sees_a_cycle_and_not_a_chain():
    assert a_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert a_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_chains_of_imports_between_packages_are_short():
    chain = longest_chain(package_graph())
    print(len(chain) - 1, "steps:", " -> ".join(chain))
    assert len(chain) - 1 <= MOST_LAYERS, chain


def test_the_checker_sees_a_cycle():
    try:
        longest_chain({"a": {"b"}, "b": {"c"}, "c": {"a"}})
    except AssertionError as cycle:
        assert "a -> b -> c -> a" in str(cycle) or "b -> c -> a -> b" in str(cycle)
    else:
        raise AssertionError("the cycle a -> b -> c -> a was not seen")
