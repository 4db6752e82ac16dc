"""Series of games between bots: seat-rotated matches, win share against the 1/N baseline
with 95% intervals, mean scores, time per decision. Shared by ``ludoteca series``
and bench/bots_strength.py.

A lineup names one bot per seat ("entries"); fewer names than seats are padded with the
last one, so ``hard,greedy`` at four seats is one hard bot against three greedy ones.
Game ``i`` deals seed ``S + i // N`` and rotates the lineup by ``i % N`` seats, so in
every block of N games each entry plays the same deal from every seat: the seat
advantage and the luck of the deal cancel out.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ludoteca.engine import Game, Move

from .base import Bot, BotContext, Budget, make_bot
from .playout import play_match
from .sprt import UNDECIDED, Sprt, deal_means

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (fractional successes allowed: shared
    wins count as fractions). Better than the normal interval near 0 and 1."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # At p = 0 or 1 the bound is exact; rounding would otherwise leave it a hair off.
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return low, high


class TimedBot(Bot):
    """Wraps a bot to count its decisions and the time they take."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.decisions = 0
        self.seconds = 0.0

    def choose(self, ctx: BotContext) -> Move:
        started = time.perf_counter()
        move = self.bot.choose(ctx)
        self.seconds += time.perf_counter() - started
        self.decisions += 1
        return move


@dataclass
class Entry:
    """One place in the lineup and how it fared."""

    name: str
    shares: list[float] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    decisions: int = 0
    seconds: float = 0.0
    iterations: int = 0
    search_seconds: float = 0.0

    @property
    def win_share(self) -> float:
        return statistics.fmean(self.shares) if self.shares else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(sum(self.shares), len(self.shares))

    @property
    def mean_score(self) -> float:
        return statistics.fmean(self.scores) if self.scores else 0.0

    @property
    def score_interval(self) -> tuple[float, float]:
        if len(self.scores) < 2:
            return self.mean_score, self.mean_score
        half = Z95 * statistics.stdev(self.scores) / math.sqrt(len(self.scores))
        return self.mean_score - half, self.mean_score + half

    @property
    def ms_per_decision(self) -> float:
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0

    @property
    def iterations_per_second(self) -> float | None:
        return self.iterations / self.search_seconds if self.iterations and self.search_seconds else None

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        score_low, score_high = self.score_interval
        return {
            "bot": self.name,
            "games": len(self.shares),
            "wins": sum(self.shares),
            "win_share": self.win_share,
            "win_share_95": [low, high],
            "mean_score": self.mean_score,
            "mean_score_95": [score_low, score_high],
            "decisions": self.decisions,
            "ms_per_decision": self.ms_per_decision,
            "iterations_per_second": self.iterations_per_second,
        }


@dataclass
class SeriesResult:
    game: str
    players: int
    seed: int
    entries: list[Entry]
    moves: list[int] = field(default_factory=list)
    seconds: float = 0.0
    options: dict[str, Any] = field(default_factory=dict)
    sprt: Sprt | None = None

    @property
    def games(self) -> int:
        return len(self.moves)

    @property
    def baseline(self) -> float:
        return 1.0 / self.players

    @property
    def deals(self) -> list[float]:
        """The first entry's mean share per complete deal: the unit of the SPRT."""
        return deal_means(self.entries[0].shares, self.players) if self.entries else []

    @property
    def verdict(self) -> str | None:
        """The SPRT's verdict on the first entry, if the series ran one."""
        return self.sprt.verdict(self.deals, self.players) if self.sprt else None

    def sprt_json(self) -> dict[str, Any] | None:
        if self.sprt is None:
            return None
        return {"p0": self.sprt.p0, "p1": self.sprt.p1, "alpha": self.sprt.alpha, "beta": self.sprt.beta,
                "llr": self.sprt.llr(self.deals, self.players), "bounds": [self.sprt.lower, self.sprt.upper],
                "deals": len(self.deals), "verdict": self.verdict}

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "options": self.options,
            "baseline": self.baseline,
            "entries": [entry.to_json() for entry in self.entries],
            "moves_per_game": statistics.fmean(self.moves) if self.moves else 0.0,
            "seconds": self.seconds,
            "sprt": self.sprt_json(),
        }


OPENSPIEL_BOTS = ("openspiel-ismcts", "openspiel-mcts")
"""OpenSpiel's search bots, playing through ludoteca.rl (the ``rl`` extra)."""


def opponent(name: str) -> Bot:
    """A bot by name, OpenSpiel's included: their adapter is imported (and registers them)
    only when one is named, so the series works without the ``rl`` extra."""
    if name in OPENSPIEL_BOTS:
        try:
            import ludoteca.rl.bots  # noqa: F401 (registers the OpenSpiel bots)
        except ImportError as error:
            raise ValueError(f"{name} needs the rl extra: pip install 'ludoteca[rl]' ({error})") from None
    return make_bot(name)


def lineup(names: Sequence[str], players: int) -> list[str]:
    """One bot name per seat: ``names`` padded with its last name. Raises ValueError on
    an empty list or more names than seats."""
    names = [name.strip() for name in names if name.strip()]
    if not names:
        raise ValueError("name at least one bot")
    if len(names) > players:
        raise ValueError(f"{len(names)} bots for {players} players")
    return names + [names[-1]] * (players - len(names))


@dataclass
class GamePlayed:
    """One seat-rotated game of a series, per lineup entry (not per seat)."""

    index: int
    shares: list[float]
    scores: list[int]
    moves: int
    decisions: list[int]
    seconds: list[float]
    iterations: list[int]
    search_seconds: list[float]
    options: dict[str, Any] = field(default_factory=dict)
    ranks: list[int] = field(default_factory=list)
    """Per entry, its final rank (1 is best, ties share); empty in journals older than it."""

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GamePlayed:
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


def _search(bot: Bot) -> tuple[int, float]:
    stats = getattr(bot, "stats", None)
    return (stats.iterations, stats.seconds) if stats is not None else (0, 0.0)


def play_rotated(game: Game[Any], players: int, bots: Sequence[Bot], index: int, seed: int = 0,
                 options: Mapping[str, object] | None = None, budget: Budget | None = None) -> GamePlayed:
    """Game ``index`` of a series between ``bots`` (lineup order): the deal of seed
    ``seed + index // players``, the lineup rotated by ``index % players`` seats. Games
    are independent of each other, so they may be played in any order or in parallel."""
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots for {players} players")
    rotation = index % players
    seat_of = [(entry + rotation) % players for entry in range(players)]
    timed = [TimedBot(bot) for bot in bots]
    before = [_search(bot) for bot in bots]
    seated: list[Bot] = [timed[0]] * players
    for entry, seat in enumerate(seat_of):
        seated[seat] = timed[entry]
    match = play_match(game, players, options, seed + index // players, seated, budget)
    outcome = match.result()
    assert outcome is not None
    after = [_search(bot) for bot in bots]
    winners = outcome.winners
    return GamePlayed(
        index=index,
        shares=[1.0 / len(winners) if seat in winners else 0.0 for seat in seat_of],
        scores=[outcome.scores[seat] for seat in seat_of],
        moves=match.version,
        decisions=[bot.decisions for bot in timed],
        seconds=[bot.seconds for bot in timed],
        iterations=[a[0] - b[0] for a, b in zip(after, before, strict=True)],
        search_seconds=[a[1] - b[1] for a, b in zip(after, before, strict=True)],
        options=dict(match.options),
        ranks=[outcome.ranks[seat] for seat in seat_of],
    )


def summarize(game_id: str, players: int, names: Sequence[str], played: Sequence[GamePlayed], seed: int = 0,
              seconds: float = 0.0, sprt: Sprt | None = None) -> SeriesResult:
    """The series' figures from its games (in any order)."""
    entries = [Entry(name) for name in names]
    result = SeriesResult(game_id, players, seed, entries, seconds=seconds, sprt=sprt)
    for game in sorted(played, key=lambda g: g.index):
        result.options = dict(game.options)
        result.moves.append(game.moves)
        for i, entry in enumerate(entries):
            entry.shares.append(game.shares[i])
            entry.scores.append(game.scores[i])
            entry.decisions += game.decisions[i]
            entry.seconds += game.seconds[i]
            entry.iterations += game.iterations[i]
            entry.search_seconds += game.search_seconds[i]
    return result


def run_series(game: Game[Any], players: int, bots: Sequence[Bot], games: int, seed: int = 0,
               options: Mapping[str, object] | None = None, budget: Budget | None = None,
               on_game: Callable[[int, SeriesResult], None] | None = None,
               sprt: Sprt | None = None) -> SeriesResult:
    """Play ``games`` seat-rotated matches between ``bots`` (one per seat, in lineup
    order); ``budget`` caps every bot's thinking (see ISMCTSBot). With ``sprt``, ``games``
    is the most to play: the series stops at the first complete deal where the test
    decides about the first entry's win share."""
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots for {players} players")
    names = [bot.name for bot in bots]
    played: list[GamePlayed] = []
    started = time.perf_counter()
    for i in range(games):
        played.append(play_rotated(game, players, bots, i, seed, options, budget))
        so_far = summarize(game.id, players, names, played, seed, sprt=sprt)
        if on_game:
            on_game(i, so_far)
        if sprt is not None and (i + 1) % players == 0 and so_far.verdict != UNDECIDED:
            break
    return summarize(game.id, players, names, played, seed, time.perf_counter() - started, sprt)
