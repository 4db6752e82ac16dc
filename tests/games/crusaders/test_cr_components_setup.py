"""CR-1 .. CR-13: components and setup."""

from __future__ import annotations

from collections import Counter

from ludoteca.games.crusaders.components import BUILDINGS
from ludoteca.games.crusaders.views import view

from .helpers import GAME, INFLUENCE, MOVE_A, C, finish_setup, legal_types, play, setup, started


def test_cr_1_board_sides_regions_and_adjacency() -> None:
    small, large = C.board_for(2), C.board_for(3)
    assert C.board_for(4) is large and C.board_for(5) is large
    assert (len(small.regions), len(small.starts)) == (43, 3)
    assert (len(large.regions), len(large.starts)) == (61, 5)
    for board in (small, large):
        for r, nbs in enumerate(board.neighbours):
            assert 1 <= len(nbs) <= 6
            for nb in nbs:
                assert r in board.neighbours[nb]
        assert any(reg.discount for reg in board.regions)
        assert any(reg.influence for reg in board.regions)
        assert board.flags and board.slots
    state = started(2)
    assert state.side == "small" and len(state.enemy) == 43
    assert started(5).side == "large"


def test_cr_2_enemy_tokens_on_flags() -> None:
    pool = Counter(C.enemy_tokens)
    assert len(C.enemy_tokens) == 30  # 32 minus the two track markers
    assert pool["prussian"] == 10 and pool["slav"] == 10
    assert sum(n for t, n in pool.items() if t.startswith("saracen:")) == 10
    for seats in (2, 3):
        state = setup(seats, seed=4)
        board = C.board_for(seats)
        for r in range(len(board.regions)):
            assert bool(state.enemy[r]) == (r in board.flags)
        placed = Counter(t for t in state.enemy if t)
        assert all(placed[t] <= pool[t] for t in placed)
        assert all(t.split(":")[1] in (*BUILDINGS, "troop") for t in placed if t.startswith("saracen"))
    assert setup(3, seed=1).enemy != setup(3, seed=2).enemy


def test_cr_3_bonus_tiles_on_bonus_spaces() -> None:
    state = setup(3, seed=7)
    board = C.board_for(3)
    placed = [t for t in state.tiles if t]
    assert len(placed) == len(board.slots) == len(set(placed))
    for r in range(len(board.regions)):
        assert bool(state.tiles[r]) == (r in board.slots)
    assert setup(3, seed=1).tiles != setup(3, seed=3).tiles


def test_cr_4_enemy_strength_tracks() -> None:
    state = started(3)
    from ludoteca.games.crusaders.economy import enemy_strength

    assert enemy_strength(state, "prussian") == 3 and enemy_strength(state, "slav") == 4
    state.track = [4, 9]
    assert enemy_strength(state, "prussian") == 5 and enemy_strength(state, "slav") == 8
    state.track = [50, 50]
    assert enemy_strength(state, "prussian") == 8 and enemy_strength(state, "slav") == 9
    assert enemy_strength(state, "saracen:farm") == 6
    assert view(state, None)["tracks"]["slav"]["strength"] == 9


def test_cr_5_influence_supply_by_seats() -> None:
    assert [setup(n).supply for n in (2, 3, 4, 5)] == [140, 200, 260, 320]


def test_cr_6_action_wheel() -> None:
    state = started(3)
    p = state.players[0]
    assert p.tokens == [2] * 6 and sum(p.tokens) == 12
    actions = Counter(C.wedges[C.wedge_index[w]].action for w in p.wheel)
    assert actions == Counter({"move": 2, "muster": 1, "crusade": 1, "influence": 1, "build": 1})
    wheel = view(state, 0)["players"][0]["wheel"]
    assert all(w["upgrade"] != w["action"] for w in wheel)
    assert not any(w["upgraded"] for w in wheel)


def test_cr_7_knights_one_on_the_map_two_waiting() -> None:
    state = started(4)
    for p in state.players:
        assert len(p.knights) == 3
        assert sum(1 for k in p.knights if k >= 0) == 1
        assert p.knights[1:] == [-1, -1]


def test_cr_8_buildings_levels_costs_influence() -> None:
    assert C.buildings["castle"].costs == (2, 3, 4, 5)
    for name in ("church", "farm", "bank"):
        assert C.buildings[name].costs == (1, 2, 3, 4)
    state = started(3)
    v = view(state, 0)["players"][0]
    assert v["buildings"] == dict.fromkeys(BUILDINGS, 0)
    assert v["next_costs"] == {"castle": 2, "church": 1, "farm": 1, "bank": 1}
    state.players[0].built[1] = 2
    assert view(state, 0)["players"][0]["next_costs"]["church"] == 3
    state.players[0].built[1] = 4
    assert view(state, 0)["players"][0]["next_costs"]["church"] is None


def test_cr_9_troops_costs_and_strength() -> None:
    assert [t.cost for t in C.troops] == [2, 3, 4, 5, 6]
    assert [t.influence for t in C.troops] == [1, 2, 3, 4, 5]
    from ludoteca.games.crusaders.actions import action_value

    state = started(3)
    assert action_value(state, 0, "crusade", 2) == 2
    state.players[0].troops = 3
    assert action_value(state, 0, "crusade", 2) == 5


def test_cr_10_knight_orders_draw_two_keep_one() -> None:
    state = setup(3, knight_orders=True)
    offers = [p.offers for p in state.players]
    assert all(len(o) == 2 for o in offers)
    assert len({o for pair in offers for o in pair}) == 6
    assert len(state.box) == 4
    assert [d.seat for d in GAME.pending(state)] == [0, 1, 2]
    assert legal_types(state, 0) == {"order"}
    events = play(state, 0, {"type": "order", "order": offers[0][1]})
    assert [e.to for e in events if e.key == "cr.order_you_chose"] == [0]
    assert view(state, 1)["players"][0]["order"] is None
    assert view(state, 1)["players"][0]["order_chosen"] is True
    assert view(state, 0)["players"][0]["order"] == offers[0][1]
    assert [d.seat for d in GAME.pending(state)] == [1, 2]
    play(state, 2, {"type": "order", "order": offers[2][0]})
    events = play(state, 1, {"type": "order", "order": offers[1][0]})
    assert "cr.orders_revealed" in [e.key for e in events]
    assert state.revealed
    assert [view(state, 2)["players"][s]["order"] for s in range(3)] == [offers[0][1], offers[1][0], offers[2][0]]
    assert state.players[0].rejected == offers[0][0]
    assert "rejected" not in view(state, 1)["players"][0]


def _with_order(order: str, seats: int = 2) -> object:
    state = setup(seats, knight_orders=True)
    others = [o.id for o in C.orders if o.id != order]
    state.players[0].offers = sorted([order, others[0]])
    for seat in range(1, seats):
        state.players[seat].offers = others[2 * seat - 1: 2 * seat + 1]
    state.box = others[2 * seats - 1:]
    play(state, 0, {"type": "order", "order": order})
    for seat in range(1, seats):
        play(state, seat, {"type": "order", "order": state.players[seat].offers[0]})
    return state


def test_cr_11_knight_order_setup_changes() -> None:
    state = _with_order("calatrava")
    assert state.players[0].tokens == [1] * 6
    state = _with_order("sepulchre")
    assert state.players[0].tokens == [3, 3, 2, 2, 2, 2]
    state = _with_order("templar")
    assert GAME.pending(state)[0].prompt.key == "cr.prompt.setup_remove"
    play(state, 0, {"type": "remove_token", "wedge": 1})
    assert {"type": "remove_token", "wedge": 1} not in GAME.legal(state, 0)
    play(state, 0, {"type": "remove_token", "wedge": 4})
    assert state.players[0].tokens == [2, 1, 2, 2, 1, 2]
    state = _with_order("lazarus")
    play(state, 0, {"type": "remove_token", "wedge": 0})
    for w in (1, 2, 3):
        play(state, 0, {"type": "setup_upgrade", "wedge": w})
    assert sum(state.players[0].tokens) == 11
    assert state.players[0].upgraded == [False, True, True, True, False, False]
    state = _with_order("alcantara")
    play(state, 0, {"type": "add_token", "wedge": INFLUENCE})
    play(state, 0, {"type": "setup_upgrade", "wedge": MOVE_A})
    assert sum(state.players[0].tokens) == 13 and state.players[0].tokens[INFLUENCE] == 3
    assert state.players[0].upgraded[MOVE_A]
    state = _with_order("montesa")
    finish_setup(state)
    knights = state.players[0].knights
    assert len(knights) == 4 and knights[0] == knights[3] >= 0


def test_cr_12_wheel_arrangement_option() -> None:
    shared = setup(4, seed=3, wheel="shared")
    assert len({p.wheel for p in shared.players}) == 1
    individual = [setup(4, seed=s, wheel="individual") for s in range(5)]
    assert any(len({p.wheel for p in st.players}) > 1 for st in individual)
    # the player aid's first-game picture, clockwise from the top
    first = setup(3, wheel="first_game")
    assert first.players[0].wheel == ("move_a", "crusade", "influence", "move_b", "build", "muster")
    assert [C.wedges[C.wedge_index[w]].upgrade for w in first.players[0].wheel] == [
        "build", "build", "move", "crusade", "influence", "influence"]
    assert len({setup(3, seed=s, wheel="shared").players[0].wheel for s in range(6)}) > 1


def test_cr_13_first_knights_reverse_order_free_start_regions() -> None:
    state = setup(4)
    board = C.board_for(4)
    order = []
    while state.phase == "setup":
        seat = GAME.pending(state)[0].seat
        order.append(seat)
        moves = GAME.legal(state, seat)
        assert len(moves) == len(board.starts) - len(order) + 1
        taken = {k for p in state.players for k in p.knights if k >= 0}
        assert all(board.index[m["region"]] in board.starts and board.index[m["region"]] not in taken
                   for m in moves)
        play(state, seat, moves[-1])
    assert order == [3, 2, 1, 0]
    assert len({p.knights[0] for p in state.players}) == 4
    assert state.phase == "turn" and state.current == 0
