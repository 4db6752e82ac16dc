"""Iwari's scorings (IW-12 to IW-16, IW-23) and the breakdown players see.

Pure functions of the state: they read the board and return points per tribe, so the
rules module decides *when* to score and tests can score hand-built boards.
"""

from __future__ import annotations

from typing import Any

from .components import FEATS, GameMap, expeditions
from .state import OVER, IwariState


def majority_points(counts: list[int]) -> list[int]:
    """IW-13: points per tribe for one territory (or the purple road) from its tent counts.

    The tribes with the most tents score every tent there, whatever its colour; every
    other tribe present scores as many points as the tribe just above it has tents.
    Tied tribes score alike (they are one rank).
    """
    return list(majority_of(tuple(counts)))


MAJORITY: dict[tuple[int, ...], tuple[int, ...]] = {}
"""majority_points per tuple of counts, filled as met: few distinct tuples occur (a
territory has a few tent spaces), and each scoring asks for one per territory."""


def majority_of(counts: tuple[int, ...]) -> tuple[int, ...]:
    """majority_points of a tuple of counts, as a shared tuple."""
    points = MAJORITY.get(counts)
    if points is None:
        ranks = sorted({c for c in counts if c > 0}, reverse=True)
        above = {ranks[i]: ranks[i - 1] for i in range(1, len(ranks))}
        if ranks:
            above[ranks[0]] = sum(counts)
        points = MAJORITY[counts] = tuple(above[c] if c > 0 else 0 for c in counts)
    return points


def tent_scoring(state: IwariState) -> list[list[int]]:
    """Per territory, per tribe: tent points times the territory's factor (feats, IW-19)."""
    majority = MAJORITY
    out = []
    for key, factor in zip(per_territory(state.tent_count, state.tribes), state.territory_factor, strict=True):
        points = majority.get(key) or majority_of(key)
        out.append(list(points) if factor == 1 else [p * factor for p in points])
    return out


def per_territory(counts: list[int], tribes: int) -> zip[tuple[int, ...]]:
    """The tuples of the tribes' counts, territory by territory, from a flat per-territory
    list (``territory * tribes + tribe``): the strided columns zipped, in C, with no slice
    and tuple per territory."""
    return zip(*[counts[tribe::tribes] for tribe in range(tribes)], strict=True)


def majority_holders(counts: list[int]) -> list[int]:
    """The tribes with the most pieces (ties: all of them); nobody if there are none."""
    best = max(counts)
    return [i for i, n in enumerate(counts) if n == best] if best > 0 else []


def totem_majority_holders(state: IwariState, connection: int) -> list[int]:
    """IW-15: the tribes holding the totem majority in *both* territories of a connection."""
    tribes = state.tribes
    c = state.board.connections[connection]
    a = majority_holders(state.totem_count[c.a * tribes:(c.a + 1) * tribes])
    if not a:
        return a
    b = majority_holders(state.totem_count[c.b * tribes:(c.b + 1) * tribes])
    return [tribe for tribe in a if tribe in b]


HOLDERS: dict[tuple[int, ...], tuple[int, int]] = {}
"""Per tuple of totem counts: (the majority holders as bits of tribes, the totems there)."""


def holders_of(counts: tuple[int, ...]) -> tuple[int, int]:
    """HOLDERS' entry for ``counts`` (filled as met)."""
    found = HOLDERS.get(counts)
    if found is None:
        mask = 0
        for tribe in majority_holders(list(counts)):
            mask |= 1 << tribe
        found = HOLDERS[counts] = (mask, sum(counts))
    return found


def totem_scoring(state: IwariState) -> list[list[int]]:
    """IW-15: per connection (in number order), per tribe.

    A tribe holding the totem majority (ties: every tied tribe holds it) in both joined
    territories scores one point per totem in the two territories, of any colour, times
    the connection's factor. A connection under a mountain scores nothing.
    """
    tribes = state.tribes
    holders = HOLDERS
    held = [holders.get(key) or holders_of(key) for key in per_territory(state.totem_count, tribes)]
    covered = state.covered
    factor = state.connection_factor
    out = []
    for c in state.board.connections:
        row = [0] * tribes
        i = c.index
        if not covered[i]:
            held_a, in_a = held[c.a]
            held_b, in_b = held[c.b]
            both = held_a & held_b
            if both:
                points = (in_a + in_b) * factor[i]
                for tribe in range(tribes):
                    if both >> tribe & 1:
                        row[tribe] = points
        out.append(row)
    return out


def component(board: GameMap, tents: list[int], start: int) -> list[int]:
    """The tent spaces of ``start``'s tribe joined to it by roads (its settlement, IW-16)."""
    tribe = tents[start]
    seen = {start}
    stack = [start]
    neighbours = board.neighbours
    while stack:
        for n in neighbours[stack.pop()]:
            if n not in seen and tents[n] == tribe:
                seen.add(n)
                stack.append(n)
    return sorted(seen)


def settlements(state: IwariState) -> list[list[list[int]]]:
    """Per tribe, its settlements: groups of 4 or more joined tents, as sorted space lists."""
    neighbours = state.board.neighbours
    out: list[list[list[int]]] = [[] for _ in range(state.tribes)]
    # a working copy of the tents: a space put in a group is emptied (-1), so one test finds
    # the unvisited tents of the group's tribe (enumerate reads the copy as it changes)
    left = state.tents[:]
    for space, tribe in enumerate(left):
        if tribe < 0:
            continue
        # one flood fill per group, the group list growing while it is walked
        left[space] = -1
        group = [space]
        for s in group:
            for n in neighbours[s]:
                if left[n] == tribe:
                    left[n] = -1
                    group.append(n)
        if len(group) >= 4:
            group.sort()
            out[tribe].append(group)
    return out


def purple_road_scoring(state: IwariState) -> list[int]:
    """IW-23 (The Long Road): the purple road's tents scored like a territory, at the end."""
    board = state.board
    counts = [0] * state.tribes
    for space in board.purple_road:
        if state.tents[space] >= 0:
            counts[state.tents[space]] += 1
    return majority_points(counts) if board.purple_road else counts


def end_scoring(state: IwariState) -> dict[str, Any]:
    """The end-of-journey scoring (IW-14): tents, totems, settlements (and the purple road)."""
    tents = tent_scoring(state)
    totems = totem_scoring(state)
    groups = settlements(state)
    purple = purple_road_scoring(state)
    totals = [sum(column) for column in zip(*tents, *totems, purple, strict=True)]
    for tribe, found in enumerate(groups):
        for group in found:
            totals[tribe] += len(group)
    return {"tents": tents, "totems": totems, "settlements": groups, "purple": purple, "totals": totals}


def breakdown(state: IwariState, seat: int, end: dict[str, Any] | None = None) -> dict[str, Any]:
    """What ``seat`` scored and where: half journey, end of journey, feats, expeditions.

    ``end`` is ``end_scoring(state)`` if the caller has it already (one per result, not per seat).
    """
    board = state.board
    tids = state.kit.tids
    out: dict[str, Any] = {}
    if state.half is not None:
        per = {tids[t]: row[seat] for t, row in enumerate(state.half) if row[seat]}
        out["half_journey"] = {"territories": per, "total": sum(per.values())}
    if state.phase == OVER:  # the board is final
        end = end or end_scoring(state)
        territories = {tids[t]: row[seat] for t, row in enumerate(end["tents"]) if row[seat]}
        names = state.kit.connection_names
        connections = {names[c]: row[seat] for c, row in enumerate(end["totems"]) if row[seat]}
        sizes = [len(g) for g in end["settlements"][seat]]
        groups = [sorted({tids[board.space_territory[s]] for s in g}) for g in end["settlements"][seat]]
        out["end_journey"] = {
            "territories": territories,
            "tents_total": sum(territories.values()),
            "connections": connections,
            "totems_total": sum(connections.values()),
            "settlements": [{"tents": n, "territories": g} for n, g in zip(sizes, groups, strict=True)],
            "settlements_total": sum(sizes),
            "purple_road": end["purple"][seat],
            "total": end["totals"][seat],
        }
    deck = expeditions().cards
    out["expeditions"] = {deck[card].id: deck[card].values[done.index(seat)]
                          for card, done in zip(state.expedition_cards, state.expedition_done, strict=True)
                          if seat in done}
    out["feats"] = [
        {"feat": FEATS[kind],
         "territory" if kind < 2 else "connection":
             tids[target] if kind < 2 else board.connections[target].number}
        for kind, who, target in state.feat_places if who == seat
    ]
    out["unused_pieces"] = state.tents_left[seat] + state.totems_left[seat]
    out["total"] = state.scores[seat]
    return out
