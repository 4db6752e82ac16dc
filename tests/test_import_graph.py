"""No package has an import circle, counting every import: at the top of a module, inside
a function, or only for the type checker (``if TYPE_CHECKING``). An import moved into a
function still ties the two modules together; it only hides the circle from Python.

One case per package (the engine, each game, the server, the bots, the research
adapters), so each package's result stands on its own. Dependencies between packages
point down (tests/engine/test_layering.py), so a circle can only be within one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ludoteca

SRC = Path(ludoteca.__file__).parent


def _packages() -> list[str]:
    games = sorted(p.name for p in (SRC / "games").iterdir() if (p / "__init__.py").is_file())
    return ["ludoteca.engine", *(f"ludoteca.games.{g}" for g in games), "ludoteca.bots", "ludoteca.server",
            "ludoteca.rl"]


def _modules(package: str, root: Path) -> dict[str, Path]:
    """The modules of ``package`` (whose folder is ``root``), by dotted name."""
    found = {}
    for path in root.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join([package, *parts])] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules among ``modules`` that module ``name`` imports, wherever the import is."""
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


def _graph(package: str, root: Path) -> dict[str, set[str]]:
    modules = _modules(package, root)
    return {name: _imports(name, path, modules) for name, path in modules.items()}


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


@pytest.mark.parametrize("package", _packages())
def test_the_package_has_no_import_circle(package: str) -> None:
    root = SRC.joinpath(*package.split(".")[1:])
    graph = _graph(package, root)
    assert len(graph) > 1
    circle = _cycle(graph)
    assert circle is None, " -> ".join(circle or [])


def test_every_kind_of_import_is_counted(tmp_path: Path) -> None:
    """Top level, relative or absolute, inside a function, under TYPE_CHECKING."""
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "__init__.py").write_text("from .a import A\n")
    (root / "a.py").write_text("from . import b\nA = 1\n")
    (root / "b.py").write_text("def f():\n    from .c import C\n    return C\n")
    (root / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.d\nC = 1\n")
    (root / "d.py").write_text("from pkg import a\n")
    graph = _graph("pkg", root)
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.c"}, "pkg.c": {"pkg.d"},
                     "pkg.d": {"pkg.a"}}
    assert _cycle(graph) == ["pkg.a", "pkg.b", "pkg.c", "pkg.d", "pkg.a"]


def test_the_circle_finder_finds_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


# The server's packages, lowest first: a package imports only from its own layer's
# packages' public names and from layers below it. The root modules (the app, the
# composition root, `ludoteca serve`) stand above every layer.
SERVER_LAYERS: tuple[tuple[str, ...], ...] = (
    ("kernel",),
    ("http", "moderation"),
    ("live",),
    ("tables",),
    ("alerts", "ratings", "seatbots"),
    ("accounts", "playnow", "social", "tournaments", "reviews"),
)
SERVER_ROOT_MODULES = {"app", "server", "main"}


def _server_package(module: str) -> str:
    """The package of a server module (``ludoteca.server.tables.lobby`` -> ``tables``);
    the root modules are their own."""
    return module.split(".")[2] if module.count(".") >= 2 else ""


def _layer(package: str) -> int:
    if package in SERVER_ROOT_MODULES:
        return len(SERVER_LAYERS)
    for index, layer in enumerate(SERVER_LAYERS):
        if package in layer:
            return index
    raise AssertionError(f"ludoteca.server.{package} is in no layer of SERVER_LAYERS")


def test_the_server_is_one_package_per_concern_with_a_small_root() -> None:
    root = SRC / "server"
    modules = sorted(p.stem for p in root.glob("*.py") if p.stem != "__init__")
    assert set(modules) <= SERVER_ROOT_MODULES, f"modules at the server's root: {modules}"
    packages = {p.name for p in root.iterdir() if (p / "__init__.py").is_file() and p.name != "migrations"}
    assert packages == {name for layer in SERVER_LAYERS for name in layer}


def test_server_packages_import_only_their_layer_and_below() -> None:
    graph = _graph("ludoteca.server", SRC / "server")
    wrong = []
    for module, imported in sorted(graph.items()):
        source = _server_package(module)
        if not source:
            continue
        for target in sorted(imported):
            other = _server_package(target)
            if other and other != source and _layer(other) > _layer(source):
                wrong.append(f"{module} -> {target}")
    assert not wrong, "imports that point up the server's layers:\n" + "\n".join(wrong)


def test_no_server_package_reaches_another_ones_private_names() -> None:
    wrong = []
    for path in (SRC / "server").rglob("*.py"):
        if "migrations" in path.parts:
            continue
        source = path.relative_to(SRC / "server").parts[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith(
                    "ludoteca.server."):
                target = (node.module or "").split(".")[2]
                if target != source:
                    wrong += [f"{path.name}: {node.module}.{a.name}" for a in node.names
                              if a.name.startswith("_")]
    assert not wrong, wrong
