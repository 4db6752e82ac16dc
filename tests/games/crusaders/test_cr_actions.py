"""CR-20 .. CR-33: the five actions, buildings, and the knight orders in play."""

from __future__ import annotations

from ludoteca.games.crusaders.actions import action_value
from ludoteca.games.crusaders.economy import build_cost

from .helpers import (
    BUILD,
    CRUSADE,
    GAME,
    INFLUENCE,
    MOVE_A,
    MUSTER,
    C,
    clear_map,
    idx,
    keys,
    legal_types,
    neighbours,
    play,
    quiet_region,
    rid,
    setup,
    started,
)


def _knight_at(state, seat: int, region: int, k: int = 0) -> None:
    state.players[seat].knights[k] = region


def test_cr_20_move_costs_one_or_two_and_points_are_shared() -> None:
    state = started(3)
    clear_map(state)
    a = quiet_region(state)
    b, c = neighbours(state, a)[:2]
    _knight_at(state, 0, a)
    _knight_at(state, 0, a, k=1)
    state.players[1].knights[0] = b  # another player's region may be entered
    state.players[0].tokens[MOVE_A] = 3
    play(state, 0, {"type": "resolve", "wedge": MOVE_A})
    assert state.phase == "move" and state.points == 3
    steps = [m for m in GAME.legal(state, 0) if m["type"] == "step"]
    assert {"type": "step", "knight": 0, "to": rid(state, b)} in steps
    assert {"type": "step", "knight": 1, "to": rid(state, c)} in steps
    assert all(idx(state, m["to"]) in neighbours(state, a) for m in steps)
    play(state, 0, {"type": "step", "knight": 0, "to": rid(state, b)})
    assert state.points == 2 and state.players[0].knights[0] == b
    state.enemy[a] = "slav"  # leaving an enemy's region costs 2
    play(state, 0, {"type": "step", "knight": 1, "to": rid(state, c)})
    assert state.points == 0 and state.current == 1  # no point left: the move ended and tokens were sown
    state2 = started(3)
    clear_map(state2)
    _knight_at(state2, 0, a)
    state2.enemy[a] = "prussian"
    state2.players[0].tokens[MOVE_A] = 1
    events = play(state2, 0, {"type": "resolve", "wedge": MOVE_A})
    assert "cr.sown" in keys(events) and state2.players[0].knights[0] == a  # 1 point cannot leave an enemy


def test_cr_20_knights_enter_enemy_regions_and_take_several_steps() -> None:
    state = started(3)
    clear_map(state)
    a = quiet_region(state)
    b = neighbours(state, a)[0]
    c = next(r for r in neighbours(state, b) if r != a)
    _knight_at(state, 0, a)
    state.enemy[b] = "prussian"
    state.players[0].tokens[MOVE_A] = 4
    play(state, 0, {"type": "resolve", "wedge": MOVE_A})
    play(state, 0, {"type": "step", "knight": 0, "to": rid(state, b)})  # entering costs nothing extra
    assert state.points == 3 and state.players[0].knights[0] == b
    play(state, 0, {"type": "step", "knight": 0, "to": rid(state, c)})  # leaving the enemy's region: 2
    assert state.points == 1 and state.players[0].knights[0] == c and state.phase == "move"
    play(state, 0, {"type": "stop"})
    assert state.current == 1 and state.enemy[b] == "prussian"  # moving in or through never fights


def test_cr_21_muster_needs_the_cost_and_gives_influence() -> None:
    state = started(3)
    p = state.players[0]
    p.tokens[MUSTER] = 1
    events = play(state, 0, {"type": "resolve", "wedge": MUSTER})
    assert p.troops == 0 and "cr.failed" in keys(events)
    q = state.players[1]
    q.tokens[MUSTER] = 2
    play(state, 1, {"type": "resolve", "wedge": MUSTER})
    assert q.troops == 1 and q.influence == 1
    r = state.players[2]
    r.troops = 2  # next troop costs 4
    r.built[2] = 2  # two farms: +2 muster
    r.tokens[MUSTER] = 2
    play(state, 2, {"type": "resolve", "wedge": MUSTER})
    assert r.troops == 3 and r.influence == 3


def test_cr_21_one_troop_per_muster() -> None:
    state = started(3)
    p = state.players[0]
    p.tokens[MUSTER] = 9  # enough for the first three troops' costs together (2 + 3 + 4)
    play(state, 0, {"type": "resolve", "wedge": MUSTER})
    assert p.troops == 1 and p.influence == C.troops[0].influence


def test_cr_22_crusade_needs_knight_enemy_and_strength() -> None:
    state = started(3)
    clear_map(state)
    a = quiet_region(state)
    b = neighbours(state, a)[0]
    far = next(r for r in range(len(state.enemy)) if r != a and r not in neighbours(state, a) and r != b)
    _knight_at(state, 0, a)
    state.enemy[a] = "slav"  # strength 4
    state.enemy[b] = "prussian"  # no knight there
    state.enemy[far] = "prussian"
    p = state.players[0]
    p.tokens[CRUSADE] = 3
    events = play(state, 0, {"type": "resolve", "wedge": CRUSADE})
    assert "cr.failed" in keys(events) and state.enemy[a] == "slav"  # 3 < 4
    state = started(3)
    clear_map(state)
    _knight_at(state, 0, a)
    state.enemy[a] = "slav"
    state.enemy[b] = "prussian"
    p = state.players[0]
    p.troops = 1
    p.built[0] = 2  # two castles: +1 crusade
    p.tokens[CRUSADE] = 2
    assert action_value(state, 0, "crusade", 2) == 4
    play(state, 0, {"type": "resolve", "wedge": CRUSADE})
    assert GAME.legal(state, 0) == [{"type": "crusade", "region": rid(state, a)}, {"type": "pass"}]


def test_cr_22_one_enemy_per_crusade() -> None:
    state = started(3)
    clear_map(state)
    a = quiet_region(state)
    b = neighbours(state, a)[0]
    _knight_at(state, 0, a)
    _knight_at(state, 0, b, k=1)
    state.enemy[a] = "prussian"
    state.enemy[b] = "slav"
    state.players[0].tokens[CRUSADE] = 9  # strong enough for both
    play(state, 0, {"type": "resolve", "wedge": CRUSADE})
    assert {m["region"] for m in GAME.legal(state, 0) if m["type"] == "crusade"} == {rid(state, a), rid(state, b)}
    play(state, 0, {"type": "crusade", "region": rid(state, a)})
    assert state.enemy[a] == "" and state.enemy[b] == "slav"
    assert state.current == 1 and state.players[0].defeated == [1, 0, 0]


def test_cr_23_prussians_and_slavs_give_strength_and_advance() -> None:
    state = started(3)
    clear_map(state)
    a = quiet_region(state)
    _knight_at(state, 0, a)
    state.enemy[a] = "prussian"
    state.track = [2, 0]  # strength 4
    p = state.players[0]
    p.tokens[CRUSADE] = 4
    supply = state.supply
    play(state, 0, {"type": "resolve", "wedge": CRUSADE})
    events = play(state, 0, {"type": "crusade", "region": rid(state, a)})
    assert p.influence == 4 and state.supply == supply - 4
    assert state.track == [3, 0] and state.enemy[a] == ""
    assert "cr.defeated" in keys(events)


def test_cr_23_influence_is_the_strength_before_the_marker_moves() -> None:
    state = started(3)
    clear_map(state)
    a = quiet_region(state)
    b = quiet_region(state, avoid=(a,))
    c = quiet_region(state, avoid=(a, b))
    state.track = [1, 1]  # Prussians 3 (next step 4), Slavs 4 (next step 5)
    _knight_at(state, 0, a)
    state.enemy[a] = "prussian"
    state.players[0].tokens[CRUSADE] = 6
    play(state, 0, {"type": "resolve", "wedge": CRUSADE})
    play(state, 0, {"type": "crusade", "region": rid(state, a)})
    assert state.players[0].influence == 3 and state.track == [2, 1]
    state.players[1].knights[0] = b
    state.enemy[b] = "slav"
    state.players[1].tokens[CRUSADE] = 6
    play(state, 1, {"type": "resolve", "wedge": CRUSADE})
    play(state, 1, {"type": "crusade", "region": rid(state, b)})
    assert state.players[1].influence == 4 and state.track == [2, 2]
    state.players[2].knights[0] = c
    state.enemy[c] = "saracen:farm"  # Saracens have no track
    state.players[2].tokens[CRUSADE] = 6
    play(state, 2, {"type": "resolve", "wedge": CRUSADE})
    play(state, 2, {"type": "crusade", "region": rid(state, c)})
    assert state.track == [2, 2]


def test_cr_24_saracen_gives_building_troop_or_three() -> None:
    state = started(3)
    clear_map(state)
    a = quiet_region(state)
    _knight_at(state, 0, a)
    state.enemy[a] = "saracen:church"
    p = state.players[0]
    p.tokens[CRUSADE] = 6
    play(state, 0, {"type": "resolve", "wedge": CRUSADE})
    play(state, 0, {"type": "crusade", "region": rid(state, a)})
    assert state.phase == "saracen"
    assert GAME.legal(state, 0) == [{"type": "saracen", "take": "building"}, {"type": "saracen", "take": "influence"}]
    play(state, 0, {"type": "saracen", "take": "building"})
    assert state.buildings[a] == ((0, "church", 1),) and p.built[1] == 1 and p.influence == 1
    # a troop Saracen
    q = state.players[1]
    b = quiet_region(state, avoid=(a,))
    state.players[1].knights[0] = b
    state.enemy[b] = "saracen:troop"
    q.tokens[CRUSADE] = 6
    play(state, 1, {"type": "resolve", "wedge": CRUSADE})
    play(state, 1, {"type": "crusade", "region": rid(state, b)})
    play(state, 1, {"type": "saracen", "take": "troop"})
    assert q.troops == 1 and q.influence == 1
    # nothing left to take: 3 influence, automatically
    r = state.players[2]
    r.built[3] = 4
    c = quiet_region(state, avoid=(a, b))
    r.knights[0] = c
    state.enemy[c] = "saracen:bank"
    r.tokens[CRUSADE] = 6
    play(state, 2, {"type": "resolve", "wedge": CRUSADE})
    play(state, 2, {"type": "crusade", "region": rid(state, c)})
    assert r.influence == 3 and state.current == 0


def test_cr_24_troop_saracen_after_the_last_troop_gives_three() -> None:
    state = started(3)
    clear_map(state)
    a = quiet_region(state)
    _knight_at(state, 0, a)
    state.enemy[a] = "saracen:troop"
    p = state.players[0]
    p.troops = len(C.troops)
    p.tokens[CRUSADE] = 2  # 2 tokens + 5 troops: 7
    play(state, 0, {"type": "resolve", "wedge": CRUSADE})
    play(state, 0, {"type": "crusade", "region": rid(state, a)})
    assert p.influence == 3 and p.troops == len(C.troops) and state.current == 1


def test_cr_25_beaten_tokens_are_kept_as_trophies() -> None:
    state = started(3)
    clear_map(state)
    a = quiet_region(state)
    _knight_at(state, 0, a)
    state.enemy[a] = "saracen:farm"
    state.players[0].tokens[CRUSADE] = 6
    play(state, 0, {"type": "resolve", "wedge": CRUSADE})
    play(state, 0, {"type": "crusade", "region": rid(state, a)})
    play(state, 0, {"type": "saracen", "take": "influence"})
    assert state.players[0].defeated == [0, 0, 1] and state.enemy[a] == ""
    from ludoteca.games.crusaders.views import view

    assert view(state, 1)["players"][0]["defeated"] == {"prussian": 0, "slav": 0, "saracen": 1}


def test_cr_26_influence_action_adds_church_farm_bank_bonuses() -> None:
    state = started(3)
    p = state.players[0]
    p.built = [0, 1, 3, 2]  # church 1: +1; farms 2 and 3: +2; banks 1 and 2: +2
    p.tokens[INFLUENCE] = 2
    play(state, 0, {"type": "resolve", "wedge": INFLUENCE})
    assert p.influence == 7
    p.built = [3, 0, 1, 0]  # castles and the first farm add nothing to Influence
    assert action_value(state, 0, "influence", 2) == 2


def _build_state(tokens: int = 2):
    state = started(3)
    clear_map(state)
    a = quiet_region(state)
    _knight_at(state, 0, a)
    state.players[0].tokens[BUILD] = tokens
    return state, a


def test_cr_27_build_cost_with_bank_bonus_and_discounts() -> None:
    state, a = _build_state(2)
    play(state, 0, {"type": "resolve", "wedge": BUILD})
    options = {(m["building"], m["region"]) for m in GAME.legal(state, 0) if m["type"] == "build"}
    assert options == {(name, rid(state, a)) for name in ("castle", "church", "farm", "bank")}
    # the second castle costs 3: out of reach with 2 tokens, until the first bank uncovers +1 Build
    state, a = _build_state(2)
    state.players[0].built[0] = 1
    state.players[0].knights[1] = -1
    play(state, 0, {"type": "resolve", "wedge": BUILD})
    assert {"type": "build", "building": "castle", "region": rid(state, a)} not in GAME.legal(state, 0)
    state, a = _build_state(2)
    state.players[0].built[0] = 1
    state.players[0].built[3] = 1
    play(state, 0, {"type": "resolve", "wedge": BUILD})
    assert {"type": "build", "building": "castle", "region": rid(state, a)} in GAME.legal(state, 0)
    # printed discount and tile discount both lower the cost
    board = C.board_for(3)
    disc = next(r for r, reg in enumerate(board.regions) if reg.discount)
    kind = board.regions[disc].discount[0][0]
    state, _ = _build_state(1)
    state.players[0].knights[0] = disc
    state.players[0].built[["castle", "church", "farm", "bank"].index(kind)] = 2
    assert build_cost(state, 0, kind, disc) == C.buildings[kind].costs[2] - 1
    state.tiles[disc] = f"bt-{kind}-discount"
    assert build_cost(state, 0, kind, disc) == C.buildings[kind].costs[2] - 3
    state.tiles[disc] = "bt-castle-influence" if kind != "castle" else "bt-bank-influence"
    assert build_cost(state, 0, kind, disc) == C.buildings[kind].costs[2] - 1


def test_cr_27_one_building_per_build_action() -> None:
    state, a = _build_state(9)
    b = quiet_region(state, avoid=(a, *neighbours(state, a)))
    _knight_at(state, 0, b, k=1)
    play(state, 0, {"type": "resolve", "wedge": BUILD})
    assert {m["region"] for m in GAME.legal(state, 0) if m["type"] == "build"} == {rid(state, a), rid(state, b)}
    play(state, 0, {"type": "build", "building": "church", "region": rid(state, a)})
    assert state.current == 1 and state.buildings[b] == () and state.players[0].built == [0, 1, 0, 0]


def test_cr_28_build_only_with_knight_no_enemy_free_space() -> None:
    state, a = _build_state(5)
    b = neighbours(state, a)[0]
    _knight_at(state, 0, b, k=1)
    state.enemy[b] = "slav"
    c = neighbours(state, a)[1]
    _knight_at(state, 0, c, k=2)
    state.buildings[c] = ((1, "farm", 1),)
    play(state, 0, {"type": "resolve", "wedge": BUILD})
    regions = {m["region"] for m in GAME.legal(state, 0) if m["type"] == "build"}
    assert regions == {rid(state, a)}


def test_cr_28_a_crusade_frees_its_region_for_a_build() -> None:
    state, a = _build_state(0)
    p = state.players[0]
    state.enemy[a] = "prussian"
    p.upgraded[CRUSADE] = True  # Crusade / Build
    p.tokens[CRUSADE] = 5
    play(state, 0, {"type": "resolve", "wedge": CRUSADE})
    play(state, 0, {"type": "split", "primary": 3, "first": "crusade"})
    play(state, 0, {"type": "crusade", "region": rid(state, a)})
    assert state.phase == "build"
    assert {"type": "build", "building": "castle", "region": rid(state, a)} in GAME.legal(state, 0)
    play(state, 0, {"type": "build", "building": "castle", "region": rid(state, a)})
    assert state.buildings[a] == ((0, "castle", 1),)


def test_cr_29_build_influence_level_plus_region_and_tile() -> None:
    state, a = _build_state(3)
    p = state.players[0]
    p.built[1] = 1
    state.tiles[a] = "bt-church-influence"
    play(state, 0, {"type": "resolve", "wedge": BUILD})
    play(state, 0, {"type": "build", "building": "church", "region": rid(state, a)})
    assert p.influence == 2 + 2 and p.built[1] == 2
    board = C.board_for(3)
    r = next(r for r, reg in enumerate(board.regions) if reg.influence and not reg.discount)
    kind = board.regions[r].influence[0][0]
    state, _ = _build_state(6)
    state.players[0].knights[0] = r
    play(state, 0, {"type": "resolve", "wedge": BUILD})
    play(state, 0, {"type": "build", "building": kind, "region": rid(state, r)})
    assert state.players[0].influence == 1 + 1


def test_cr_30_uncovered_bonuses_add_up() -> None:
    state = started(3)
    p = state.players[0]
    values = []
    for farms in range(4):
        p.built[2] = farms
        values.append(action_value(state, 0, "muster", 1))
    assert values == [1, 2, 3, 4]  # the first three farms: +3 to every later Muster
    p.built = [2, 2, 0, 0]
    assert action_value(state, 0, "move", 1) == 1 + 1 + 1


def test_cr_31_castle_unlocks_a_knight_in_its_region() -> None:
    state, a = _build_state(3)
    play(state, 0, {"type": "resolve", "wedge": BUILD})
    events = play(state, 0, {"type": "build", "building": "castle", "region": rid(state, a)})
    p = state.players[0]
    assert p.knights == [a, a, -1] and "cr.knight_unlocked" in keys(events)
    p.built[0] = 2
    b = quiet_region(state, avoid=(a,))
    p.knights[0] = b
    state.players[1].tokens[INFLUENCE] = 1
    play(state, 1, {"type": "resolve", "wedge": INFLUENCE})
    play(state, 2, {"type": "resolve", "wedge": INFLUENCE})
    p.tokens[BUILD] = 5
    play(state, 0, {"type": "resolve", "wedge": BUILD})
    play(state, 0, {"type": "build", "building": "castle", "region": rid(state, b)})
    assert p.knights == [b, a, b]


def test_cr_31_castle_from_a_saracen_unlocks_a_knight() -> None:
    state = started(3)
    clear_map(state)
    a = quiet_region(state)
    _knight_at(state, 0, a)
    state.enemy[a] = "saracen:castle"
    p = state.players[0]
    p.tokens[CRUSADE] = 6
    play(state, 0, {"type": "resolve", "wedge": CRUSADE})
    play(state, 0, {"type": "crusade", "region": rid(state, a)})
    events = play(state, 0, {"type": "saracen", "take": "building"})
    assert state.buildings[a] == ((0, "castle", 1),) and p.knights == [a, a, -1]
    assert "cr.knight_unlocked" in keys(events) and p.influence == 1


def _ordered(order: str):
    state = setup(2, knight_orders=True)
    others = [o.id for o in C.orders if o.id != order]
    state.players[0].offers = sorted([order, others[0]])
    state.players[1].offers = others[1:3]
    state.box = others[3:]
    play(state, 0, {"type": "order", "order": order})
    play(state, 1, {"type": "order", "order": state.players[1].offers[0]})
    while state.phase == "setup":
        seat = GAME.pending(state)[0].seat
        play(state, seat, GAME.legal(state, seat)[0])
    return state


def test_cr_32_order_bonuses() -> None:
    state = _ordered("calatrava")
    assert [action_value(state, 0, a, 1) for a in ("move", "muster", "crusade", "influence", "build")] == [2] * 5
    state = _ordered("montesa")
    assert action_value(state, 0, "move", 2) == 3 and action_value(state, 0, "build", 2) == 2
    state = _ordered("sepulchre")
    assert action_value(state, 0, "move", 3) == 2 and action_value(state, 0, "move", 0) == 0


def test_cr_33_order_sowing_variants() -> None:
    state = _ordered("teutonic")
    state.players[0].tokens = [2, 2, 2, 3, 2, 2]
    play(state, 0, {"type": "resolve", "wedge": INFLUENCE})
    assert state.phase == "sow"
    moves = GAME.legal(state, 0)
    assert {m["dir"] for m in moves} == {"cw", "ccw"} and len(moves) == 2
    play(state, 0, {"type": "sow", "from": "next", "dir": "ccw", "skip": -1, "double": -1})
    assert state.players[0].tokens == [3, 3, 3, 0, 2, 2]
    state = _ordered("aviz")
    p = state.players[0]
    p.tokens = [2, 2, 2, 2, 2, 2]
    play(state, 0, {"type": "resolve", "wedge": INFLUENCE})
    play(state, 0, {"type": "sow", "from": "same", "dir": "cw", "skip": -1, "double": -1})
    assert p.tokens == [2, 2, 2, 1, 3, 2]
    state = _ordered("hospitaller")
    p = state.players[0]
    p.tokens = [2, 2, 2, 2, 2, 2]
    play(state, 0, {"type": "resolve", "wedge": INFLUENCE})
    assert {m["skip"] for m in GAME.legal(state, 0)} == {-1, 4, 5}
    play(state, 0, {"type": "sow", "from": "next", "dir": "cw", "skip": 4, "double": -1})
    assert p.tokens == [3, 2, 2, 0, 2, 3]
    state = _ordered("templar")
    p = state.players[0]
    p.tokens = [2, 2, 2, 3, 2, 2]
    play(state, 0, {"type": "resolve", "wedge": INFLUENCE})
    assert {m["double"] for m in GAME.legal(state, 0)} == {-1, 4, 5}
    play(state, 0, {"type": "sow", "from": "next", "dir": "cw", "skip": -1, "double": 4})
    assert p.tokens == [2, 2, 2, 0, 4, 3]
    state = started(2)
    state.players[0].tokens = [2, 2, 2, 3, 2, 2]
    events = play(state, 0, {"type": "resolve", "wedge": INFLUENCE})
    assert "cr.sown" in keys(events) and "sow" not in legal_types(state, 1)


def test_cr_33_order_sowing_also_after_an_upgrade() -> None:
    state = _ordered("teutonic")
    p = state.players[0]
    p.tokens = [2, 2, 2, 3, 2, 2]
    play(state, 0, {"type": "upgrade", "wedge": MUSTER})
    play(state, 0, {"type": "sow_wedge", "wedge": INFLUENCE})
    assert state.phase == "sow" and {m["dir"] for m in GAME.legal(state, 0)} == {"cw", "ccw"}
    play(state, 0, {"type": "sow", "from": "next", "dir": "ccw", "skip": -1, "double": -1})
    assert p.tokens == [3, 3, 3, 0, 2, 2] and p.influence == 0 and state.current == 1
