"""What every format shares: players, played games and byes, points by rank, and the
standings with their tie-breaks. Pure: no I/O, no clock, no global random generator;
the same inputs give the same answers in any process."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

MAX_SEATS = 6
MIN_SEATS = 2


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    rating: float = 0.0


@dataclass(frozen=True, slots=True)
class Played:
    """One finished game of the tournament: its players in seat order, their ranks (1 is
    first, ties shared) and the tournament points each earned there."""

    round: int
    players: tuple[int, ...]
    ranks: tuple[int, ...]
    points: tuple[float, ...]
    table: str = ""


@dataclass(frozen=True, slots=True)
class Bye:
    """A round a player did not play: ``kind`` ``bye`` (no table for them: the count did
    not fit) or ``skipped`` (withdrawn, or a missed game)."""

    round: int
    player: int
    points: float
    kind: str = "bye"


def default_points(seats: int) -> list[float]:
    """The default points by rank at a table of ``seats``: ``seats - rank`` (4 seats: 3,
    2, 1, 0; 2 seats: 1, 0), so a game is worth the number of players beaten."""
    return [float(seats - r) for r in range(1, seats + 1)]


def points_for_ranks(ranks: Sequence[int], points: Sequence[float] | None = None) -> list[float]:
    """The points each seat earns from its rank. ``points`` is the organiser's list for a
    full table (first place first); a smaller table uses the list's ends and spreads the
    middle (rank r of m reads position (r-1)(n-1)/(m-1) of n, half up), so the last
    always gets the last value. Tied seats share the mean of the positions they cover."""
    m = len(ranks)
    table = list(points) if points else default_points(m)
    n = len(table)
    per_position = [table[0]] if m == 1 else [table[int(i * (n - 1) / (m - 1) + 0.5)] for i in range(m)]
    out = []
    for rank in ranks:
        tied = sum(1 for r in ranks if r == rank)
        start = rank - 1
        covered = per_position[start:start + tied] or [per_position[-1]]
        out.append(sum(covered) / len(covered))
    return out


def bye_points_default(points: Sequence[float] | None, seats: int) -> float:
    """A bye scores the mean of a full table's points unless the organiser says."""
    table = list(points) if points else default_points(seats)
    return sum(table) / len(table)


def rng_for(seed: int, *parts: object) -> random.Random:
    """A generator for one decision of one tournament (its seed and e.g. the round): a
    string seed hashes the same in every process and Python run."""
    return random.Random(":".join(str(p) for p in (seed, *parts)))


def lot(seed: int, player: int) -> int:
    """A player's drawn lot: the last tie-break, fixed for the whole tournament."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{player}".encode()).digest()[:8], "big")


@dataclass(slots=True)
class Standing:
    player: int
    rating: float
    points: float = 0.0
    played: int = 0
    byes: int = 0
    skipped: int = 0
    opponents_points: float = 0.0
    opponents_average: float = 0.0
    rank: int = 0
    opponents: list[int] = field(default_factory=list)
    """Every opponent met, once per game (so twice met appears twice)."""
    firsts: int = 0
    """Games played in seat 0 (the seat order is balanced with it)."""
    withdrawn: bool = False

    def key(self, seed: int) -> tuple[float, float, float, float, int]:
        """Sort key, best first: points, opponents' points, opponents' average, rating,
        then the drawn lot."""
        return (-self.points, -self.opponents_points, -self.opponents_average, -self.rating, lot(seed, self.player))


def standings(players: Iterable[Player], games: Iterable[Played], byes: Iterable[Bye] = (), seed: int = 0,
              withdrawn: Iterable[int] = (), bonus: dict[int, float] | None = None) -> list[Standing]:
    """The standings, best first, ranks 1.. (no shared rank: the tie-breaks and then the
    lot decide). Opponents' points sums, over every game played, the final points of
    each opponent at that table; opponents' average divides it by the number of such
    opponents. ``bonus``: extra points (the arena's streaks)."""
    rows = {p.id: Standing(p.id, p.rating) for p in players}
    gone = set(withdrawn)
    for g in games:
        for seat, (pid, pts) in enumerate(zip(g.players, g.points, strict=True)):
            row = rows.get(pid)
            if row is None:
                continue
            row.points += pts
            row.played += 1
            row.firsts += seat == 0
            row.opponents.extend(o for o in g.players if o != pid)
    for b in byes:
        row = rows.get(b.player)
        if row is None:
            continue
        row.points += b.points
        if b.kind == "bye":
            row.byes += 1
        else:
            row.skipped += 1
    for pid, extra in (bonus or {}).items():
        if pid in rows:
            rows[pid].points += extra
    for row in rows.values():
        row.withdrawn = row.player in gone
        met = [rows[o].points for o in row.opponents if o in rows]
        row.opponents_points = sum(met)
        row.opponents_average = sum(met) / len(met) if met else 0.0
    ordered = sorted(rows.values(), key=lambda r: r.key(seed))
    for i, row in enumerate(ordered):
        row.rank = i + 1
    return ordered


def meetings(games: Iterable[Played]) -> dict[tuple[int, int], int]:
    """How often each pair of players (smaller id first) sat at one table."""
    met: dict[tuple[int, int], int] = {}
    for g in games:
        ps = sorted(g.players)
        for i, a in enumerate(ps):
            for b in ps[i + 1:]:
                met[(a, b)] = met.get((a, b), 0) + 1
    return met


def table_sizes(count: int, seats: int, min_seats: int) -> list[int]:
    """Table sizes for ``count`` players at tables of ``min_seats``..``seats``: as many
    players seated as can be, then as many full tables as can be; the rest (sum of the
    sizes short of ``count``) get byes. Largest tables first."""
    for seated in range(count, -1, -1):
        tables = -(-seated // seats)  # as few tables as possible: the fullest ones
        if tables == 0:
            return []
        base, extra = divmod(seated, tables)
        if base >= min_seats and base + (extra > 0) <= seats:
            return [base + 1] * extra + [base] * (tables - extra)
    return []
