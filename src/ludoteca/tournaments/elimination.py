"""Elimination for 2 to 6 seats: each round seats the players still in at tables of the
right size, and the best ``advance`` of each table go on; when no more than a table's
worth are left, they play the final, whose ranks are the podium.

Tables are seeded in a snake (seed 1 to table 1, 2 to table 2, ..., then back), so the
strongest meet as late as possible. Players the tables cannot hold get byes and go on:
the best seeds first. A table never has fewer than ``advance + 1`` players, so every
round sends someone home. A tie at the cut is broken by the seeding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .core import rng_for, table_sizes


@dataclass(frozen=True, slots=True)
class Round:
    tables: list[tuple[int, ...]]
    byes: list[int]
    final: bool


def smallest_table(min_seats: int, advance: int) -> int:
    return max(min_seats, advance + 1)


def plan(count: int, seats: int, min_seats: int, advance: int) -> list[int]:
    """How many players each round starts with, the final last (empty: cannot run)."""
    if count < 2 or advance < 1 or advance >= seats:
        return []
    rounds = []
    while count > seats:
        sizes = table_sizes(count, seats, smallest_table(min_seats, advance))
        if not sizes:
            return []
        rounds.append(count)
        count = (count - sum(sizes)) + advance * len(sizes)
    rounds.append(count)
    return rounds


def pair_round(seeds: Sequence[int], seats: int, min_seats: int, advance: int, round_no: int,
               seed: int) -> Round:
    """The round's tables for the players still in, ``seeds`` best first."""
    count = len(seeds)
    if count <= seats:
        table = list(seeds)
        rng_for(seed, "elimination", round_no, 0).shuffle(table)
        return Round([tuple(table)], [], True)
    sizes = table_sizes(count, seats, smallest_table(min_seats, advance))
    byes = list(seeds[:count - sum(sizes)])  # the best seeds skip the round
    playing = list(seeds[len(byes):])
    tables: list[list[int]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    i = 0
    while i < len(playing):
        for t in order:
            if i < len(playing) and len(tables[t]) < sizes[t]:
                tables[t].append(playing[i])
                i += 1
        order.reverse()
    out = []
    for board, table in enumerate(tables):
        rng_for(seed, "elimination", round_no, board).shuffle(table)
        out.append(tuple(table))
    return Round(out, byes, False)


def advancing(players: Sequence[int], ranks: Sequence[int], advance: int, seeds: Sequence[int]) -> list[int]:
    """The best ``advance`` of one table (rank, then seeding)."""
    place = {p: i for i, p in enumerate(seeds)}
    ordered = sorted(range(len(players)), key=lambda i: (ranks[i], place.get(players[i], len(place))))
    return [players[i] for i in ordered[:advance]]
