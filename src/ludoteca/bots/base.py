"""The Bot interface.

A bot is handed a ``BotContext``: its seat's view, its legal moves, a seeded generator
and a budget. It never sees the true state. Search bots that need whole states ask the
context for ``sample()``: the game's ``determinize`` of the true state for that seat,
which resamples everything the seat cannot see.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ludoteca.engine import Game, Move, Rng, Seat


@dataclass(frozen=True)
class Budget:
    """How long a bot may think: a number of iterations, seconds, or both (first reached)."""

    iterations: int | None = None
    seconds: float | None = None

    def deadline(self) -> float | None:
        return None if self.seconds is None else time.perf_counter() + self.seconds


class BotContext:
    """What a seat knows when it must decide."""

    __slots__ = ("_state", "_view", "budget", "game", "legal", "rng", "seat")

    def __init__(self, game: Game[Any], state: Any, seat: Seat, rng: Rng, budget: Budget | None = None,
                 legal: list[Move] | None = None) -> None:
        self.game = game
        self.seat = seat
        self.rng = rng
        self.budget = budget or Budget()
        self.legal = legal if legal is not None else game.legal(state, seat)
        self._state = state
        self._view: dict[str, Any] | None = None

    @property
    def view(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self.game.view(self._state, self.seat)
        return self._view

    def sample(self) -> Any:
        """A full state consistent with this seat's view, hidden parts resampled."""
        return self.game.determinize(self._state, self.seat, self.rng)


class Bot(ABC):
    """A player. ``choose`` returns one of ``ctx.legal``."""

    name: str = "bot"

    @abstractmethod
    def choose(self, ctx: BotContext) -> Move:
        ...


_factories: dict[str, Callable[[], Bot]] = {}
_seatable: set[str] = set()


def register_bot(name: str, factory: Callable[[], Bot], seatable: bool = True) -> None:
    """``seatable=False`` keeps a bot out of the server's seats (a research adapter's bot,
    registered only when its module is imported, is for the series alone)."""
    _factories[name] = factory
    if seatable:
        _seatable.add(name)
    else:
        _seatable.discard(name)


def bot_names() -> list[str]:
    return sorted(_factories)


def seatable_bot_names() -> list[str]:
    """The bots a table's seat may take: the same list whatever else this process imported."""
    return sorted(_seatable)


def make_bot(name: str) -> Bot:
    """A bot by name (``random``, and the search bots and levels once registered)."""
    try:
        return _factories[name]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; available: {', '.join(bot_names())}") from None
