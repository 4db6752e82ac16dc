"""Swiss pairing for 2 to 6 seats. Every player plays each round (save byes), against
players with about as many points.

- 2 seats: score group by score group, best first, a maximum-weight matching
  (networkx's blossom algorithm) over every pair of the group and of those who floated
  down from the group above; an edge weighs less the further apart the two players'
  points and standings are, and much less for each earlier meeting when repeats are
  avoided. ``maxcardinality`` pairs everyone it can; an odd one floats down.
- 3 to 6 seats: tables are filled board by board from the standings: the best unseated
  player opens a table, and each next seat goes to the candidate (among the next few
  unseated) with the fewest earlier meetings with those already seated (when repeats are
  avoided), then the nearest in points, then the nearest in the standings. So the
  leaders play on board 1, the next group on board 2, and so on.

Byes go to the players with the fewest byes so far, lowest in the standings first. The
seat order at each table gives seat 0 to whoever had it least, the rest by lot.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .core import Standing, rng_for, table_sizes

BLOCK = 40
"""The most players of one score group matched at once (2 seats): a larger group is
matched in blocks, so a round of a thousand players takes well under a second."""
REPEAT = 1000.0
"""The cost of one earlier meeting when repeats are avoided (above any points gap)."""


RETRY_TABLES = 64
"""Up to this many tables, a 3-6 seat round that still repeats a meeting is tried again
``RETRIES`` times with the order shuffled within each score group."""
RETRIES = 24


@dataclass(frozen=True, slots=True)
class Pairing:
    tables: list[tuple[int, ...]]
    """Boards in order (board 1 first), each its players in seat order."""
    byes: list[int]


def max_rounds(players: int, seats: int, avoid_repeats: bool) -> int:
    """The most rounds a Swiss of ``players`` at ``seats`` may have: with repeats avoided,
    a player must be able to meet new opponents every round (each round meets at least
    ``seats - 1`` of the other ``players - 1``); without, at most ``players`` rounds."""
    if players < 2:
        return 0
    if avoid_repeats:
        return max(1, -(-(players - 1) // (seats - 1)))
    return players


def _met(met: Mapping[tuple[int, int], int], a: int, b: int) -> int:
    return met.get((a, b) if a < b else (b, a), 0)


def pair_swiss(order: Sequence[Standing], seats: int, min_seats: int, round_no: int, seed: int,
               met: Mapping[tuple[int, int], int], avoid_repeats: bool = True) -> Pairing:
    """Round ``round_no``'s tables for the players still in, ``order`` the standings
    (best first, withdrawn players left out)."""
    if not order:
        return Pairing([], [])
    sizes = table_sizes(len(order), seats, min_seats)
    seated = sum(sizes)
    byes: list[int] = []
    if seated < len(order):
        # Fewest byes first, then the lowest in the standings.
        by_need = sorted(range(len(order)), key=lambda i: (order[i].byes, -i))
        byes = [order[i].player for i in by_need[:len(order) - seated]]
    out_now = set(byes)
    playing = [s for s in order if s.player not in out_now]
    if seats == 2 and all(size == 2 for size in sizes):
        tables = _pair_two(playing, met, avoid_repeats)
    else:
        tables = _pair_groups(playing, sizes, met, avoid_repeats)
        if avoid_repeats and len(sizes) <= RETRY_TABLES and _total_repeats(tables, met):
            tables = _retry(playing, sizes, met, tables, rng_for(seed, "swiss-retry", round_no))
    firsts = {s.player: s.firsts for s in order}
    out = []
    for board, table in enumerate(tables):
        rng = rng_for(seed, "swiss", round_no, board)
        seated_players = list(table)
        rng.shuffle(seated_players)
        seated_players.sort(key=lambda p: firsts[p])  # stable: the lot orders equals
        out.append(tuple(seated_players))
    return Pairing(out, byes)


def _pair_two(playing: Sequence[Standing], met: Mapping[tuple[int, int], int], avoid: bool) -> list[tuple[int, ...]]:
    """Score group by score group (a large group in blocks of at most ``BLOCK``), each
    with whoever floated down from the group above: a maximum-weight matching over all
    pairs of the block, the one left unpaired (an odd block) floating down."""
    pairs: list[tuple[Standing, Standing]] = []
    floaters: list[Standing] = []
    i = 0
    n = len(playing)
    while i < n:
        j = i
        while j < n and playing[j].points == playing[i].points and j - i < BLOCK:
            j += 1
        block = floaters + list(playing[i:j])
        i = j
        if len(block) < 2 and i < n:
            floaters = block
            continue
        matched, floaters = _match(block, met, avoid)
        pairs += matched
    # Boards in standings order: the pair with the best player first.
    place = {s.player: k for k, s in enumerate(playing)}
    pairs.sort(key=lambda pair: min(place[pair[0].player], place[pair[1].player]))
    return [(a.player, b.player) for a, b in pairs]


def _match(block: Sequence[Standing], met: Mapping[tuple[int, int], int], avoid: bool,
           ) -> tuple[list[tuple[Standing, Standing]], list[Standing]]:
    # Imported here: networkx takes 80 ms to import, and every server process imports this
    # module, most of them never pairing a Swiss round of two seats.
    import networkx as nx

    graph = nx.Graph()
    n = len(block)
    graph.add_nodes_from(range(n))
    for i in range(n):
        for j in range(i + 1, n):
            gap = abs(block[i].points - block[j].points)
            repeats = _met(met, block[i].player, block[j].player) if avoid else 0
            # Positive weights: the matching also wants as many pairs as it can get; the
            # position term leaves the lowest unpaired in an odd block.
            weight = 100_000.0 - REPEAT * repeats - 10.0 * gap * gap - (j - i) - 0.001 * (i + j)
            graph.add_edge(i, j, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted((min(a, b), max(a, b)) for a, b in matching)
    done = {k for pair in pairs for k in pair}
    return [(block[a], block[b]) for a, b in pairs], [block[k] for k in range(n) if k not in done]


def _pair_groups(playing: Sequence[Standing], sizes: Sequence[int], met: Mapping[tuple[int, int], int],
                 avoid: bool) -> list[tuple[int, ...]]:
    remaining = list(playing)
    tables: list[tuple[int, ...]] = []
    for size in sizes:
        table = [remaining.pop(0)]
        while len(table) < size:
            window = remaining[:max(3 * size, 8)]
            best_i = min(range(len(window)), key=lambda i: (
                sum(_met(met, window[i].player, t.player) for t in table) if avoid else 0,
                abs(window[i].points - table[0].points), i))
            table.append(remaining.pop(best_i))
        tables.append(tuple(s.player for s in table))
    if avoid:
        _repair(tables, met)
    return tables


def _total_repeats(tables: Sequence[Sequence[int]], met: Mapping[tuple[int, int], int]) -> int:
    return sum(_repeats(t, met) for t in tables)


def _retry(playing: Sequence[Standing], sizes: Sequence[int], met: Mapping[tuple[int, int], int],
           best: list[tuple[int, ...]], rng: random.Random) -> list[tuple[int, ...]]:
    """Other orders of the same standings (shuffled within each score group, so boards
    stay in points order): the first with the fewest repeats wins."""
    least = _total_repeats(best, met)
    for _ in range(RETRIES):
        groups: dict[float, list[Standing]] = {}
        for s in playing:
            groups.setdefault(s.points, []).append(s)
        order: list[Standing] = []
        for points in sorted(groups, reverse=True):
            group = groups[points]
            rng.shuffle(group)
            order += group
        tables = _pair_groups(order, sizes, met, True)
        repeats = _total_repeats(tables, met)
        if repeats < least:
            best, least = tables, repeats
            if not least:
                break
    return best


def _repeats(table: Sequence[int], met: Mapping[tuple[int, int], int]) -> int:
    return sum(_met(met, a, b) for i, a in enumerate(table) for b in table[i + 1:])


def _repair(tables: list[tuple[int, ...]], met: Mapping[tuple[int, int], int]) -> None:
    """The greedy fill can leave the last boards with what is left: swap one player of a
    table that repeats a meeting with one of another table, the nearest boards first
    (so boards stay near in points), whenever that lowers the two tables' repeats
    (bounded passes)."""
    for _ in range(8):
        improved = False
        for t in range(len(tables)):
            if not _repeats(tables[t], met):
                continue
            for u in sorted(range(len(tables)), key=lambda u: (abs(u - t), u)):
                if u == t:
                    continue
                before = _repeats(tables[t], met) + _repeats(tables[u], met)
                best: tuple[int, tuple[int, ...], tuple[int, ...]] | None = None
                for i in range(len(tables[t])):
                    for j in range(len(tables[u])):
                        a = (*tables[t][:i], tables[u][j], *tables[t][i + 1:])
                        b = (*tables[u][:j], tables[t][i], *tables[u][j + 1:])
                        after = _repeats(a, met) + _repeats(b, met)
                        if after < before and (best is None or after < best[0]):
                            best = (after, a, b)
                if best is not None:
                    tables[t], tables[u] = best[1], best[2]
                    improved = True
                    if not _repeats(tables[t], met):
                        break
        if not improved:
            return
