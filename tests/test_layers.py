"""The architecture holds by itself: layers, no import cycles, no borrowed private names.

Every import in the package is read from the source (imports inside functions
too) and checked against the layers of the design, top to bottom::

    cli · web · the package's own __init__
    render
    find · count · exists · sample · complete · trace · scale · runtime.families   (the questions)
    policy
    warnsdorff · backtrack · construct · frontier · bishop · existence   (the families)
    board · pieces · colours · tour · paths · errors · arguments · status · units · runtime · output · jobs   (the model and its tools)

``runtime.families`` (``chesstours compile``) lives with the runtime whose
machinery it drives, but its jobs run the questions: it has their rank, and
the runtime's ``__init__`` does not import it. An import never runs upward; the modules never import each other in a cycle
(an import of ``a.b.c`` runs the ``__init__`` of ``a.b`` too, so that edge
counts); the algorithm families depend on each other without a cycle; and no
module imports a name that another module keeps private (``_name``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import chesstours

PACKAGE = Path(chesstours.__file__).parent

#: Rank of each top-level part of the package (or of a module named here by its dotted path below the package, which
#: then ranks apart from its package): an import may go to the same rank or lower.
LAYERS = {
    "errors": 0, "board": 0, "pieces": 0, "colours": 0, "tour": 0, "paths": 0, "arguments": 0, "status": 0, "units": 0, "runtime": 0, "settings": 0, "reading": 0, "output": 0, "jobs": 0, "graph": 0, "stops": 0,
    "warnsdorff": 1, "backtrack": 1, "construct": 1, "frontier": 1, "bishop": 1, "existence": 1,
    "policy": 2,
    "find": 3, "count": 3, "exists": 3, "sample": 3, "complete": 3, "trace": 3, "scale": 3, "runtime.families": 3,
    "render": 4,
    "cli": 5, "web": 5, "__init__": 5, "__main__": 5,
}
FAMILIES = {name for name, rank in LAYERS.items() if rank == 1}


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _imports(name: str) -> list[tuple[str, str | None, int]]:
    """``(module imported, name taken from it or None, line)`` for every import of ``name``'s source."""
    tree = ast.parse(MODULES[name].read_text())
    here = name if _is_package(name) else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, None, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.append((sub, None, node.lineno) if sub in MODULES else (target, alias.name, node.lineno))
    return [(t, n, line) for t, n, line in found if t.split(".")[0] == "chesstours"]


def _part(name: str) -> str:
    """The part of the package a module belongs to: its top-level part (``chesstours.frontier.join`` ->
    ``frontier``), or the module itself where :data:`LAYERS` ranks it apart (``runtime.families``)."""
    parts = name.split(".")
    if len(parts) == 1:
        return "__init__"
    return next((".".join(parts[1:k]) for k in range(len(parts), 2, -1) if ".".join(parts[1:k]) in LAYERS), parts[1])


def _edges() -> dict[str, set[str]]:
    """Module -> modules its imports run, the ``__init__`` of each package entered from outside included."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name in MODULES:
        for target, _, _ in _imports(name):
            if target not in MODULES:
                continue
            graph[name].add(target)
            parts = target.split(".")
            for k in range(2, len(parts)):
                package = ".".join(parts[:k])
                if not (name == package or name.startswith(package + ".")):
                    graph[name].add(package)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of nodes, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(v: str) -> list[str] | None:
        state[v] = 1
        stack.append(v)
        for u in sorted(graph.get(v, ())):
            if state.get(u) == 1:
                return stack[stack.index(u):] + [u]
            if u not in state and (found := visit(u)) is not None:
                return found
        stack.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state and (found := visit(v)) is not None:
            return found
    return None


def test_every_part_of_the_package_has_a_layer():
    assert {_part(name) for name in MODULES} <= set(LAYERS), "a new top-level module needs a layer in LAYERS"


def test_no_import_runs_upward():
    upward = []
    for name in sorted(MODULES):
        for target, _, line in _imports(name):
            if target == "chesstours" and _part(name) in ("cli", "web"):
                continue  # the version string, read from the top by the interfaces
            if LAYERS[_part(target)] > LAYERS[_part(name)]:
                upward.append(f"{name}:{line} imports {target}")
    assert upward == []


def test_no_import_cycle():
    assert _cycle(_edges()) is None


def test_the_algorithm_families_depend_on_each_other_without_a_cycle():
    graph: dict[str, set[str]] = {family: set() for family in FAMILIES}
    for name, targets in _edges().items():
        for target in targets:
            a, b = _part(name), _part(target)
            if a in FAMILIES and b in FAMILIES and a != b:
                graph[a].add(b)
    assert _cycle(graph) is None


def test_no_module_imports_another_modules_private_names():
    borrowed = [f"{name}:{line} takes {taken} from {target}"
                for name in sorted(MODULES) for target, taken, line in _imports(name)
                if taken and taken.startswith("_") and not taken.startswith("__")]
    assert borrowed == []


def test_no_module_reads_another_modules_private_names_through_its_module():
    borrowed = []
    for name in sorted(MODULES):
        aliases = {}
        tree = ast.parse(MODULES[name].read_text())
        imported = {t for t, n, _ in _imports(name) if n is None}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    aliases[alias.asname or alias.name.split(".")[0]] = alias.name
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.attr.startswith("_")
                    and not node.attr.startswith("__") and node.value.id in aliases
                    and any(t.endswith("." + aliases[node.value.id].split(".")[-1]) for t in imported)):
                borrowed.append(f"{name}:{node.lineno} reads {node.value.id}.{node.attr}")
    assert borrowed == []


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
])
def test_the_cycle_finder_finds_cycles(graph, expected):
    assert _cycle(graph) == expected
