"""crkb imports flow one way: no cycles among its modules (imports inside functions included), and
no layer imports a layer above it. The layer order is written here, once."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "crkb"

# Lowest first. A module belongs to the layer of its longest listed prefix; it may import its
# own layer and the ones below.
LAYERS: list[tuple[str, ...]] = [
    ("crkb", "crkb.errors", "crkb.config", "crkb.numbers", "crkb.model"),  # the vocabulary
    ("crkb.graph",),  # references and the term dictionary, over the model
    ("crkb.sources", "crkb.parsing"),  # files → Documents
    ("crkb.store",),  # SQLite: every SQL statement
    ("crkb.search", "crkb.diff", "crkb.checks", "crkb.identify", "crkb.fetch"),
    ("crkb.carry",),  # a translation carried forward, over diffs and checks
    ("crkb.build",),  # the pipeline above the steps it runs
    ("crkb.views", "crkb.export"),  # what CLI, web and the offline pack show
    ("crkb.web",),
    ("crkb.cli", "crkb.__main__"),
]


@functools.cache
def module_names() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The crkb modules `name` imports anywhere in its file (TYPE_CHECKING blocks left out:
    they never run)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node) if n is not node)
            skip.update(id(n) for n in node.body)
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                if f"{module}.{alias.name}" in known:
                    found.add(f"{module}.{alias.name}")
                elif module in known:
                    found.add(module)
    found.discard(name)
    return found


@functools.cache
def graph() -> dict[str, set[str]]:
    names = module_names()
    return {n: imports(n, p, set(names)) for n, p in names.items()}


def layer_of(module: str) -> int:
    best, level = -1, -1
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, level = len(p), i
    return level


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a path of module names, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m) :] + [m]
            if m not in state and (cycle := visit(m)):
                return cycle
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(edges):
        if n not in state and (cycle := visit(n)):
            return cycle
    return None


def test_the_graph_sees_function_level_imports() -> None:
    edges = graph()
    assert len(edges) > 40
    # crkb.cli.search imports the engine inside cmd_search, not at the top of the file
    assert "crkb.search.engine" in edges["crkb.cli.search"]


def test_no_import_cycle_among_crkb_modules() -> None:
    cycle = find_cycle(graph())
    assert cycle is None, " → ".join(cycle or [])


def test_the_cycle_finder_finds_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_every_module_has_a_layer() -> None:
    assert [m for m in graph() if layer_of(m) < 0] == []


@pytest.mark.parametrize("module", sorted(module_names()))
def test_no_layer_imports_a_higher_one(module: str) -> None:
    mine = layer_of(module)
    above = sorted(m for m in graph()[module] if layer_of(m) > mine)
    assert above == [], f"{module} (layer {mine}) imports higher layers: {above}"
