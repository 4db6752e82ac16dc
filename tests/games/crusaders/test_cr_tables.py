"""The tables built at import for speed against the loops they replace.

Each table stands for a computation that used to run on every decision; these tests rebuild
the same answers the old way, entry by entry, so a table that drifts from the rules fails
here before it reaches a record pin."""

from __future__ import annotations

from itertools import product

import pytest

from ludoteca.engine import Event, Rng
from ludoteca.games.crusaders import actions, economy, sowing
from ludoteca.games.crusaders.components import BUILDINGS

from .helpers import GAME, MOVE_A, play, started


def _loop_sow(w: int, n: int, move: dict) -> list[int]:
    """The sowing loop the tables replace (kept in rules as the fallback past them): token
    by token round the wheel; a plain sowing is clockwise from the next wedge."""
    tokens = [0] * 6
    if move is sowing.PLAIN_SOW:
        move = {"dir": "cw", "from": "next", "skip": -1, "double": -1}
    sowing._spread(tokens, w, n, move)
    return tokens


def test_sow_spreads_match_the_token_by_token_loop() -> None:
    checked = 0
    for w in range(6):
        for n in range(sowing._SOW_TABLE_TOKENS):
            assert list(sowing._PLAIN_SPREADS[w][n]) == _loop_sow(w, n, sowing.PLAIN_SOW)
            for order_id in sorted(sowing.SOW_ORDERS):
                shapes = sowing._SOW_BY_ORDER[order_id][w][n]
                assert list(shapes) == sowing._sow_shapes(w, n, economy.C.order_index[order_id])
                for shape in shapes:
                    key = (shape["from"], shape["dir"], shape["skip"], shape["double"])
                    assert list(sowing._SPREADS[w][n][key]) == _loop_sow(w, n, shape), (order_id, w, n, key)
                    checked += 1
    assert checked > 1000


@pytest.mark.parametrize("n", [3, 15, 16, 23])
def test_do_sow_inside_and_beyond_the_tables(n: int) -> None:
    """A wedge fuller than the tables falls back to the loops and sows the same way."""
    for order_id in (None, *sorted(sowing.SOW_ORDERS)):
        order = economy.C.order_index[order_id] if order_id else None
        for move in [sowing.PLAIN_SOW, *sowing._sow_shapes(2, n, order)]:
            state = started(3)
            p = state.players[state.current]
            p.tokens = [1, 0, n, 4, 0, 2]
            state.wedge = 2
            events: list[Event] = []
            sowing._do_sow(state, move, events)
            expected = [a + b for a, b in zip([1, 0, 0, 4, 0, 2], _loop_sow(2, n, move), strict=True)]
            assert p.tokens == expected
            assert events[-1].args["tokens"] == expected
            assert events[-1].args["tokens"] is not p.tokens


def test_turn_moves_match_the_wheel_for_every_pattern() -> None:
    state = started(3)
    p = state.players[state.current]
    for tokens, upgraded, learning in product(product((0, 1, 3), repeat=6), product((False, True), repeat=6),
                                              (False, True)):
        if tokens.count(1) > 1:  # 0 or not is all the moves depend on: keep the product small
            continue
        p.tokens = list(tokens)
        p.upgraded = list(upgraded)
        state.wheel_option = "learning" if learning else "shared"
        want = [{"type": "resolve", "wedge": pos} for pos, n in enumerate(tokens) if n > 0]
        if all(upgraded):
            want.append({"type": "skip"})
        elif not learning:
            want += [{"type": "upgrade", "wedge": pos} for pos, up in enumerate(upgraded) if not up]
        assert actions._legal_turn(state, p) == want


def test_split_table_matches_the_split_shapes() -> None:
    for wedge in economy.C.wedges:
        for n in range(actions._SPLIT_TABLE_TOKENS):
            assert actions._SPLIT_BY_WEDGE[wedge.id][n] == actions._split_shapes(n, wedge.action, wedge.upgrade)


def test_region_costs_match_build_cost() -> None:
    state = started(5)
    for seats, board in economy.BOARDS.items():
        state.seats = seats
        for r in range(len(board.regions)):
            tiles = ("", *(t.id for t in economy.C.tiles)) if r in board.slots else ("",)
            for tile in tiles:
                costs = economy._REGION_COSTS[seats][r][tile]
                state.tiles = [""] * len(board.regions)
                state.tiles[r] = tile
                state.buildings = [()] * len(board.regions)
                for b, name in enumerate(BUILDINGS):
                    for level in range(4):
                        state.players[0].built[b] = level
                        assert costs[b][level] == economy.build_cost(state, 0, name, r), (seats, r, tile, name)
                    state.players[0].built[b] = 0


def test_moves_are_fresh_and_shared_events_equal_new_ones() -> None:
    """Callers keep and change the moves they get; events are shared but equal what was built before."""
    state = started(3)
    seat = state.current
    first = GAME.legal(state, seat)
    for move in first:
        move["type"] = "spoiled"
    assert all(m["type"] != "spoiled" for m in GAME.legal(state, seat))
    events = play(state, seat, {"type": "resolve", "wedge": MOVE_A})
    action = next(e for e in events if e.key == "cr.action")
    value = actions.action_value(state, seat, "move", action.args["tokens"])
    assert action == Event("cr.action", {"seat": seat, "action": "move", "tokens": action.args["tokens"],
                                         "value": value})


def test_random_games_keep_fresh_moves_and_equal_events() -> None:
    """Every legal list of a few random games is made of new dicts, and every shared event still holds what
    it held when first emitted (nothing changed it in place)."""
    seen: list[tuple[Event, dict]] = []
    rng = Rng(5)
    for seed in range(3):
        state = GAME.setup(3, None, seed)
        while GAME.result(state) is None:
            seat = GAME.pending(state)[0].seat
            a = GAME.legal(state, seat)
            b = GAME.legal(state, seat)
            assert a == b and all(x is not y for x, y in zip(a, b, strict=True))
            for event in GAME.perform(state, seat, rng.choice(a)):
                seen.append((event, {k: (v[:] if isinstance(v, list) else v) for k, v in event.args.items()}))
    assert all(dict(event.args) == args for event, args in seen)
