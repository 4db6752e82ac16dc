"""The occupancy index (board.occupancy, kept up to date by board.set_loc) against a recount,
and the fresh move dicts of the action turn."""

from __future__ import annotations

import json

from ludoteca.engine import Rng
from ludoteca.games import load
from ludoteca.games.bloodrage.board import occupancy, set_loc
from ludoteca.games.bloodrage.components import LOCATIONS, OUTER
from ludoteca.games.bloodrage.rules import action_moves

from .br_helpers import random_action_turn

GAME = load("bloodrage")


def _recount(locs: list[list[int]]) -> list[int]:
    occ = [0] * len(LOCATIONS)
    for row in locs:
        for at in row:
            if at >= 0:
                occ[at] += 1
    return occ


def test_index_follows_every_move() -> None:
    """At every decision of whole games the counts equal a recount, and after every move the
    kept copy of ``locs`` and the counts agree with each other (they would not if ``set_loc``
    moved one without the other)."""
    synced = 0
    for seats, seed in ((2, 3), (3, 4), (4, 5)):
        rng = Rng(seed)
        state = GAME.setup(seats, None, seed)
        while GAME.result(state) is None:
            assert occupancy(state) == _recount(state.locs)
            seat = GAME.pending(state)[0].seat
            GAME.perform(state, seat, rng.choice(GAME.legal(state, seat)))
            if state.occ_of is not None:
                assert state.occ == _recount(state.occ_of)
                synced += state.occ_of == state.locs
    assert synced > 100  # the index is kept, not merely rebuilt at each call


def test_set_loc_keeps_the_index_without_a_recount() -> None:
    state, seat = random_action_turn(11)
    occupancy(state)
    i = state.locs[seat].index(-1)  # a figure in the reserve
    to = OUTER[0]
    before = state.occ[to]  # type: ignore[index]
    set_loc(state, seat, i, to)
    assert state.occ_of == state.locs  # kept in step: no recount needed
    assert state.occ[to] == before + 1  # type: ignore[index]
    assert occupancy(state) == _recount(state.locs)


def test_a_figure_moved_by_hand_is_counted() -> None:
    state, seat = random_action_turn(12)
    occupancy(state)
    i = state.locs[seat].index(-1)
    state.locs[seat][i] = OUTER[1]  # as the tests' helpers do, around set_loc
    assert occupancy(state) == _recount(state.locs)


def test_clones_and_json_have_their_own_index() -> None:
    state, seat = random_action_turn(13)
    occupancy(state)
    copy = GAME.clone(state)
    i = copy.locs[seat].index(-1)
    set_loc(copy, seat, i, OUTER[2])
    assert occupancy(state) == _recount(state.locs)
    assert occupancy(copy) == _recount(copy.locs)
    assert occupancy(copy) != occupancy(state)
    back = GAME.from_json(json.loads(json.dumps(GAME.to_json(copy))))
    assert back.occ is None and back.occ_of is None
    assert occupancy(back) == occupancy(copy)


def test_action_moves_are_fresh_dicts_each_call() -> None:
    state, seat = random_action_turn(14)
    first = action_moves(state, seat)
    kept = json.loads(json.dumps(first))
    for move in first:
        move["type"] = "spoiled"
    second = action_moves(state, seat)
    assert second == kept
    assert not {id(m) for m in first} & {id(m) for m in second}
