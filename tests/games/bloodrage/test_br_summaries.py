"""The derived fields of the fifth speed round against a rebuild at every decision: each seat's
figure summary and the full places (board.figs / board.full_places, kept up to date by
board.set_loc and board.add_figure), and the decision on top that the flow leaves in
``state.asked`` for pending and legal."""

from __future__ import annotations

import json

from ludoteca.engine import Rng
from ludoteca.games import load
from ludoteca.games.bloodrage import rules
from ludoteca.games.bloodrage.board import add_figure, figs, full_places, occupancy, set_loc
from ludoteca.games.bloodrage.components import LOCATIONS, OUTER, RESERVE, SHIP_KINDS, VILLAGES
from ludoteca.games.bloodrage.state import BRState

from .br_helpers import random_action_turn

GAME = load("bloodrage")


def _summary(kinds: tuple[str, ...], row: list[int]) -> list[int]:
    """A seat's summary counted from scratch, in the layout of board.F_BOARD ...: board
    count, bits of places with a figure that is not a ship, bits of places with a ship, bits
    of the figures in the reserve, then per place the figures that are not ships, then ships."""
    nloc = len(LOCATIONS)
    out = [0, 0, 0, 0] + [0] * (2 * nloc)
    for i, (kind, at) in enumerate(zip(kinds, row, strict=True)):
        if at >= 0:
            out[0] += 1
            ship = kind in SHIP_KINDS
            out[2 if ship else 1] |= 1 << at
            out[4 + (nloc if ship else 0) + at] += 1
        elif at == RESERVE:
            out[3] |= 1 << i
    return out


def _full(locs: list[list[int]]) -> int:
    bits = 0
    for p, villages in enumerate(VILLAGES):
        if sum(row.count(p) for row in locs) >= villages:
            bits |= 1 << p
    return bits


def _check_summaries(state: BRState) -> None:
    for seat in range(state.n):
        assert figs(state, seat) == _summary(state.kinds[seat], state.locs[seat])
    assert full_places(state) == _full(state.locs)


def _check_asked(state: BRState) -> bool:
    """The seats perform left for the decision on top are those its step gives now (asked of
    a clone, which keeps no such record). True when there was a record to check."""
    if state.asked is None:
        return False
    task, step, seats = state.asked
    assert state.stack and task is state.stack[-1]
    assert step is rules.FLOW.steps[task[0]]
    copy = GAME.clone(state)
    assert copy.asked is None
    assert step.seats(copy, copy.stack[-1]) == seats
    return True


def test_summaries_and_asked_seats_match_a_rebuild_at_every_decision() -> None:
    kept = asked = 0
    for seats, seed in ((2, 31), (3, 32), (4, 33), (4, 34)):
        rng = Rng(seed)
        state = GAME.setup(seats, {"clans": "random"} if seed % 2 else None, seed)
        while GAME.result(state) is None:
            asked += _check_asked(state)
            _check_summaries(state)
            pending = GAME.pending(state)
            seat = pending[rng.below(len(pending))].seat
            GAME.perform(state, seat, rng.choice(GAME.legal(state, seat)))
            if state.occ_of is not None and state.occ_of == state.locs:
                # kept in step by set_loc, not rebuilt: the summaries agree with the copy of locs
                kept += 1
                for s in range(state.n):
                    assert state.figs[s] == _summary(state.kinds[s], state.occ_of[s])  # type: ignore[index]
                assert state.full == _full(state.occ_of)
    assert kept > 400  # the summaries are kept, not merely rebuilt at each call
    assert asked > 400  # most decisions are read from the record


def test_moves_and_a_new_figure_keep_the_summary_without_a_recount() -> None:
    state, seat = random_action_turn(21)
    occupancy(state)
    i = state.locs[seat].index(RESERVE)
    set_loc(state, seat, i, OUTER[0])
    set_loc(state, seat, i, OUTER[1])
    add_figure(state, seat, "troll")
    assert state.occ_of == state.locs  # kept in step: no recount needed
    assert state.kinds[seat][-1] == "troll" and state.locs[seat][-1] == RESERVE
    _check_summaries(state)
    set_loc(state, seat, len(state.locs[seat]) - 1, OUTER[1])
    assert state.occ_of == state.locs
    _check_summaries(state)


def test_a_province_fills_and_empties() -> None:
    state, seat = random_action_turn(22)
    occupancy(state)
    p = OUTER[3]
    moved = []
    while state.occ[p] < VILLAGES[p]:  # type: ignore[index]
        i = state.locs[seat].index(RESERVE)
        set_loc(state, seat, i, p)
        moved.append(i)
    assert full_places(state) >> p & 1
    set_loc(state, seat, moved[-1], RESERVE)
    assert not full_places(state) >> p & 1
    _check_summaries(state)


def test_figures_moved_by_hand_are_counted_afresh() -> None:
    state, seat = random_action_turn(23)
    occupancy(state)
    i = state.locs[seat].index(RESERVE)
    state.locs[seat][i] = OUTER[4]  # as the tests' helpers do, around set_loc
    _check_summaries(state)
    state.kinds[seat] = (*state.kinds[seat], "troll")
    state.locs[seat].append(OUTER[4])
    _check_summaries(state)


def test_clones_and_json_keep_their_own_summaries_and_no_asked_seats() -> None:
    state, seat = random_action_turn(24)
    occupancy(state)
    copy = GAME.clone(state)
    assert copy.asked is None
    i = copy.locs[seat].index(RESERVE)
    set_loc(copy, seat, i, OUTER[2])
    _check_summaries(state)
    _check_summaries(copy)
    assert figs(copy, seat) != figs(state, seat)
    back = GAME.from_json(json.loads(json.dumps(GAME.to_json(copy))))
    assert back.figs is None and back.asked is None
    assert figs(back, seat) == figs(copy, seat)


def test_pending_and_legal_read_the_asked_seats_and_ask_again_without_them() -> None:
    """A decision with a record and the same state without it (a clone) give the same
    pending list and the same legal moves for every seat."""
    rng = Rng(41)
    state = GAME.setup(4, None, 41)
    checked = 0
    while GAME.result(state) is None:
        copy = GAME.clone(state)
        assert GAME.pending(state) == GAME.pending(copy)
        for s in range(state.n):
            assert GAME.legal(state, s) == GAME.legal(copy, s)
        checked += state.asked is not None
        seat = GAME.pending(state)[0].seat
        GAME.perform(state, seat, rng.choice(GAME.legal(state, seat)))
    assert checked > 100
