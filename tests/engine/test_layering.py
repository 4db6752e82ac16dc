"""docs/architecture.md: dependencies point down; the engine imports nothing of games/, bots/
or server/ (the games registry sits beside the engine)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import ludoteca.engine

ENGINE = Path(ludoteca.engine.__file__).parent


def _imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_engine_modules_import_only_the_engine_of_ludoteca() -> None:
    above = {
        f"{path.name}: {name}"
        for path in ENGINE.glob("*.py")
        for name in _imported_modules(path)
        if name.startswith("ludoteca") and not name.startswith("ludoteca.engine")
    }
    assert above == set()


def test_importing_the_engine_and_playing_a_match_loads_no_layer_above_it() -> None:
    # Loading a game through the registry imports that game's package, which is below
    # nothing; bots and the server must stay out.
    code = (
        "import sys\n"
        "from ludoteca.engine import Match\n"
        "m = Match.new('iwari', 3, seed=1)\n"
        "s = m.pending()[0]\nm.play(s, m.legal(s)[0])\n"
        "print(sorted(n for n in sys.modules if n.startswith(('ludoteca.bots', 'ludoteca.server', 'ludoteca.cli'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_games_package_offers_the_engine_registry() -> None:
    import ludoteca.engine.registry as registry
    import ludoteca.games as games

    assert games.load is registry.load
    assert games.available() == registry.available()


def test_the_server_never_imports_the_test_harness() -> None:
    """ludoteca.testing (a server started and waited for, free ports) is for the tests,
    the benchmarks and the tools; the app itself does not lean on it."""
    code = (
        "import sys\n"
        "from ludoteca.server.app import create_app\n"
        "from ludoteca.server.main import run\n"
        "print(sorted(n for n in sys.modules if n.startswith('ludoteca.testing')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
