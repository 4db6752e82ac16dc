"""Play now pairing, as pure logic (no I/O, no clock, no randomness): given who waits in
one pool (a game, a mode, an options preset) and since when, which tables to make now.
``server/playnow/queue.py`` reads the pool from the database, calls ``pair`` under a lock
and writes what it decided.

As lichess's pools do, each seeker accepts opponents within a rating band that widens
the longer they wait: ``band(waited)``. A group is made only when every member is
within every member's band (the spread of the group's ratings is at most the narrowest
band among them), so a newcomer is never thrown against a far stronger player unless
both have waited. The longest waiting seeker is served first.

A seeker who asked for bots after a wait (``bots_after``) and has waited that long gets
a table at once: the people the rating band allows, the rest of the seats bots.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

BAND_START = 100.0
"""The rating band at once (openskill's mu scale: a new player is 25 +- 8.3, so the
band covers nearly everyone; it matters between established players)."""
BAND_PER_SECOND = 2.0
BAND_MAX = 1000.0
SCALE = 25.0
"""Ratings are compared in the pool on the displayed scale: mu * SCALE (a new player
is about 625), so the band's numbers read as lichess's do."""


def band(waited_seconds: float) -> float:
    """How far from its own rating a seeker accepts others, after waiting this long."""
    return min(BAND_MAX, BAND_START + BAND_PER_SECOND * max(0.0, waited_seconds))


@dataclass(frozen=True, slots=True)
class Seeker:
    user_id: int
    rating: float
    """On the pool's scale (see ``SCALE``)."""
    waited: float
    """Seconds since the seeker joined the pool."""
    seats: int | None = None
    """The seat count wanted; None: any the game takes."""
    bots_after: float | None = None
    """Seconds after which bots may fill the empty seats; None: people only."""


@dataclass(frozen=True, slots=True)
class Group:
    seats: int
    players: tuple[int, ...]
    """User ids, the longest waiting first."""
    bots: int
    """Seats left to bots (the players' own choice, after their wait)."""


def _fits(seeker: Seeker, seats: int) -> bool:
    return seeker.seats is None or seeker.seats == seats


def _within(members: Sequence[Seeker]) -> bool:
    ratings = [m.rating for m in members]
    return max(ratings) - min(ratings) <= min(band(m.waited) for m in members)


Apart = Collection[frozenset[int]]
"""Pairs of user ids never seated together (one blocked the other)."""


def _gather(anchor: Seeker, others: Sequence[Seeker], seats: int, want: int, apart: Apart = ()) -> list[Seeker]:
    """Up to ``want`` of ``others`` who would sit at a ``seats`` table with ``anchor``,
    nearest the anchor's rating first, each kept only if the group stays within every
    member's band."""
    chosen = [anchor]
    for other in sorted((o for o in others if _fits(o, seats)),
                        key=lambda o: (abs(o.rating - anchor.rating), -o.waited, o.user_id)):
        if len(chosen) - 1 >= want:
            break
        if _within([*chosen, other]) and not any(frozenset((c.user_id, other.user_id)) in apart for c in chosen):
            chosen.append(other)
    return chosen[1:]


def pair(seekers: Iterable[Seeker], min_seats: int, max_seats: int, apart: Apart = frozenset()) -> list[Group]:
    """The tables to make now from one pool. Every seeker is in one group at most; those
    in none wait on; no two of ``apart`` share a group. Deterministic: the same pool
    gives the same groups."""
    waiting = sorted(seekers, key=lambda s: (-s.waited, s.user_id))
    taken: set[int] = set()
    groups: list[Group] = []
    for anchor in waiting:
        if anchor.user_id in taken:
            continue
        others = [s for s in waiting if s.user_id not in taken and s.user_id != anchor.user_id]
        sizes = [anchor.seats] if anchor.seats is not None else list(range(max_seats, min_seats - 1, -1))
        made: Group | None = None
        for seats in sizes:
            if not min_seats <= seats <= max_seats:
                continue
            company = _gather(anchor, others, seats, seats - 1, apart)
            if len(company) == seats - 1:
                made = Group(seats, (anchor.user_id, *(c.user_id for c in company)), 0)
                break
        if made is None and anchor.bots_after is not None and anchor.waited >= anchor.bots_after:
            # Bots fill what people do not: the wanted count, or for "any" the table the
            # people present fill best (at least the game's minimum).
            best: tuple[int, list[Seeker]] | None = None
            for seats in sizes:
                if not min_seats <= seats <= max_seats:
                    continue
                company = _gather(anchor, others, seats, seats - 1, apart)
                if best is None or len(company) > len(best[1]) or \
                        (len(company) == len(best[1]) and seats < best[0]):
                    best = (seats, company)
            if best is not None:
                seats, company = best
                made = Group(seats, (anchor.user_id, *(c.user_id for c in company)), seats - 1 - len(company))
        if made is not None:
            taken.update(made.players)
            groups.append(made)
    return groups
