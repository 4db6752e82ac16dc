"""The game registry. Games are found through the entry-point group ``ludoteca.games``
(the built-in games included), so a separately installed package can add one."""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points
from typing import Any

from ludoteca.engine import Game, LudotecaError

GROUP = "ludoteca.games"

_registered: dict[str, Game[Any]] = {}


class UnknownGame(LudotecaError):
    pass


@cache
def _entry_points() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def register(game: Game[Any]) -> None:
    """Add a game in this process only (tests, notebooks); installed games use entry points."""
    _registered[game.id] = game


def registered() -> list[Game[Any]]:
    """The games added with ``register`` (not through entry points), for another process
    (a bot's thinking process) to register too."""
    return list(_registered.values())


def unregister(game_id: str) -> None:
    _registered.pop(game_id, None)


def available() -> list[str]:
    """The ids of every game this installation can play, sorted."""
    return sorted(set(_entry_points()) | set(_registered))


@cache
def _load_entry_point(game_id: str) -> Game[Any]:
    loaded = _entry_points()[game_id].load()
    game = loaded() if isinstance(loaded, type) else loaded
    if not isinstance(game, Game) or game.id != game_id:
        raise TypeError(f"entry point {game_id!r} does not give a Game with that id")
    return game


def load(game_id: str) -> Game[Any]:
    """The game with this id; UnknownGame names the ones there are."""
    if game_id in _registered:
        return _registered[game_id]
    if game_id not in _entry_points():
        raise UnknownGame("unknown_game", f"no game {game_id!r}; available: {', '.join(available()) or 'none'}")
    return _load_entry_point(game_id)
