"""CR-34 .. CR-40: the end, scoring, five seats, hidden information."""

from __future__ import annotations

import json

from ludoteca.engine import Rng
from ludoteca.games.crusaders.scoring import building_points, majority_awards
from ludoteca.games.crusaders.views import determinize, secrets, view

from .helpers import BUILD, GAME, INFLUENCE, MUSTER, C, clear_map, keys, play, quiet_region, rid, setup, started


def test_cr_34_empty_supply_ends_the_round_influence_unlimited() -> None:
    state = started(3)
    state.supply = 2
    state.players[1].tokens[INFLUENCE] = 3
    play(state, 0, {"type": "resolve", "wedge": INFLUENCE})  # 2 influence: the supply is empty
    assert state.supply == 0 and state.ending and state.phase == "turn"
    events = play(state, 1, {"type": "resolve", "wedge": INFLUENCE})
    assert state.players[1].influence == 3 and state.supply == 0  # unlimited meanwhile
    assert GAME.result(state) is None and state.current == 2
    events = play(state, 2, {"type": "resolve", "wedge": INFLUENCE})
    assert "cr.game_over" in keys(events)
    assert state.phase == "over" and GAME.result(state) is not None
    assert [p.influence for p in state.players] == [2, 3, 2]
    assert GAME.legal(state, 0) == [] and GAME.pending(state) == []


def test_cr_34_the_round_is_finished_after_the_trigger() -> None:
    state = started(2)
    state.supply = 1
    play(state, 0, {"type": "resolve", "wedge": MUSTER})  # troop 1 for 2 tokens: 1 influence
    assert state.ending and state.current == 1
    play(state, 1, {"type": "resolve", "wedge": INFLUENCE})
    assert GAME.result(state) is not None


def test_cr_35_safety_round_limit() -> None:
    state = started(2)
    state.round = C.round_limit - 1
    play(state, 0, {"type": "resolve", "wedge": INFLUENCE})
    assert GAME.result(state) is None
    play(state, 1, {"type": "resolve", "wedge": INFLUENCE})
    assert state.phase == "over" and not state.ending
    assert C.round_limit == 60 and GAME.max_moves >= C.round_limit * 5 * 23


def test_cr_36_majorities_seed_example() -> None:
    assert majority_awards([2, 2, 2, 1]) == [3, 3, 3, 2]
    assert majority_awards([3, 1, 0]) == [5, 2, 0]
    assert majority_awards([3, 1, 1]) == [5, 0, 0]  # tied seconds get nothing
    assert majority_awards([0, 0, 0]) == [0, 0, 0]  # at least one token
    assert majority_awards([1, 0, 0, 0]) == [5, 0, 0, 0]
    assert majority_awards([2, 2, 0]) == [3, 3, 0]
    state = started(4)
    for seat, counts in enumerate(([2, 0, 1], [2, 1, 0], [2, 0, 0], [1, 0, 0])):
        state.players[seat].defeated = counts
    state.phase = "over"
    rows = GAME.result(state).breakdown
    assert [r["majorities"]["prussian"] for r in rows] == [3, 3, 3, 2]
    assert [r["majorities"]["slav"] for r in rows] == [0, 5, 0, 0]
    assert [r["majorities"]["saracen"] for r in rows] == [5, 0, 0, 0]


def test_cr_37_level_four_buildings_score() -> None:
    state = started(3)
    p = state.players[0]
    p.built = [4, 4, 4, 4]
    p.defeated = [3, 2, 5]
    p.troops = 4
    p.knights = [1, 2, -1]
    assert building_points(state, 0) == {"castle": 8, "church": 6, "farm": 6, "bank": 16}
    q = state.players[1]
    q.built = [3, 0, 0, 4]
    assert building_points(state, 1) == {"bank": 4}
    assert building_points(state, 2) == {}


def test_cr_38_most_influence_wins_tie_to_earlier_seat() -> None:
    state = started(3)
    state.players[0].influence = 20
    state.players[1].influence = 25
    state.players[2].influence = 25
    state.phase = "over"
    result = GAME.result(state)
    assert result.scores == (20, 25, 25)
    assert result.ranks == (3, 1, 2) and result.winners == (1,)
    state.players[0].defeated = [1, 0, 0]  # +5 majority
    state.players[0].built[1] = 4  # +6 church
    result = GAME.result(state)
    assert result.scores[0] == 31 and result.winners == (0,)
    assert result.breakdown[0]["buildings"] == {"church": 6}


def test_cr_39_five_seats_two_buildings_bonus_only_first() -> None:
    state = started(5)
    clear_map(state)
    board = C.board_for(5)
    a = next(r for r, reg in enumerate(board.regions) if reg.discount and not reg.start)
    kind = board.regions[a].discount[0][0]
    state.tiles[a] = f"bt-{kind}-influence"
    for seat in (0, 1, 2):
        state.players[seat].knights[0] = a
    state.players[0].tokens[BUILD] = 5
    play(state, 0, {"type": "resolve", "wedge": BUILD})
    play(state, 0, {"type": "build", "building": kind, "region": rid(state, a)})
    assert state.players[0].influence == 1 + 2
    state.players[1].built[["castle", "church", "farm", "bank"].index(kind)] = 0
    from ludoteca.games.crusaders.economy import build_cost

    assert build_cost(state, 1, kind, a) == C.buildings[kind].costs[0]  # no discount for the second
    state.players[1].tokens[BUILD] = 5
    play(state, 1, {"type": "resolve", "wedge": BUILD})
    play(state, 1, {"type": "build", "building": kind, "region": rid(state, a)})
    assert state.players[1].influence == 1 and len(state.buildings[a]) == 2
    state.players[2].tokens[BUILD] = 5
    events = play(state, 2, {"type": "resolve", "wedge": BUILD})
    assert "cr.failed" in keys(events)  # a third building never fits
    small = started(3)
    clear_map(small)
    b = quiet_region(small)
    small.buildings[b] = ((1, "farm", 1),)
    small.players[0].knights[0] = b
    small.players[0].tokens[BUILD] = 5
    events = play(small, 0, {"type": "resolve", "wedge": BUILD})
    assert "cr.failed" in keys(events)  # one building per region below five seats


def test_cr_40_hidden_information() -> None:
    state = setup(4, knight_orders=True)
    sec = secrets(state)
    assert sec[None] == set(state.box) and len(sec[None]) == 2
    for seat in range(4):
        assert sec[seat] == set(state.players[seat].offers)
        for reader in (None, *[r for r in range(4) if r != seat]):
            text = json.dumps(view(state, reader))
            assert all(json.dumps(o) not in text for o in state.players[seat].offers)
    assert view(state, 2)["players"][2]["offers"] == state.players[2].offers
    play(state, 1, {"type": "order", "order": state.players[1].offers[0]})
    sampled = determinize(state, 0, Rng(5))
    assert view(sampled, 0) == view(state, 0)
    assert sampled.players[0].offers == state.players[0].offers
    all_orders = sorted(o for p in sampled.players for o in p.offers) + sampled.box
    assert sorted(all_orders) == sorted(o.id for o in C.orders)
    assert any(determinize(state, 0, Rng(s)).players[1].offers != state.players[1].offers for s in range(10))
    for seat in (0, 2, 3):
        play(state, seat, {"type": "order", "order": state.players[seat].offers[1]})
    sec = secrets(state)
    assert sec[1] == {state.players[1].rejected}
    text = json.dumps(view(state, 0))
    assert json.dumps(state.players[1].rejected) not in text and json.dumps(state.players[1].order) in text
    # everything else is open: two seats see the same board and wheels
    a, b = view(state, 0), view(state, 3)
    assert a["regions"] == b["regions"] and [p["wheel"] for p in a["players"]] == [p["wheel"] for p in b["players"]]


def test_cr_40_the_reveal_cannot_be_taken_back() -> None:
    from ludoteca.engine import Match

    match = Match.new("crusaders", 2, {"knight_orders": True}, 3, game=GAME)
    first = match.legal(0)[0]
    match.play(0, first)
    assert match.can_undo(0)
    match.play(1, match.legal(1)[0])
    assert match.state.revealed and not match.can_undo(1)


def test_cr_34_emptied_by_the_last_seat_the_game_ends_at_once() -> None:
    state = started(3)
    play(state, 0, {"type": "resolve", "wedge": INFLUENCE})
    play(state, 1, {"type": "resolve", "wedge": INFLUENCE})
    state.supply = 1
    events = play(state, 2, {"type": "resolve", "wedge": INFLUENCE})  # the last seat empties the supply
    assert state.ending and "cr.game_over" in keys(events)
    assert state.phase == "over" and state.round == 1 and GAME.result(state) is not None


def test_cr_36_tied_firsts_then_tied_seconds() -> None:
    assert majority_awards([2, 2, 1, 1]) == [3, 3, 0, 0]  # the next count is tied: no second place
    assert majority_awards([1, 3, 1, 0, 0]) == [0, 5, 0, 0, 0]
    assert majority_awards([0, 1, 0]) == [0, 5, 0]  # one token is enough for first; nobody is second
