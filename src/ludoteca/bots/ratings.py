"""The levels' ratings: each bot level rated against the others, per game, with the
rating system people have (openskill's Plackett-Luce; the shown figure is the same
conservative ordinal, mu - 3 sigma). bench/bot_levels.py plays the bot-only games and
writes each game's ratings into its own package (``level_ratings.json`` beside its
``rules.md``, found as every part of a game is: ``ludoteca.games.package``); the server
shows the figures where a player picks a bot.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ludoteca.games import UnknownGame, available, package

RATINGS_FILE = "level_ratings.json"
"""In a game's package: ``{"_provenance": ..., "levels": [LevelRating.to_json(), ...]}``."""

# -- the display scale: how a rating is shown to people (docs/web.md, "Ratings") ------------

DISPLAY_SCALE = 60.0
"""Display rating = 60 x mu: openskill's starting mu 25 shows as 1500 and its starting
sigma 25/3 as a deviation of 500, which is exactly where lichess starts a player
(1500, RD 500), so the numbers read as players expect."""
PROVISIONAL_SIGMA = 6.0
"""A rating is provisional (shown with "?") while sigma is above this: a deviation of
360 on the display scale, reached after about 10 rated games at 3 seats, 12 at 2."""


def display_rating(mu: float) -> int:
    """The rounded figure people see: the best estimate (mu) on the display scale."""
    return round(DISPLAY_SCALE * mu)


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def shown(mu: float, sigma: float) -> dict[str, Any]:
    """The display fields every answer that carries a rating has: ``rating`` (an integer
    on the display scale) and ``provisional``."""
    return {"rating": display_rating(mu), "provisional": is_provisional(sigma)}


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
def game_level_ratings(game_id: str) -> dict[str, dict[str, Any]]:
    """Per level, the rating published in the game's package ({} where none was measured,
    or for a game this installation lacks)."""
    try:
        source = package.resource(game_id, RATINGS_FILE)
    except UnknownGame:
        return {}
    if source is None:
        return {}
    data = json.loads(source.read_text(encoding="utf-8"))
    return {entry["level"]: entry for entry in data["levels"]}


def level_ratings() -> dict[str, dict[str, Any]]:
    """Per game id, per level, the published rating, for every game that has some."""
    return {game_id: levels for game_id in available() if (levels := game_level_ratings(game_id))}


def bot_levels(game_id: str) -> list[dict[str, Any]]:
    """The levels a player may seat, weakest first ("random" and the named levels), with
    the rating measured for this game where there is one, on the display scale people's
    ratings have (else ``rating`` is None), and whether it is still provisional."""
    from .levels import level_names

    measured = game_level_ratings(game_id)
    out: list[dict[str, Any]] = []
    for level in ["random", *level_names()]:
        entry = measured.get(level)
        out.append({"level": level, **(shown(entry["mu"], entry["sigma"]) if entry else
                                       {"rating": None, "provisional": True}),
                    "games": entry["games"] if entry else 0})
    return out


DEFAULT_ZOMBIE_LEVEL = "easy"
"""The level that plays for a player with no rating in the game (a guest, a first
game, a game whose levels were never measured): the greedy bot, cheap and sensible."""


def zombie_level(game_id: str, mu: float | None) -> str:
    """The level whose measured mu is nearest ``mu`` (a player's rating in ``game_id``),
    among the levels offered to players ("random" is no level: it only plays where a
    table names it). Ties go to the weaker level, listed first. No rating, or no
    measured level: ``DEFAULT_ZOMBIE_LEVEL``. Pure and deterministic."""
    from .levels import level_names

    measured = game_level_ratings(game_id)
    candidates = [(abs(measured[level]["mu"] - mu), index, level)
                  for index, level in enumerate(level_names()) if mu is not None and level in measured]
    return min(candidates)[2] if candidates else DEFAULT_ZOMBIE_LEVEL
