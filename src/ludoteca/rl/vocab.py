"""The fixed action vocabulary of a (game, seats, options).

A game's moves are small JSON objects; learning code wants integers. The vocabulary is
the finite, ordered list of every distinct small-step move the game can ever offer at
that seat count and with those options, enumerated from the game's component data (its
maps, cards, sheets, wheels), never from sampled play. Index ``i`` is ``moves[i]``.

The order is fixed and documented per game (docs/rl.md): move types in a fixed order,
then the component data in its data-file order. ``digest`` (a hash of the keys) tells a
saved policy whether it was trained on the same vocabulary; ``FORMAT`` changes only if
this scheme itself changes.

Some move fields are sets written as lists (Iwari's ``pay`` cards): their order in a
legal move follows the hand, so a move's key sorts them. ``resolve`` turns an index back
into the legal move the engine expects (with the hand's order).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

import numpy as np

from ludoteca.engine import Move, OptionValue, canonical, validate_options
from ludoteca.games import UnknownGame, available, load, package

FORMAT = 1


def games() -> tuple[str, ...]:
    """The games with a research encoding: every game this installation can play (entry
    point or ``register``) whose package has a ``research`` module, sorted."""
    return tuple(game_id for game_id in available() if package.research_name(game_id) is not None)


def __getattr__(name: str) -> Any:
    # ``GAMES``, the older name, is computed when read: a game registered later counts.
    if name == "GAMES":
        return games()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def game_module(game_id: str) -> Any:
    """The game's research module (``research.py`` in its package, see
    ludoteca.games.package): its actions and its encoder."""
    try:
        module = package.research_module(game_id)
    except UnknownGame:
        module = None
    if module is None:
        raise ValueError(f"no RL adapter for {game_id!r}; games: {', '.join(games())}")
    return module


def data_fingerprint(game_id: str) -> str:
    """A hash of the game's component data files: the vocabularies of one data version are
    pinned in the tests, so a data change that renumbers actions is seen."""
    digest = hashlib.sha256()
    folder = package.folder(game_id, "data")
    entries = [] if folder is None else folder.iterdir()
    for entry in sorted(entries, key=lambda e: e.name):
        if entry.is_file():
            digest.update(entry.name.encode() + b"\0" + entry.read_bytes())
    return digest.hexdigest()[:12]


def full_options(game_id: str, seats: int, options: Mapping[str, object] | None) -> dict[str, OptionValue]:
    """``options`` checked against the game's declaration, defaults filled in (raises
    OptionError / SetupError like ``Game.setup``)."""
    game = load(game_id)
    game.setup(seats, options, 0)  # checks the seat count and the options the engine's way
    return validate_options(game.options, seats, options)


def _value(value: Any, unordered: bool) -> Any:
    if isinstance(value, bool):
        return ("bool", value)  # True == 1 in a tuple; JSON tells them apart
    if isinstance(value, list):
        items = tuple(_value(v, False) for v in value)
        return ("list", tuple(sorted(items, key=repr)) if unordered else items)
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, _value(v, False)) for k, v in value.items())))
    return value


class Vocabulary:
    """Every distinct move of a (game, seats, options), with move <-> index maps.

    ``keys`` are canonical JSON texts (documented, hashed into ``digest``); lookups go
    through an equivalent tuple key, several times cheaper than JSON on the hot path of
    a search (every legal move of every position)."""

    def __init__(self, game_id: str, seats: int, options: Mapping[str, OptionValue], moves: Iterable[Move],
                 unordered: frozenset[str] = frozenset()) -> None:
        self.game_id = game_id
        self.seats = seats
        self.options = dict(options)
        self.unordered = unordered
        keys: list[str] = []
        kept: list[Move] = []
        index: dict[str, int] = {}
        fast: dict[Any, int] = {}
        for move in moves:
            key = self.key(move)
            if key not in index:
                index[key] = len(keys)
                fast[self.fast_key(move)] = len(keys)
                keys.append(key)
                kept.append(move)
        if len(fast) != len(index):
            raise ValueError(f"{game_id}: two moves share a lookup key")
        self.keys: tuple[str, ...] = tuple(keys)
        self.moves: tuple[Move, ...] = tuple(kept)
        self.index: dict[str, int] = index
        self.fast: dict[Any, int] = fast
        self.digest = hashlib.sha256("\n".join(keys).encode()).hexdigest()[:16]

    def __len__(self) -> int:
        return len(self.keys)

    def key(self, move: Mapping[str, Any]) -> str:
        """The canonical text of a move, set-like list fields sorted."""
        if self.unordered and any(field in move for field in self.unordered):
            move = {k: sorted(v) if k in self.unordered and isinstance(v, list) else v for k, v in move.items()}
        return canonical(move)

    def fast_key(self, move: Mapping[str, Any]) -> Any:
        """A hashable key equal for two moves exactly when their ``key`` texts are."""
        unordered = self.unordered
        return tuple(sorted((k, _value(v, k in unordered)) for k, v in move.items()))

    def index_of(self, move: Mapping[str, Any]) -> int:
        """The index of a move; ValueError if the game can never offer it."""
        try:
            return self.fast[self.fast_key(move)]
        except (KeyError, TypeError):
            raise ValueError(f"{self.game_id}: {canonical(move)} is not in the action vocabulary") from None

    def move(self, index: int) -> Move:
        """The vocabulary's move at ``index`` (set-like lists sorted)."""
        if isinstance(index, bool) or not 0 <= int(index) < len(self.keys):
            raise ValueError(f"{self.game_id}: no action {index!r} (0..{len(self.keys) - 1})")
        return dict(self.moves[int(index)])

    def legal_indices(self, legal: Sequence[Move]) -> list[int]:
        """The sorted indices of the legal moves."""
        return sorted(self.index_of(move) for move in legal)

    def mask(self, legal: Sequence[Move]) -> np.ndarray:
        """1 where the action is legal, else 0 (int8, one entry per action)."""
        out = np.zeros(len(self.keys), dtype=np.int8)
        for move in legal:
            out[self.index_of(move)] = 1
        return out

    def resolve(self, index: int, legal: Sequence[Move]) -> Move:
        """The legal move with this index, exactly as the engine listed it; ValueError if
        that action is not legal now."""
        self.move(index)  # range check with a clear message
        wanted = int(index)
        fast = self.fast
        for move in legal:
            if fast.get(self.fast_key(move)) == wanted:
                return move
        raise ValueError(f"{self.game_id}: action {index} ({self.keys[wanted]}) is not legal now")

    def describe(self) -> dict[str, Any]:
        return {"game": self.game_id, "seats": self.seats, "options": self.options, "actions": len(self.keys),
                "format": FORMAT, "digest": self.digest}


@cache
def _vocabulary(game_id: str, seats: int, options_key: str) -> Vocabulary:
    import json

    options: dict[str, OptionValue] = json.loads(options_key)
    module = game_module(game_id)
    return Vocabulary(game_id, seats, options, module.actions(seats, options), module.UNORDERED)


def vocabulary(game_id: str, seats: int, options: Mapping[str, object] | None = None) -> Vocabulary:
    """The action vocabulary of a game at a seat count with options (defaults filled in)."""
    game_module(game_id)  # an unknown game fails here, naming the ones there are
    full = full_options(game_id, seats, options)
    return _vocabulary(game_id, seats, canonical(full))
