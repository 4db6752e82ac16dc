"""Every game package has the same layout (ludoteca.games.package), and an installed
wheel holds all of it: the server serves a game's rules, players' pages, board and
strings from the package alone, with no source checkout beside it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from ludoteca.games import load, package

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "ludoteca"
BUILT_IN = ("bloodrage", "crusaders", "hadrianswall", "iwari")
LANGS = ("en", "ja", "vi")


@pytest.mark.parametrize("game", BUILT_IN)
def test_a_built_in_game_has_every_part_in_its_package(game: str) -> None:
    assert package.packages(load(game)) == [f"ludoteca.games.{game}"]
    for parts in [package.RULES, package.BOARD, *[(package.HELP, f"{lang}.md") for lang in LANGS],
                  *[(package.I18N, f"{lang}.json") for lang in LANGS]]:
        assert package.resource(game, *parts) is not None, parts
    assert package.research_name(game) == f"ludoteca.games.{game}.research"
    # The numbered rules keep their documented address: docs/rules/<id>.md links to rules.md.
    docs = ROOT / "docs" / "rules" / f"{game}.md"
    assert docs.is_symlink() and not Path(os.readlink(docs)).is_absolute()
    assert docs.resolve() == (SRC / "games" / game / "rules.md").resolve()


def test_help_file_names_stay_inside_the_help_folder() -> None:
    assert package.help_file("iwari", "majority.svg") is not None
    for name in ("../rules.md", "..", "sub/en.md", ".hidden.md", "en", "__init__.py/x"):
        assert package.help_file("iwari", name) is None, name


def _wheel_files() -> list[Path]:
    """The files a wheel of this project holds under ludoteca/ (pyproject.toml: every
    package's modules, found as setuptools does, plus the package-data patterns)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["ludoteca"]
    files = {path for folder in [SRC, *SRC.rglob("*")]
             if folder.is_dir() and (folder / "__init__.py").is_file() and "__pycache__" not in folder.parts
             for path in folder.glob("*.py")}
    files |= {path for pattern in patterns for path in SRC.glob(pattern)
              if path.is_file() and "__pycache__" not in path.parts}
    return sorted(files)


SERVE = """
import json, sys
from fastapi.testclient import TestClient
import ludoteca
from ludoteca.server.app import create_app
from ludoteca.server.kernel.config import Settings

out = {"package": ludoteca.__file__}
with TestClient(create_app(Settings.from_env())) as http:
    for game in sys.argv[1:]:
        for path in [f"/api/games/{game}/rules", f"/games/{game}.js", f"/api/games/{game}/i18n/ja",
                     *[f"/rules/{game}/{lang}.md" for lang in ("en", "ja", "vi")]]:
            r = http.get(path)
            out[path] = [r.status_code, len(r.content)]
print(json.dumps(out))
"""


def test_a_wheel_install_serves_every_games_files_without_the_checkout(tmp_path: Path) -> None:
    site = tmp_path / "site"
    for path in _wheel_files():
        target = site / "ludoteca" / path.relative_to(SRC)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    # That copy first on the path (before the editable install's src/), run from a folder
    # with no checkout around it; the entry points are the installed distribution's.
    env = {**os.environ, "PYTHONPATH": str(site), "LUDOTECA_DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"}
    run = subprocess.run([sys.executable, "-c", SERVE, *BUILT_IN], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    served = json.loads(run.stdout.strip().splitlines()[-1])
    assert served.pop("package") == str(site / "ludoteca" / "__init__.py")
    for path, (status, size) in served.items():
        assert status == 200 and size > 0, path
