"""Hadrian's Wall: the decisions a reward leaves owed (``Player.todo``, oldest first).

``OWED`` lists the moves that answer each kind (a cohort, an attribute, the forum, a
diplomat, a trade, a scout and the pattern it places, a gladiator's fight);
``FOLLOW_UP`` plays a move answering the decision owed first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.engine import Event, Move
from ludoteca.engine.flow import Dispatch

from .cards import flip_fate, pay_source, scout_sources, source_args, trade_sources
from .components import DIRECTIONS, RESOURCES, SOLDIERS
from .sheets import FORUM_GAINS, FULL_ROW, S_ATTR, S_COHORTS, S_GLAD, C, fill_next, gain
from .state import HadriansWallState, Player

Owed = Callable[[HadriansWallState, int, Player, list[Any]], list[Move]]
OWED: Dispatch[str, Owed] = Dispatch("hadrianswall: owed decisions by kind")
"""Per kind of owed decision (``Player.todo``), the moves that answer it."""


def todo_options(state: HadriansWallState, seat: int, item: list[Any]) -> list[Move]:
    return OWED[item[0]](state, seat, state.players[seat], item)


@OWED.on("cohort")
def _owed_cohort(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    return [{"type": "cohort", "cohort": d} for d, s in zip(DIRECTIONS, S_COHORTS, strict=True) if p.count[s] < 6]


@OWED.on("attribute")
def _owed_attribute(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    return [{"type": "attribute", "attribute": a} for a in item[1:] if p.count[S_ATTR[a]] < 25]


@OWED.on("forum")
def _owed_forum(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    return [{"type": "forum", "gain": g} for g in FORUM_GAINS]


@OWED.on("diplomat")
def _owed_diplomat(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    return [{"type": "diplomat", "direction": d} for d in DIRECTIONS if d not in p.diplomat_dirs]


@OWED.on("trade")
def _owed_trade(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    return trade_sources(state, seat)


@OWED.on("scout")
def _owed_scout(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    return scout_sources(state, seat) if p.stock[SOLDIERS] >= 1 else []


@OWED.on("place")
def _owed_place(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    grid = p.map
    orients = C.orientations[item[1]]
    if len(item) == 3:
        return [{"type": "place", "cells": cells(mask)} for mask in orients[item[2]] if not grid & mask]
    fitting = [k for k, masks in enumerate(orients) if any(not grid & mask for mask in masks)]
    if len(fitting) == 1:
        return [{"type": "place", "cells": cells(mask)} for mask in orients[fitting[0]] if not grid & mask]
    return [{"type": "orient", "shape": cells(orients[k][0])} for k in fitting]


@OWED.on("fight")
def _owed_fight(state: HadriansWallState, seat: int, p: Player, item: list[Any]) -> list[Move]:
    return [{"type": "fight", "gladiator": item[1] + 1, "fight": True},
            {"type": "fight", "gladiator": item[1] + 1, "fight": False}]


def cells(mask: int) -> list[int]:
    known = _CELLS.get(mask)
    if known is None:
        known = _CELLS[mask] = tuple(i for i in range(C.map_rows * C.map_cols) if mask >> i & 1)
    return list(known)


_CELLS: dict[int, tuple[int, ...]] = {}
"""The cells of each placement mask (a few hundred at most), as they are asked for."""


def settle(state: HadriansWallState, seat: int) -> None:
    """Drop owed decisions that have no option left (a full track, say)."""
    p = state.players[seat]
    while p.todo and not todo_options(state, seat, p.todo[0]):
        p.todo.pop(0)


FollowUp = Callable[[HadriansWallState, int, Player, list[Any], Move, list[Event]], None]
FOLLOW_UP: Dispatch[str, FollowUp] = Dispatch("hadrianswall: follow-up decisions by move kind")
"""A move answering the decision owed first (``p.todo[0]``, already taken off the list)."""


@FOLLOW_UP.on("cohort")
def _cohort(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move, events: list[Event]) -> None:
    fill_next(state, seat, S_COHORTS[DIRECTIONS.index(move["cohort"])])
    events.append(Event("hw.cohort", {"seat": seat, "cohort": move["cohort"]}))


@FOLLOW_UP.on("attribute")
def _attribute(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move,
               events: list[Event]) -> None:
    gain(state, seat, move["attribute"])
    events.append(Event("hw.attribute", {"seat": seat, "attribute": move["attribute"]}))


@FOLLOW_UP.on("forum")
def _forum(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move, events: list[Event]) -> None:
    gain(state, seat, move["gain"])
    events.append(Event("hw.forum", {"seat": seat, "gain": move["gain"]}))


@FOLLOW_UP.on("diplomat")
def _diplomat(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move,
              events: list[Event]) -> None:
    d = move["direction"]
    p.diplomat_dirs.append(d)
    p.dir_favours[DIRECTIONS.index(d)] += 2
    events.append(Event("hw.diplomat", {"seat": seat, "direction": d}))


@FOLLOW_UP.on("trade")
def _trade(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move, events: list[Event]) -> None:
    later: list[Event] = []  # the payment's events (a neighbour's year given back), logged after the purchase
    good = pay_source(state, seat, move, RESOURCES, "good", later)
    pos = item[1]
    before = {g for g in p.goods if g}
    p.goods[pos] = good
    if good not in before:
        for _ in range(C.market_renown[len(before)]):
            gain(state, seat, "renown")
    events.append(Event("hw.trade", {"seat": seat, "good": good, **source_args(move)}))
    events.extend(later)


@FOLLOW_UP.on("scout")
def _scout(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move, events: list[Event]) -> None:
    later: list[Event] = []
    pattern = pay_source(state, seat, move, SOLDIERS, "pattern", later)
    p.todo.insert(0, ["place", pattern])
    events.append(Event("hw.scout", {"seat": seat, "pattern": pattern, **source_args(move)}))
    events.extend(later)


@FOLLOW_UP.on("orient")
def _orient(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move, events: list[Event]) -> None:
    shape = move["shape"]
    orients = C.orientations[item[1]]
    k = next(k for k, masks in enumerate(orients) if cells(masks[0]) == shape)
    p.todo.insert(0, ["place", item[1], k])


@FOLLOW_UP.on("place")
def _place(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move, events: list[Event]) -> None:
    mask = 0
    for cell in move["cells"]:
        mask |= 1 << cell
    map_before = p.map
    p.map |= mask
    for cell in move["cells"]:
        token = C.map_rewards.get(cell)
        if token:
            gain(state, seat, token)
    for r in range(C.map_rows):
        full = FULL_ROW << (r * C.map_cols)
        if p.map & full == full and map_before & full != full:
            gain(state, seat, "valour")
    events.append(Event("hw.place", {"seat": seat, "cells": list(move["cells"])}))


@FOLLOW_UP.on("fight")
def _fight_or_not(state: HadriansWallState, seat: int, p: Player, item: list[Any], move: Move,
                  events: list[Event]) -> None:
    if move["fight"]:
        _fight(state, seat, move["gladiator"] - 1, events)


def _fight(state: HadriansWallState, seat: int, g: int, events: list[Event]) -> None:
    """HW-31: the gladiator fights; a fate card deals the damage."""
    p = state.players[seat]
    card = flip_fate(state)
    state.flips.append(card)
    strength = p.count[S_GLAD[g]]
    health = strength - p.glad_damage[g]
    damage = min(C.fate_index[card].gladiator, health)
    p.glad_damage[g] += damage
    p.glad_fought[g] = state.year
    dead = p.glad_damage[g] >= strength
    for token in (C.glad_die if dead else C.glad_survive)[strength - 1]:
        gain(state, seat, token)
    events.append(Event("hw.fight", {"seat": seat, "gladiator": g + 1, "card": card, "damage": damage,
                                     "dead": dead}))
