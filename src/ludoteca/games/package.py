"""Where a game package keeps its parts: one fixed layout, found by convention.

A game is one Python package (``ludoteca.games.<id>`` for the built-in games, any
importable package for a game installed on its own). Beside its code it ships, as
package resources read through importlib.resources (so a checkout, a wheel and a
third-party distribution are served the same way)::

    rules.md              the numbered rules (docs/rules/<id>.md links here)
    research.py           the research encoding (ludoteca.rl): UNORDERED, actions, Observation
    web/board.js          the board module, served at /games/<id>.js
    web/board.css         its style sheet, when it has one, served at /games/<id>.css
    help/<lang>.md        the players' rules in each language, with their pictures
    i18n/<lang>.json      prompts, log lines, card texts

Every part but the game class is optional: the platform offers what it finds.

``research.py`` gives ``UNORDERED`` (set-like move fields), ``actions(seats, options)``
(the action vocabulary, enumerated from component data), ``Observation`` (the view
encoder, a ludoteca.rl.observation.Encoder, with its documented layout) and
``setup_of(view)`` (the seat count and options a view was dealt with) and, for a game
one seat may play, ``SOLO_SCALE`` (the solo score worth a reward of +1); its docstring's
second paragraph on is the action order docs/rl.md prints. It is the one module of a
game that may import ludoteca.rl (and numpy): nothing imports it but the research
adapters, found through ``research_module``.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from importlib.resources import files
from importlib.resources.abc import Traversable
from types import ModuleType
from typing import Any

from ludoteca.engine.registry import load

RULES = ("rules.md",)
BOARD = ("web", "board.js")
BOARD_CSS = ("web", "board.css")
HELP = "help"
I18N = "i18n"
RESEARCH = "research"

_NOT_A_GAME = ("ludoteca", "ludoteca.games")
"""The platform's packages: a game's class may sit in them, its files never do."""
_FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9]+)+")
"""A single file name, no folder and no ``..``: what a request may name inside help/."""


def packages(game: Any) -> list[str]:
    """The packages the game's class lives in, innermost first, the platform's own left
    out (``ludoteca.games.iwari`` for a class defined in ``ludoteca.games.iwari`` or in
    one of its modules)."""
    module_name = type(game).__module__
    module = sys.modules.get(module_name) or importlib.import_module(module_name)
    name = module.__name__ if hasattr(module, "__path__") else (module.__package__ or "")
    out = []
    while name and name not in _NOT_A_GAME:
        out.append(name)
        name = name.rpartition(".")[0]
    return out


def resource(game_id: str, *parts: str) -> Traversable | None:
    """The file ``parts`` of the game's package (the innermost package of its class that
    has it), or None. Raises UnknownGame for a game this installation lacks."""
    for package in packages(load(game_id)):
        try:
            found = files(package).joinpath(*parts)
        except (ModuleNotFoundError, TypeError):
            continue
        if found.is_file():
            return found
    return None


def folder(game_id: str, *parts: str) -> Traversable | None:
    """The folder ``parts`` of the game's package (``data``, ``help``), or None."""
    for package in packages(load(game_id)):
        try:
            found = files(package).joinpath(*parts)
        except (ModuleNotFoundError, TypeError):
            continue
        if found.is_dir():
            return found
    return None


def help_file(game_id: str, name: str) -> Traversable | None:
    """A file of the game's players' rules (``en.md``, a picture), or None; a name that
    is not one plain file name is never looked up."""
    if not _FILE_NAME.fullmatch(name):
        return None
    return resource(game_id, HELP, name)


def research_name(game_id: str) -> str | None:
    """The name of the game's research module (``<package>.research``), found without
    importing it, or None when the game has none. Raises UnknownGame for a game this
    installation lacks."""
    for package in packages(load(game_id)):
        name = f"{package}.{RESEARCH}"
        if importlib.util.find_spec(name) is not None:
            return name
    return None


def research_module(game_id: str) -> ModuleType | None:
    """The game's research encoding, imported (it needs the ``rl`` extra), or None."""
    name = research_name(game_id)
    return None if name is None else importlib.import_module(name)
