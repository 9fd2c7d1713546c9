"""The import graph of pbf (issue 23): no file imports, directly or through others, a file that
imports it back; every import inside pbf names a module and a name that exist; the packages
import only downwards; and no pbf module reads a private attribute of the standard library or a
dependency.

The graph is built from the source with ``ast``: the imports at the top of a module and those
inside functions (a command imports what it needs when it needs it), and the modules named to
``lazy()`` / ``_OnFirstUse()`` / ``importlib.import_module()``. An import under
``if TYPE_CHECKING:`` is for the type checker alone and never runs: it is left out.
"""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PBF = ROOT / "pbf"

# Cycles known and being broken elsewhere, each with who removes it. Empty when none is left.
ALLOWED_CYCLES: list[frozenset[str]] = []  # none: a cycle found is a failure

_LOADERS = {"lazy", "_OnFirstUse", "import_module"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _package(path: Path) -> str:
    name = module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_nodes(tree: ast.AST):
    """Every node that can run (what is under ``if TYPE_CHECKING:`` left out)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                stack.extend(child.orelse)
                continue
            stack.append(child)


def imports_of(path: Path, modules: set[str]) -> list[tuple[str, str | None, int]]:
    """(module, name imported from it or None, line) for every import in ``path`` that runs."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    package = _package(path)
    found: list[tuple[str, str | None, int]] = []
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, None, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                if f"{module}.{alias.name}" in modules:  # a submodule: the edge goes to it
                    found.append((f"{module}.{alias.name}", None, node.lineno))
                else:
                    found.append((module, alias.name, node.lineno))
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if called in _LOADERS and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str) and node.args[0].value.startswith("pbf"):
                found.append((node.args[0].value, None, node.lineno))
    return found


def pbf_files() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PBF.rglob("*.py"))}


def import_graph() -> dict[str, set[str]]:
    files = pbf_files()
    modules = set(files)
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        for module, _, _ in imports_of(path, modules):
            if module in modules and module != name:
                graph[name].add(module)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one file (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[frozenset[str]] = []
    counter = [0]
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _path_in(component: frozenset[str], graph: dict[str, set[str]]) -> str:
    """One circle through the component, for the message."""
    start = min(component)
    path, seen = [start], {start}
    while True:
        nxt = min(w for w in graph[path[-1]] if w in component)
        if nxt in seen:
            return " -> ".join(path[path.index(nxt):] + [nxt])
        path.append(nxt)
        seen.add(nxt)


def test_the_import_graph_has_no_cycle():
    graph = import_graph()
    found = cycles(graph)
    unexpected = [c for c in found if c not in ALLOWED_CYCLES]
    assert not unexpected, "import cycles:\n" + "\n".join(_path_in(c, graph) for c in unexpected)
    stale = [sorted(c) for c in ALLOWED_CYCLES if c not in found]
    assert not stale, f"an allowed cycle is gone: remove it from ALLOWED_CYCLES: {stale}"


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import(tmp_path):
    """The finder itself: a function-level import that closes a circle is a cycle, one under
    TYPE_CHECKING is not."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [frozenset({"a", "b", "c"})]
    assert cycles({"a": {"b"}, "b": set()}) == []
    source = tmp_path / "m.py"
    source.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pbf.cli\n"
                      "def f():\n    from pbf import errors\n    import pbf.turn.run\n", "utf-8")
    found = {m for m, _, _ in imports_of_file(source)}
    assert found == {"typing", "pbf.errors", "pbf.turn.run"}


def imports_of_file(path: Path) -> list[tuple[str, str | None, int]]:
    """imports_of for a file outside pbf/ (the finder's own test): absolute imports only."""
    return imports_of_outside(path, set(pbf_files()))


def imports_of_outside(path: Path, modules: set[str]) -> list[tuple[str, str | None, int]]:
    tree = ast.parse(path.read_text("utf-8"))
    found = []
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            found.extend((a.name, None, node.lineno) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                found.append((sub, None, node.lineno) if sub in modules else (node.module, a.name, node.lineno))
    return found


def test_every_import_in_pbf_names_what_exists():
    """An import inside a function runs only when that function does: one left pointing at a
    module that moved would fail only then. Each is checked here, module and name."""
    files = pbf_files()
    modules = set(files)
    bad = []
    for name, path in files.items():
        for module, attr, line in imports_of(path, modules):
            if not module.startswith("pbf"):
                continue
            try:
                loaded = importlib.import_module(module)
            except ImportError as exc:
                bad.append(f"{path.relative_to(ROOT)}:{line}: {module} ({exc})")
                continue
            if attr is not None and not hasattr(loaded, attr):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {module} has no {attr}")
    assert not bad, "\n".join(bad)


# The packages by floor, top first: a file may import its own package and the floors below it.
FLOORS = ("pbf.cli", "pbf.publish", "pbf.turn", "pbf.campaign", "pbf.board")
# beside the command line, above the floors: the program's entry (python -m pbf), pbf balance (a
# tool that plays turns) and pbf odds (which reads an order as pbf check does)
ABOVE = ("pbf.__main__", "pbf.balance", "pbf.odds")


def _floor(module: str) -> int:
    """The floor of a module: 0 for the command line … len(FLOORS) for what is below them all
    (the systems, the core's modules at pbf/, the reader, the NPC's search, the odds)."""
    for number, package in enumerate(FLOORS):
        if module == package or module.startswith(package + "."):
            return number
    return len(FLOORS)


def test_the_packages_import_only_downwards():
    """cli -> publish -> turn -> campaign -> board -> the systems and the core
    (docs/architecture.md): no file imports a package on a floor above its own. (The NPC's
    choices read the board's commit–reveal; the campaign reads the NPC's levels: pbf/npc/ is
    between the two, and imports nothing of the floors above the board.)"""
    graph = import_graph()
    upward = sorted(f"{source} -> {target}" for source, targets in graph.items()
                    if not any(source == a or source.startswith(a + ".") for a in ABOVE)
                    for target in targets
                    if _floor(target) < _floor(source) and not (source.startswith("pbf.npc") and target.startswith("pbf.board")))
    assert not upward, "imports pointing up:\n" + "\n".join(upward)


def test_the_floor_check_sees_an_import_pointing_up():
    assert _floor("pbf.turn.run") < _floor("pbf.campaign.folder") < _floor("pbf.board.thread") < _floor("pbf.dice")
    assert _floor("pbf.cli") == 0 and _floor("pbf.systems.rider.cards") == len(FLOORS)


_PRIVATE_OK = {"_thread", "__future__"}


def test_no_module_reads_a_private_attribute_of_another_library():
    """``dataclasses._FIELD``, ``Macro._func`` and the like change with a minor release: pbf
    reads only public names of the standard library and its dependencies (issue 23). Checked:
    ``module._name`` for an imported module that is not pbf's, and ``._name`` read on a
    name whose value comes from outside pbf is left to review; the two known reads are named."""
    bad = []
    for name, path in pbf_files().items():
        tree = ast.parse(path.read_text("utf-8"))
        foreign = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if not a.name.startswith("pbf"):
                        foreign.add(a.asname or a.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module \
                    and not node.module.startswith("pbf"):
                for a in node.names:
                    if a.name[:1].islower() and a.name != "annotations":
                        foreign.add(a.asname or a.name)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                if isinstance(node.value, ast.Name) and node.value.id in foreign:
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.id}.{node.attr}")
                if node.attr == "_func":
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: ._func (jinja2's Macro)")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
                    and len(node.args) >= 2 and not (isinstance(node.args[0], ast.Name) and node.args[0].id == "self") and isinstance(node.args[1], ast.Constant) \
                    and isinstance(node.args[1].value, str) and node.args[1].value.startswith("_") \
                    and not node.args[1].value.startswith("__") and node.args[1].value not in ("_record_spec",):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: getattr(…, {node.args[1].value!r})")
    assert not bad, "private attributes of other libraries read:\n" + "\n".join(bad)


@pytest.mark.parametrize("old", ["pbf/campaign.py", "pbf/engine.py", "pbf/cli.py"])
def test_the_old_single_modules_are_gone(old):
    assert not (ROOT / old).exists()
