"""Levels for players (easy, normal, hard), mapped to bots and budgets, and the named
bots the CLI, the server's seats and the series accept.

Seconds budgets make a level feel the same on every game; they are capped by any budget
the caller imposes (a seat's clock, ``--seconds`` in the series). Names with a fixed
number of iterations (``ismcts``, ``ismcts-200``) play reproducibly for a given seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .base import Bot, Budget, register_bot
from .greedy import GreedyBot
from .ismcts import ISMCTSBot


@dataclass(frozen=True)
class Level:
    name: str
    description: str
    factory: Callable[[], Bot]


LEVELS: tuple[Level, ...] = (
    Level("easy", "Greedy: the best-looking move of its own turn, no planning.",
          lambda: GreedyBot(samples=2, name="easy")),
    Level("normal", "Search: ISMCTS for 0.3 s per decision.",
          lambda: ISMCTSBot(Budget(iterations=20_000, seconds=0.3), name="normal")),
    Level("hard", "Search: ISMCTS for 1 s per decision.",
          lambda: ISMCTSBot(Budget(seconds=1.0), name="hard")),
)
"""The levels offered to players, weakest first."""

NAMED: tuple[tuple[str, Callable[[], Bot]], ...] = (
    ("greedy", GreedyBot),
    ("ismcts", lambda: ISMCTSBot(Budget(iterations=1000))),
    ("ismcts-200", lambda: ISMCTSBot(Budget(iterations=200), name="ismcts-200")),
    ("ismcts-5000", lambda: ISMCTSBot(Budget(iterations=5000), name="ismcts-5000")),
)
"""Bots by algorithm and fixed budget, for tests and benchmarks."""


def level_names() -> list[str]:
    return [level.name for level in LEVELS]


for _level in LEVELS:
    register_bot(_level.name, _level.factory)
for _name, _factory in NAMED:
    register_bot(_name, _factory)
