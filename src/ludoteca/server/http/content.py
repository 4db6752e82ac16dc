"""A game's texts for the browser: its i18n strings and its numbered rules.

Both are read from the game's own package through importlib.resources
(ludoteca.games.package: ``i18n/<lang>.json`` and ``rules.md``), never from a copy kept
by the server or from the source checkout, so a server installed from a wheel and a game
installed as a separate package serve them the same way. (docs/rules/<id>.md is a link to
the built-in game's rules.md, for readers of the repository.)
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ludoteca.engine import LudotecaError
from ludoteca.games import load, package
from ludoteca.server.kernel.errors import ApiError

LANGUAGES = ("en", "ja", "vi")


def _game(game_id: str) -> Any:
    try:
        return load(game_id)
    except LudotecaError:
        raise ApiError(404, "no_game", f"no game {game_id!r} on this server") from None


@lru_cache(maxsize=64)
def _strings_text(game_id: str, lang: str) -> str | None:
    found = package.resource(game_id, package.I18N, f"{lang}.json")
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


def rules(game_id: str) -> str:
    """The game's numbered rules as Markdown (``rules.md`` in its package)."""
    _game(game_id)
    found = package.resource(game_id, *package.RULES)
    if found is None:
        raise ApiError(404, "no_rules", f"the game {game_id!r} ships no rules (rules.md in its package)")
    return found.read_text(encoding="utf-8")
