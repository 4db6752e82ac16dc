"""A game's texts for the browser: its i18n strings and its rules.

Both are read from wherever the game is installed, never from a copy kept by the server:

- strings: ``i18n/<lang>.json`` in the game's own package, through importlib.resources,
  so a game installed as a separate package serves its strings the same way;
- rules: the game package's own ``rules.md`` when it ships one (how a separately
  installed game brings its rules), else ``docs/rules/<id>.md``, the canonical place for
  the built-in games, looked up in ``LUDOTECA_RULES_DIR`` when set, else in the source
  checkout the server runs from. docs/ is not package data and nothing copies it into
  the package, so there is one file per game and nothing that can drift; a server
  installed from a wheel without a checkout answers 404 ``no_rules`` unless
  ``LUDOTECA_RULES_DIR`` points at a docs/rules folder.
"""

from __future__ import annotations

import importlib
import json
import sys
from functools import lru_cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from ludoteca.engine import LudotecaError
from ludoteca.games import load

from .errors import ApiError

LANGUAGES = ("en", "ja", "vi")
CHECKOUT_RULES = Path(__file__).resolve().parents[3] / "docs" / "rules"
"""docs/rules of the source checkout (src/ludoteca/server/content.py -> the repo root)."""


def _game(game_id: str) -> Any:
    try:
        return load(game_id)
    except LudotecaError:
        raise ApiError(404, "no_game", f"no game {game_id!r} on this server") from None


def _packages(game: Any) -> list[str]:
    """The packages the game's class lives in, innermost first (``ludoteca.games.iwari``
    for a class defined in ``ludoteca.games.iwari`` or in one of its modules)."""
    module = sys.modules.get(type(game).__module__) or importlib.import_module(type(game).__module__)
    name = module.__name__ if hasattr(module, "__path__") else (module.__package__ or "")
    out = []
    while name:
        out.append(name)
        name = name.rpartition(".")[0]
    return out


def _resource(game: Any, *parts: str) -> Traversable | None:
    """The first package of the game (innermost first) holding ``parts``; ``ludoteca``
    and its registry package ``ludoteca.games`` are not a game's own."""
    for package in _packages(game):
        if package in ("ludoteca", "ludoteca.games"):
            break
        try:
            found = files(package).joinpath(*parts)
        except (ModuleNotFoundError, TypeError):
            continue
        if found.is_file():
            return found
    return None


@lru_cache(maxsize=64)
def _strings_text(game_id: str, lang: str) -> str | None:
    found = _resource(load(game_id), "i18n", f"{lang}.json")
    return None if found is None else found.read_text(encoding="utf-8")


def strings(game_id: str, lang: str) -> dict[str, Any]:
    """The game's strings in ``lang``, as the package's JSON file has them."""
    _game(game_id)
    if lang not in LANGUAGES:
        raise ApiError(404, "no_language", f"no language {lang!r}; languages: {', '.join(LANGUAGES)}")
    text = _strings_text(game_id, lang)
    if text is None:
        raise ApiError(404, "no_strings", f"the game {game_id!r} has no {lang!r} strings")
    return json.loads(text)


def rules(game_id: str, rules_dir: str | None = None) -> str:
    """The game's rules as Markdown."""
    game = _game(game_id)
    packaged = _resource(game, "rules.md")
    if packaged is not None:
        return packaged.read_text(encoding="utf-8")
    folder = Path(rules_dir) if rules_dir else CHECKOUT_RULES
    path = folder / f"{game_id}.md"
    if path.is_file():
        return path.read_text(encoding="utf-8")
    raise ApiError(404, "no_rules", f"the rules of {game_id!r} are not installed on this server "
                                    "(docs/rules is read from the source checkout or LUDOTECA_RULES_DIR)")
