"""Arena (after lichess): for a fixed window of time, a player who is free is paired
again at once. The free players are sorted by rating and taken a full table at a time
from the top (rating-near first); a table that would replay a player's last game (the
same opponents again) is not made when another order of the free players avoids it:
the candidate is swapped with the next free player. Players left over wait for the
next free ones.

Points are by rank (the organiser's list), plus the streak bonus: after two wins in a
row (sole first place), a player's points are doubled until a game that is not a win.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .core import Played, lot

STREAK = 2
"""Wins in a row after which points double."""


@dataclass(frozen=True, slots=True)
class Free:
    player: int
    rating: float
    last: frozenset[int] = frozenset()
    """The opponents of this player's last game (empty: none yet)."""


def pair_free(free: Sequence[Free], seats: int, seed: int, allow_rematch: bool = False) -> list[tuple[int, ...]]:
    """Tables of ``seats`` for the free players (the rest wait). ``allow_rematch``: the
    arena has no one else who could come (as many players as seats)."""
    pool = sorted(free, key=lambda f: (-f.rating, lot(seed, f.player)))
    tables: list[tuple[int, ...]] = []
    while len(pool) >= seats:
        table: list[Free] = []
        i = 0
        while len(table) < seats and i < len(pool):
            candidate = pool[i]
            if allow_rematch or not _rematch([*table, candidate], seats):
                table.append(candidate)
            i += 1
        if len(table) < seats:
            # The top player cannot be seated without a rematch now: they wait.
            pool.pop(0)
            continue
        for f in table:
            pool.remove(f)
        tables.append(tuple(f.player for f in table))
    return tables


def _rematch(table: Sequence[Free], seats: int) -> bool:
    """Would this (possibly partial) table repeat someone's last game exactly?"""
    ids = {f.player for f in table}
    return any(f.last and len(f.last) == seats - 1 and f.last <= ids for f in table)


def streak_bonus(games: Sequence[Played]) -> dict[int, float]:
    """The extra points of the streaks, ``games`` in the order they ended."""
    run: dict[int, int] = {}
    bonus: dict[int, float] = {}
    for g in games:
        for pid, rank, pts in zip(g.players, g.ranks, g.points, strict=True):
            if run.get(pid, 0) >= STREAK:
                bonus[pid] = bonus.get(pid, 0.0) + pts
            won = rank == 1 and sum(1 for r in g.ranks if r == 1) == 1
            run[pid] = run.get(pid, 0) + 1 if won else 0
    return bonus


def on_fire(games: Sequence[Played]) -> Mapping[int, bool]:
    """Whether each player's next game counts double."""
    run: dict[int, int] = {}
    for g in games:
        for pid, rank in zip(g.players, g.ranks, strict=True):
            won = rank == 1 and sum(1 for r in g.ranks if r == 1) == 1
            run[pid] = run.get(pid, 0) + 1 if won else 0
    return {p: n >= STREAK for p, n in run.items()}
