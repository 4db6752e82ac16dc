"""Crusaders scoring: enemy majorities, level-4 buildings, the final ranking."""

from __future__ import annotations

from typing import Any

from ludoteca.engine import Result

from .components import BUILDINGS, ENEMIES, components
from .state import CrusadersState


def majority_awards(counts: list[int]) -> list[int]:
    """The majority bonus per seat for one enemy type (CR-36).

    Most tokens: 5; second most: 2; at least one token needed. Tied firsts get 3 each and
    the next count down still takes the second place; tied seconds get nothing.
    """
    c = components()
    awards = [0] * len(counts)
    values = sorted({n for n in counts if n > 0}, reverse=True)
    if not values:
        return awards
    firsts = [i for i, n in enumerate(counts) if n == values[0]]
    for i in firsts:
        awards[i] = c.majority_first if len(firsts) == 1 else c.majority_tied_first
    if len(values) > 1:
        seconds = [i for i, n in enumerate(counts) if n == values[1]]
        if len(seconds) == 1:
            awards[seconds[0]] = c.majority_second
    return awards


def building_points(state: CrusadersState, seat: int) -> dict[str, int]:
    """End-game influence of a seat's level-4 buildings (CR-37)."""
    p = state.players[seat]
    out: dict[str, int] = {}
    level4 = sum(1 for n in p.built if n >= 4)
    for i, name in enumerate(BUILDINGS):
        if p.built[i] < 4:
            continue
        end = dict(components().buildings[name].end)
        if "per_enemy_set" in end:
            out[name] = end["per_enemy_set"] * min(p.defeated)
        elif "flat" in end:
            out[name] = end["flat"]
        elif "per_knight_and_troop" in end:
            out[name] = end["per_knight_and_troop"] * (sum(1 for k in p.knights if k >= 0) + p.troops)
        elif "per_level4" in end:
            out[name] = end["per_level4"] * level4
    return out


def breakdown(state: CrusadersState) -> list[dict[str, Any]]:
    n = state.seats
    majorities = [dict.fromkeys(ENEMIES, 0) for _ in range(n)]
    for e, enemy in enumerate(ENEMIES):
        for seat, award in enumerate(majority_awards([p.defeated[e] for p in state.players])):
            majorities[seat][enemy] = award
    rows = []
    for seat, p in enumerate(state.players):
        buildings = building_points(state, seat)
        total = p.influence + sum(majorities[seat].values()) + sum(buildings.values())
        rows.append({"influence": p.influence, "majorities": majorities[seat], "buildings": buildings,
                     "total": total})
    return rows


def final_result(state: CrusadersState) -> Result:
    """Most influence wins; a tie goes to the seat earlier in turn order (seat 0 starts) (CR-38)."""
    rows = breakdown(state)
    scores = [row["total"] for row in rows]
    tiebreak = [[state.seats - seat] for seat in range(state.seats)]
    return Result.ranked(scores, tiebreak, rows)
