"""docs/architecture.md's map of the server is the tree: every package of
src/ludoteca/server with every module in it, and nothing else. A package or module
added, moved or removed without the map fails here, so the page a newcomer reads first
cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

import ludoteca

SERVER = Path(ludoteca.__file__).parent / "server"
DOC = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
ROW = re.compile(r"^\| `(?P<package>[a-z_]+)/` \| (?P<what>[^|]+) \| (?P<modules>[^|]+) \|$")


def _map() -> dict[str, set[str]]:
    """The map's rows: package -> the modules its last column names."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## The server's packages", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        found = ROW.match(line.strip())
        if found:
            rows[found["package"]] = set(re.findall(r"`([a-z_]+)`", found["modules"]))
    return rows


def _tree() -> dict[str, set[str]]:
    out = {}
    for package in SERVER.iterdir():
        if (package / "__init__.py").is_file() and package.name != "migrations":
            out[package.name] = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    return out


def test_the_map_names_every_server_package_and_only_those() -> None:
    assert set(_map()) == set(_tree())


def test_the_map_names_every_module_of_each_package() -> None:
    mapped, tree = _map(), _tree()
    wrong = {name: {"missing from the map": sorted(tree[name] - mapped.get(name, set())),
                    "not in the tree": sorted(mapped.get(name, set()) - tree[name])}
             for name in tree if mapped.get(name) != tree[name]}
    assert not wrong, wrong


def test_the_map_names_the_root_modules() -> None:
    text = DOC.read_text(encoding="utf-8").split("## The server's packages", 1)[1].split("\n## ", 1)[0]
    roots = {p.stem for p in SERVER.glob("*.py") if p.stem != "__init__"}
    assert roots and all(f"`{name}.py`" in text for name in roots)
