"""IW-19 to IW-23: feats, expeditions and the three named maps."""

from __future__ import annotations

from iwari_helpers import GAME, board, deal, legal_types, new, play, put_tents, put_totems, tindex

from ludoteca.engine import Event
from ludoteca.games.iwari import expeditions as expeditions_module
from ludoteca.games.iwari import feats
from ludoteca.games.iwari.components import DISCOVERY, HONOUR, RESPECT, UNION, expeditions, game_map
from ludoteca.games.iwari.scoring import (
    end_scoring,
    purple_road_scoring,
    settlements,
    tent_scoring,
    totem_majority_holders,
    totem_scoring,
)
from ludoteca.games.iwari.state import DRAW, FEAT, PIECE


def test_iw_19_union_for_completing_a_settlement() -> None:
    state = new(3, feats=True)
    put_tents(state, 0, "tundra-1.3", "tundra-1.4", "tundra-1.5")
    deal(state, 0, "glacier-01", "glacier-02", "coast-01")
    play(state, 0, {"type": "territory", "territory": "glacier-1"})
    play(state, 0, {"type": "tent", "space": "glacier-1.1"})  # joins tundra-1.5 by the road: 4 tents
    play(state, 0, {"type": "pay", "cards": ["glacier-01"]})
    assert state.phase == FEAT and state.feats[UNION] == [0]
    assert GAME.legal(state, 0) == [{"type": "feat", "feat": "union", "territory": "tundra-1"},
                                    {"type": "feat", "feat": "union", "territory": "glacier-1"}]
    play(state, 0, {"type": "feat", "feat": "union", "territory": "tundra-1"})
    assert state.territory_factor[tindex(state, "tundra-1")] == 2
    assert state.phase == DRAW  # glacier-1 was unexplored: one tent, the move is over
    # the factor doubles tundra-1's tent points: 3 tents alone -> 6
    assert tent_scoring(state)[tindex(state, "tundra-1")] == [6, 0, 0]
    assert GAME.result(state) is None


def test_iw_19_a_player_earns_each_feat_once_and_only_two_unions() -> None:
    state = new(3, feats=True)
    state.feats[UNION] = [0]
    put_tents(state, 0, "tundra-1.3", "tundra-1.4", "tundra-1.5")
    deal(state, 0, "glacier-01", "glacier-02", "coast-01")
    play(state, 0, {"type": "territory", "territory": "glacier-1"})
    play(state, 0, {"type": "tent", "space": "glacier-1.1"})
    play(state, 0, {"type": "pay", "cards": ["glacier-01"]})
    assert state.phase == DRAW and state.feats[UNION] == [0]
    state = new(3, feats=True)
    state.feats[UNION] = [1, 2]
    put_tents(state, 0, "tundra-1.3", "tundra-1.4", "tundra-1.5")
    feats.check(state, 0, board(state).space_index["tundra-1.2"], [0, 1, 2, 3])
    assert state.feat_queue == [] and state.feats[UNION] == [1, 2]


def test_iw_19_discovery_for_filling_a_territory() -> None:
    state = new(3, feats=True)
    put_tents(state, 1, "glacier-1.1", "glacier-1.2", "glacier-1.3")
    deal(state, 0, "glacier-01", "glacier-02", "coast-01")
    play(state, 0, {"type": "territory", "territory": "glacier-1"})
    play(state, 0, {"type": "tent", "space": "glacier-1.4"})
    play(state, 0, {"type": "pay", "cards": ["glacier-01"]})
    assert state.phase == FEAT and state.feats[DISCOVERY] == [0]
    targets = [m["territory"] for m in GAME.legal(state, 0)]
    assert len(targets) == 11 and "glacier-1" not in targets  # any territory but the one filled
    play(state, 0, {"type": "feat", "feat": "discovery", "territory": "desert-2"})
    assert state.territory_factor[tindex(state, "desert-2")] == 2
    assert state.phase == PIECE and legal_types(state, 0) == {"totem", "done"}  # the move goes on


def test_iw_19_honour_on_a_land_connection_not_under_a_mountain() -> None:
    state = new(3, feats=True)
    state.covered = [0] * len(state.covered)
    state.covered[0] = 1  # connection 1 (tundra-1 / glacier-1) under a mountain
    put_tents(state, 0, "tundra-1.1", "tundra-1.2")
    put_totems(state, "glacier-1", 0, 1)
    put_totems(state, "forest-1", 0, 1)
    put_totems(state, "forest-1", 1, 1)  # forest-1: tied, tribe 0 holds it too
    deal(state, 0, "tundra-01", "tundra-02", "coast-01")
    play(state, 0, {"type": "territory", "territory": "tundra-1"})
    play(state, 0, {"type": "totem"})
    play(state, 0, {"type": "pay", "cards": ["tundra-01"]})
    assert state.phase == FEAT and state.feats[HONOUR] == [0] and state.feats[RESPECT] == []
    # tribe 0 now holds both majorities of connections 1 and 2; 1 is under a mountain
    assert GAME.legal(state, 0) == [{"type": "feat", "feat": "honour", "connection": 2}]
    play(state, 0, {"type": "feat", "feat": "honour", "connection": 2})
    assert state.connection_factor[1] == 2
    # tundra-1 + forest-1: 1 + 2 totems, times the factor 2; tribe 1 does not hold tundra-1
    assert totem_scoring(state)[1] == [6, 0, 0]


def test_iw_19_respect_on_a_sea_connection() -> None:
    state = new(3, feats=True)
    state.covered = [0] * len(state.covered)
    put_tents(state, 0, "coast-1.1")
    put_totems(state, "forest-2", 0, 1)
    deal(state, 0, "coast-01", "coast-02", "tundra-01")
    play(state, 0, {"type": "territory", "territory": "coast-1"})
    play(state, 0, {"type": "totem"})
    play(state, 0, {"type": "pay", "cards": ["coast-01"]})
    assert state.feats[RESPECT] == [0] and state.feats[HONOUR] == []
    # of coast-1's sea connections (4, 6, 8, 9) only 8 leads to a territory tribe 0 holds (forest-2)
    assert [m["connection"] for m in GAME.legal(state, 0)] == [8]
    play(state, 0, {"type": "feat", "feat": "respect", "connection": 8})
    assert state.connection_factor[7] == 2 and state.feat_places == [(RESPECT, 0, 7)]


def test_iw_19_the_third_tribe_earns_no_feat() -> None:
    state = new(2, feats=True)
    put_tents(state, 2, "tundra-1.3", "tundra-1.4", "tundra-1.5")
    deal(state, 0, "desert-01", "glacier-01", "glacier-02")
    play(state, 0, {"type": "territory", "territory": "desert-1"})
    play(state, 0, {"type": "tent", "space": "desert-1.1"})
    play(state, 0, {"type": "pay", "cards": ["desert-01"]})
    play(state, 0, {"type": "territory", "territory": "glacier-1"})  # the third tribe's move
    play(state, 0, {"type": "tent", "space": "glacier-1.1"})
    play(state, 0, {"type": "pay", "cards": ["glacier-01"]})
    assert [len(g) for g in settlements(state)[2]] == [4]
    assert state.feats[UNION] == [] and state.phase == DRAW


def test_iw_20_expeditions_first_and_second_score_then_closed() -> None:
    state = new(3, expeditions=True)
    carvers = expeditions().by_id["carvers"]  # 4 totems on the map: 3 then 1
    state.expedition_cards = [carvers]
    state.expedition_done = [[]]
    put_tents(state, 0, "forest-1.1", "forest-1.2", "forest-1.3", "forest-1.4")
    put_totems(state, "forest-1", 0, 3)
    deal(state, 0, "forest-01", "forest-02", "forest-03")
    play(state, 0, {"type": "territory", "territory": "forest-1"})
    play(state, 0, {"type": "totem"})
    events = play(state, 0, {"type": "pay", "cards": ["forest-01"]})
    assert state.scores[0] == 3 and state.expedition_done == [[0]]
    assert any(e.key == "iwari.expedition" and e.args["points"] == 3 for e in events)
    for seat, points in ((1, 1), (2, 0)):
        put_totems(state, "desert-2", seat, 4)
        log: list[Event] = []
        expeditions_module.check(state, seat, 0, log)
        assert state.scores[seat] == points
    assert state.expedition_done == [[0, 1]]  # nobody else can complete it


def test_iw_20_expedition_missions() -> None:
    state = new(3, expeditions=True)
    deck = expeditions()
    put_tents(state, 0, "tundra-1.1", "tundra-1.2", "tundra-1.3", "tundra-1.4", "tundra-1.5")
    assert expeditions_module.mission_met(state, 0, deck.by_id["tundra-walkers"], 5)
    assert expeditions_module.mission_met(state, 0, deck.by_id["village"], 5)
    assert not expeditions_module.mission_met(state, 0, deck.by_id["town"], 5)
    assert not expeditions_module.mission_met(state, 0, deck.by_id["wanderers"], 0)
    put_tents(state, 0, "forest-1.1", "glacier-1.1", "coast-1.1", "desert-1.1")
    assert expeditions_module.mission_met(state, 0, deck.by_id["wanderers"], 0)
    assert expeditions_module.mission_met(state, 0, deck.by_id["chieftains"], 0)  # 5 territories held alone
    assert not expeditions_module.mission_met(state, 1, deck.by_id["chieftains"], 0)


def test_iw_21_floating_lands_connections_act_as_roads() -> None:
    state = new(3, map="floating-lands")
    b = board(state)
    assert not [r for r in b.roads if b.space_territory[r[0]] != b.space_territory[r[1]]]  # islands
    # connection 1 joins glacier-1.3 and tundra-1.2
    put_tents(state, 0, "glacier-1.2", "glacier-1.3", "tundra-1.2", "tundra-1.3")
    groups = settlements(state)[0]
    assert [len(g) for g in groups] == [4]
    assert {b.space_territory[s] for s in groups[0]} == {tindex(state, "glacier-1"), tindex(state, "tundra-1")}


def test_iw_22_glacial_mass_connections_1_and_11_join_the_same_territories() -> None:
    state = new(3, map="glacial-mass")
    b = game_map("glacial-mass")
    one, eleven = b.connections[0], b.connections[10]
    assert {one.a, one.b} == {eleven.a, eleven.b} == {tindex(state, "glacier-1"), tindex(state, "tundra-1")}
    state.covered = [0] * len(state.covered)
    put_totems(state, "glacier-1", 0, 1)
    put_totems(state, "tundra-1", 0, 1)
    rows = totem_scoring(state)
    assert rows[0] == rows[10] == [2, 0, 0]  # scored once for each connection: 4 points in all


def test_iw_23_long_road_purple_road_scored_at_the_end_only() -> None:
    state = new(3, map="long-road")
    state.covered = [0] * len(state.covered)
    put_tents(state, 0, "glacier-1.1", "glacier-1.2", "desert-1.1")
    put_tents(state, 1, "desert-1.2")
    put_tents(state, 1, "forest-1.1")  # not on the purple road
    # the road holds 3 tents of tribe 0 and 1 of tribe 1: 4 and 3 points
    assert purple_road_scoring(state) == [4, 3, 0]
    final = end_scoring(state)
    # glacier-1: 2 -> tribe 0; desert-1: 1 / 1 tie -> 2 each; forest-1: tribe 1 alone -> 1
    assert final["totals"] == [2 + 2 + 4, 2 + 1 + 3, 0]
    assert sum(row[0] for row in tent_scoring(state)) == 4  # the half journey ignores the road
    assert purple_road_scoring(new(3)) == [0, 0, 0]  # other maps have none


def test_iw_19_honour_goes_to_the_first_player_only() -> None:
    state = new(3, feats=True)
    state.covered = [0] * len(state.covered)
    # seat 0 takes both totem majorities of land connection 2 (tundra-1 / forest-1): Honour
    put_tents(state, 0, "tundra-1.1", "tundra-1.2")
    put_totems(state, "forest-1", 0, 1)
    deal(state, 0, "tundra-01", "coast-01", "desert-01")
    play(state, 0, {"type": "territory", "territory": "tundra-1"})
    play(state, 0, {"type": "totem"})
    play(state, 0, {"type": "pay", "cards": ["tundra-01"]})
    assert GAME.legal(state, 0) == [{"type": "feat", "feat": "honour", "connection": 2}]
    play(state, 0, {"type": "feat", "feat": "honour", "connection": 2})
    assert state.phase == DRAW
    play(state, 0, {"type": "draw", "from": "deck"})
    # seat 1 then takes both majorities of land connection 11 (desert-1 / tundra-3): too late
    put_tents(state, 1, "desert-1.1", "desert-1.2")
    put_totems(state, "tundra-3", 1, 1)
    deal(state, 1, "desert-01", "coast-02", "forest-02")
    play(state, 1, {"type": "territory", "territory": "desert-1"})
    play(state, 1, {"type": "totem"})
    play(state, 1, {"type": "pay", "cards": ["desert-01"]})
    b = board(state)
    assert 1 in totem_majority_holders(state, b.connection_by_number[11])
    assert state.feats[HONOUR] == [0] and state.feat_queue == [] and state.phase != FEAT
    assert state.feat_places == [(HONOUR, 0, b.connection_by_number[2])]


def test_iw_19_discovery_for_the_first_two_players_only() -> None:
    state = new(3, feats=True)
    state.feats[DISCOVERY] = [1]  # seat 1 filled a territory earlier
    put_tents(state, 1, "glacier-1.1", "glacier-1.2", "glacier-1.3")
    deal(state, 0, "glacier-01", "coast-01", "desert-01")
    play(state, 0, {"type": "territory", "territory": "glacier-1"})
    play(state, 0, {"type": "tent", "space": "glacier-1.4"})
    play(state, 0, {"type": "pay", "cards": ["glacier-01"]})
    assert state.phase == FEAT and state.feats[DISCOVERY] == [1, 0]  # the second player
    play(state, 0, {"type": "feat", "feat": "discovery", "territory": "tundra-1"})
    play(state, 0, {"type": "draw", "from": "deck"})
    play(state, 1, {"type": "discard", "card": GAME.legal(state, 1)[-1]["card"]})
    play(state, 1, {"type": "draw", "from": "deck"})
    # seat 2 fills desert-1 third: both Discovery feats are gone
    put_tents(state, 0, "desert-1.1", "desert-1.2", "desert-1.3")
    deal(state, 2, "desert-01", "coast-02", "forest-02")
    play(state, 2, {"type": "territory", "territory": "desert-1"})
    play(state, 2, {"type": "tent", "space": "desert-1.4"})
    play(state, 2, {"type": "pay", "cards": ["desert-01"]})
    assert state.free[tindex(state, "desert-1")] == 0
    assert state.feats[DISCOVERY] == [1, 0] and state.phase != FEAT
