"""docs/architecture.md: dependencies point down; the engine imports nothing of games/, bots/
or server/ (the games registry sits beside the engine); a game imports the engine, and of
the layers above it only the interfaces meant for it: the bots' hook helpers
(``ludoteca.bots.hooks``) and, in its research module, the research encoders
(``ludoteca.rl.observation``)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import ludoteca.engine
import ludoteca.games

ENGINE = Path(ludoteca.engine.__file__).parent
GAMES = Path(ludoteca.games.__file__).parent


def _imported_modules(path: Path, package: str = "") -> set[str]:
    """Every module ``path`` imports, wherever the import is, with relative imports resolved
    against ``package`` (the module's own package) and ``from a import b`` counted as both
    ``a`` and ``a.b`` (``b`` may be a module)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = node.module or ""
            elif package:
                parts = package.split(".")
                parent = ".".join(parts[:len(parts) - (node.level - 1)])
                base = f"{parent}.{node.module}" if node.module else parent
            else:
                continue
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
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


GAME_MAY_IMPORT = ("ludoteca.bots.hooks",)
"""Of the bots, a game module may import the hook helpers only: the bots compose everything
else they do with a game (a greedy prior, say) from what its hooks declare."""
RESEARCH_MAY_IMPORT = ("ludoteca.rl.observation",)
"""Of the research adapters, a game's research module may import the encoders only."""


def _not_allowed(name: str, module: str) -> bool:
    """Whether a game's ``module`` may not import ``name``: anything of ludoteca beside the
    engine and the games, but the interfaces meant for games."""
    if not name.startswith("ludoteca.") or name.startswith(("ludoteca.engine", "ludoteca.games")):
        return False
    allowed = GAME_MAY_IMPORT + (RESEARCH_MAY_IMPORT if module.endswith(".research") else ())
    return not any(name == ok or name.startswith(ok + ".") for ok in allowed)


def game_imports_above(root: Path, package: str) -> set[str]:
    """``module: import`` for every import of a layer above the games by the modules under
    ``root`` (the folder of ``package``), except the interfaces a game may use."""
    out = set()
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        module = ".".join([package, *parts])
        own = ".".join([package, *parts[:-1]])  # the package relative imports start from
        out |= {f"{module}: {name}" for name in _imported_modules(path, own) if _not_allowed(name, module)}
    return out


def test_games_import_of_the_layers_above_only_the_interfaces_meant_for_them() -> None:
    assert game_imports_above(GAMES, "ludoteca.games") == set()


def test_a_game_importing_a_bot_fails_the_layering(tmp_path: Path) -> None:
    # The negative control of the test above: each way of reaching past the hook helpers.
    game = tmp_path / "somegame"
    game.mkdir()
    (game / "ai.py").write_text("from ludoteca.bots.greedy import greedy_prior\n", encoding="utf-8")
    (game / "rules.py").write_text("from ... import bots\n", encoding="utf-8")
    (game / "views.py").write_text("import ludoteca.bots\n", encoding="utf-8")
    (game / "scoring.py").write_text("from ludoteca.rl.observation import Encoder\n", encoding="utf-8")
    (game / "research.py").write_text("from ludoteca.rl.observation import Encoder\n"
                                      "from ludoteca.bots.hooks import estimate_from_points\n", encoding="utf-8")
    found = game_imports_above(tmp_path, "ludoteca.games")
    assert found == {"ludoteca.games.somegame.ai: ludoteca.bots.greedy",
                     "ludoteca.games.somegame.ai: ludoteca.bots.greedy.greedy_prior",
                     "ludoteca.games.somegame.rules: ludoteca.bots",
                     "ludoteca.games.somegame.views: ludoteca.bots",
                     "ludoteca.games.somegame.scoring: ludoteca.rl.observation",
                     "ludoteca.games.somegame.scoring: ludoteca.rl.observation.Encoder"}


def test_the_bots_and_the_research_adapters_name_no_game() -> None:
    """They reach a game through the registry and its package's hooks, never by importing
    it: a game's knowledge (review budgets, a solo reward's scale, level ratings) is in it."""
    root = GAMES.parent
    games = {p.name for p in GAMES.iterdir() if (p / "__init__.py").is_file()}
    found = {f"{layer}/{path.name}: {name}"
             for layer in ("bots", "rl") for path in (root / layer).rglob("*.py")
             for name in _imported_modules(path, f"ludoteca.{layer}")
             if name.split(".")[:2] == ["ludoteca", "games"] and len(name.split(".")) > 2
             and name.split(".")[2] in games}
    assert found == set()

