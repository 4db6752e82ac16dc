"""The levels' ratings: each bot level rated against the others, per game, with the
rating system people have (openskill's Plackett-Luce; the shown figure is the same
conservative ordinal, mu - 3 sigma). bench/bot_levels.py plays the bot-only games and
writes data/level_ratings.json; the server shows the figures where a player picks a bot.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

RATINGS_FILE = "level_ratings.json"


@dataclass(frozen=True)
class LevelRating:
    level: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "mu": round(self.mu, 3), "sigma": round(self.sigma, 3),
                "rating": round(self.ordinal, 1), "games": self.games}


def rate(levels: Sequence[str], games: Iterable[tuple[Sequence[str], Sequence[int]]]) -> list[LevelRating]:
    """Ratings of ``levels`` after ``games``, each (the level at each seat, the seat's
    rank), in order, as openskill updates people's ratings after each table."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {level: model.rating(name=level) for level in levels}
    played = dict.fromkeys(levels, 0)
    for seated, ranks in games:
        teams = model.rate([[ratings[level]] for level in seated], ranks=[float(rank) for rank in ranks])
        for level, team in zip(seated, teams, strict=True):
            ratings[level] = team[0]
            played[level] += 1
    return [LevelRating(level, ratings[level].mu, ratings[level].sigma, played[level]) for level in levels]


@cache
def level_ratings() -> dict[str, dict[str, Any]]:
    """Per game id, per level, the published rating ({} where none was measured)."""
    source = files("ludoteca.bots").joinpath("data", RATINGS_FILE)
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {game: {entry["level"]: entry for entry in entries} for game, entries in data["games"].items()}


def bot_levels(game_id: str) -> list[dict[str, Any]]:
    """The levels a player may seat, weakest first ("random" and the named levels), with
    the rating measured for this game where there is one (else ``rating`` is None)."""
    from .levels import level_names

    measured = level_ratings().get(game_id, {})
    return [{"level": level, "rating": measured[level]["rating"] if level in measured else None,
             "games": measured[level]["games"] if level in measured else 0}
            for level in ["random", *level_names()]]
