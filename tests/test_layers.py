"""The packages of argus form layers: no two import each other, and none imports upward.

Every module under src/argus is parsed with ``ast`` (nothing is imported), and each of its
imports, at the top, inside a function or under ``TYPE_CHECKING``, becomes an edge between
the top-level units of the package (``argus.loop.engine.run`` is the unit ``loop``; a
top-level module such as ``argus.io`` is its own unit). The test fails on any cycle between
units, on any cycle between the sub-packages of one package (``loop.engine`` and
``loop.records``, say), on an import that climbs to a higher layer, and on a unit no layer
names. docs/internals.md draws the same layers.
"""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

# Lowest first. A unit may import units of its own layer or of any layer below it, never one
# above; within a layer, the import graph must still be free of cycles. A new top-level
# package or module goes into the lowest layer whose units it needs to import.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    # Helpers every part may use; they know nothing of UIs, specs or runs.
    (
        "foundation",
        frozenset(
            {
                "argus",  # the package root: only __version__
                "_blas",
                "_interrupt",  # a Ctrl-C Python swallowed, raised again
                "_malloc",  # malloc thresholds for many-pairs processes
                "_readfile",  # a user's file read whole (argus.io re-exports it)
                "_lazy",
                "closing",
                "color",
                "console_policy",
                "entrypoints",  # plug-ins of installed packages, by entry-point group
                "errors",
                "folderlock",
                "person",  # whether a person, not an agent, takes a decision
                "io",
                "proc",
                "state_home",
            }
        ),
    ),
    # The shapes of the files Argus reads and writes, the project's settings, and the run-state
    # layer the loop and the contract runner share (store: run store, hash chain, open runs);
    # frameworks: what Argus knows of Python UI frameworks, pure data the config names.
    (
        "schemas, settings, run state",
        frozenset({"config", "frameworks", "schemas", "store", "verdict"}),
    ),
    # What a person declares: design tokens, the spec, a report layout.
    ("design inputs", frozenset({"layout", "spec", "tokens"})),
    # Looking at a UI: rendering and sensing it, comparing images, running tools on it.
    # adapters: sensors for non-web UIs (a Textual app), run as an adapter project's sense.sh.
    ("sensing", frozenset({"adapters", "ci", "confine", "design", "diff", "lighthouse", "sense"})),
    # Reading what a sensor recorded, shared by the gates and the judges above.
    ("evidence", frozenset({"evidence"})),
    ("gates", frozenset({"gates"})),
    ("judges", frozenset({"judge"})),
    # What drives gates and judges toward a decision.
    ("workflows", frozenset({"assertion", "contract", "loop", "referee", "review"})),
    # Where people and other tools meet the workflows' results.
    ("surfaces", frozenset({"agents", "report", "shard", "testing", "ui"})),
    ("cli", frozenset({"cli"})),
    ("entry point", frozenset({"__main__", "_main"})),
)

Graph = Mapping[str, Iterable[str]]


def module_names(src: Path) -> dict[str, tuple[Path, bool]]:
    """Every module under ``src/argus``: dotted name -> (file, is a package's __init__)."""
    modules: dict[str, tuple[Path, bool]] = {}
    for path in sorted((src / "argus").rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts.pop()
        modules[".".join(parts)] = (path, package)
    return modules


def imported(name: str, package: bool, tree: ast.AST, known: Collection[str]) -> set[str]:
    """The argus modules one module imports, anywhere in its body."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")[: None if package else -1]
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            for alias in node.names:
                # `from argus.loop import engine` imports the module argus.loop.engine.
                full = f"{module}.{alias.name}"
                found.add(full if full in known else module)
    return {m for m in found if m == "argus" or m.startswith("argus.")}


def import_edges(src: Path, depth: int) -> dict[str, set[str]]:
    """The import graph between units: a module's top-level package (``depth=1``), or its
    sub-package when it sits in one (``depth=2``: ``loop.engine``; ``gates.base`` is ``gates``).
    """
    modules = module_names(src)
    packages = {name for name, (_, package) in modules.items() if package}

    def unit(module: str) -> str:
        parts = module.split(".")
        if len(parts) == 1:
            return "argus"
        if depth == 2 and len(parts) > 2 and ".".join(parts[:3]) in packages:
            return ".".join(parts[1:3])
        return parts[1]

    edges: dict[str, set[str]] = defaultdict(set)
    for name, (path, package) in modules.items():
        source = unit(name)
        edges[source]  # every unit is a node, importing or not
        for target in _imports(path, name, package, frozenset(modules)):
            if unit(target) != source:
                edges[source].add(unit(target))
    return dict(edges)


@functools.cache
def _imports(path: Path, name: str, package: bool, known: frozenset[str]) -> frozenset[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return frozenset(imported(name, package, tree, known))


def cycles(graph: Graph) -> list[list[str]]:
    """Every group of nodes that reach each other (strongly connected, more than one node)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph.get(node, ())):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def layer_of(layers: tuple[tuple[str, frozenset[str]], ...]) -> dict[str, int]:
    return {unit: rank for rank, (_, units) in enumerate(layers) for unit in units}


def climbs(graph: Graph, layers: tuple[tuple[str, frozenset[str]], ...]) -> list[str]:
    """Each import from a unit to a unit of a higher layer, as ``a (layer) -> b (layer)``."""
    rank = layer_of(layers)
    return [
        f"{source} ({layers[rank[source]][0]}) -> {target} ({layers[rank[target]][0]})"
        for source in sorted(graph)
        for target in sorted(graph[source])
        if source in rank and target in rank and rank[target] > rank[source]
    ]


def unplaced(graph: Graph, layers: tuple[tuple[str, frozenset[str]], ...]) -> list[str]:
    rank = layer_of(layers)
    return sorted({u for s, ts in graph.items() for u in (s, *ts)} - rank.keys())


# --- the real package ---


@pytest.fixture(scope="module")
def units() -> dict[str, set[str]]:
    return import_edges(SRC, depth=1)


def test_every_unit_sits_in_a_layer(units: dict[str, set[str]]) -> None:
    missing = unplaced(units, LAYERS)
    assert missing == [], f"put each of these in a layer of tests/test_layers.py: {missing}"


def test_no_layer_names_a_unit_twice() -> None:
    named = [unit for _, group in LAYERS for unit in group]
    assert len(named) == len(set(named))


def test_no_cycle_between_packages(units: dict[str, set[str]]) -> None:
    assert cycles(units) == []


def test_no_import_climbs_a_layer(units: dict[str, set[str]]) -> None:
    assert climbs(units, LAYERS) == []


def test_no_cycle_between_the_sub_packages_of_a_package() -> None:
    # Sub-packages only (loop.engine, loop.records, ...): the modules lying flat in a package
    # beside its sub-packages are the package's own, and may use any of them.
    graph = import_edges(SRC, depth=2)
    within = {
        source: {t for t in targets if "." in t and t.split(".")[0] == source.split(".")[0]}
        for source, targets in graph.items()
        if "." in source
    }
    assert cycles(within) == []


def test_the_graph_sees_what_the_code_imports(units: dict[str, set[str]]) -> None:
    # Known edges, one per kind of import: a top-level `from`, a relative-free `import`
    # inside a function, and one under TYPE_CHECKING would all show here.
    assert "evidence" in units["gates"]  # gates/base.py: from argus.evidence.content import ...
    assert "gates" in units["judge"]
    assert "loop" in units["report"]
    assert "cli" in units["_main"]  # inside its function: a Ctrl-C there is caught
    assert "_main" in units["__main__"]


# --- the checks themselves, on graphs made up here ---

MADE_UP_LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("low", frozenset({"io", "errors"})),
    ("middle", frozenset({"gates", "judge"})),
    ("high", frozenset({"cli"})),
)


def test_a_planted_cycle_is_found() -> None:
    graph = {"gates": {"judge", "io"}, "judge": {"gates"}, "io": {"errors"}, "errors": set()}
    assert cycles(graph) == [["gates", "judge"]]


def test_a_longer_planted_cycle_is_found_whole() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_a_graph_without_cycles_passes() -> None:
    graph = {"cli": {"gates", "judge"}, "judge": {"gates", "io"}, "gates": {"io"}, "io": set()}
    assert cycles(graph) == []
    assert climbs(graph, MADE_UP_LAYERS) == []


def test_an_import_that_climbs_a_layer_is_named() -> None:
    graph = {"io": {"gates"}, "gates": {"io"}, "cli": {"io"}}
    assert climbs(graph, MADE_UP_LAYERS) == ["io (low) -> gates (middle)"]


def test_an_import_within_a_layer_does_not_climb() -> None:
    assert climbs({"judge": {"gates"}}, MADE_UP_LAYERS) == []


def test_a_unit_outside_every_layer_is_named() -> None:
    assert unplaced({"cli": {"plugins"}, "plugins": set()}, MADE_UP_LAYERS) == ["plugins"]


def test_imports_are_read_in_every_place_they_can_be(tmp_path: Path) -> None:
    package = tmp_path / "argus"
    (package / "low").mkdir(parents=True)
    (package / "high").mkdir()
    (package / "__init__.py").write_text("")
    (package / "low" / "__init__.py").write_text("")
    (package / "low" / "base.py").write_text("")
    (package / "high" / "__init__.py").write_text("")
    (package / "high" / "typed.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from argus.low.base import X\n"
    )
    (package / "high" / "lazy.py").write_text("def f():\n    import argus.low.base\n")
    (package / "low" / "up.py").write_text("def g():\n    from argus import high\n")
    (package / "low" / "relative.py").write_text("from ..high import typed\n")
    graph = import_edges(tmp_path, depth=1)
    assert graph["high"] == {"low"}
    assert graph["low"] == {"high"}
    assert cycles(graph) == [["high", "low"]]
