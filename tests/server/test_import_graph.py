"""The server package has no import circle, counting every import: at the top of a
module, inside a function, or only for the type checker (``if TYPE_CHECKING``)."""

from __future__ import annotations

import ast
from pathlib import Path

import ludoteca.server

ROOT = Path(ludoteca.server.__file__).parent
PACKAGE = "ludoteca.server"


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join([PACKAGE, *parts])] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names if alias.name in modules}
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = (f"{base}.{node.module}" if node.module else base) if node.level else node.module or ""
            for alias in node.names:
                if f"{target}.{alias.name}" in modules:
                    out.add(f"{target}.{alias.name}")  # a module imported from its package
                elif target in modules:
                    out.add(target)
    return out - {name}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the chain of modules, or None."""
    colour: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if colour.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in colour and (found := visit(nxt)):
                return found
        stack.pop()
        colour[node] = 2
        return None

    for node in sorted(graph):
        if node not in colour and (found := visit(node)):
            return found
    return None


def test_the_server_package_has_no_import_circle() -> None:
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    assert graph["ludoteca.server.state"] >= {"ludoteca.server.tables", "ludoteca.server.core"}
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_circle_finder_finds_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
