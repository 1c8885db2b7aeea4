"""The harness's packages import one another in layers: no cycle, and no chain of imports longer
than issue 23 asked for (fewer than the 9 package-to-package steps the harness had before it)."""
import ast
import functools
from pathlib import Path

HARNESS = Path(__file__).resolve().parents[2] / "harness"
MOST_LAYERS = 8


def _module_name(path):
    parts = path.relative_to(HARNESS.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path, name):
    """The harness modules a file imports (at the top or inside a function alike)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text())):
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
