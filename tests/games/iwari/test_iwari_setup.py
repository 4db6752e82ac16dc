"""IW-1 to IW-4: components, cards by seat count, the maps and their validation, mountains."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import pytest
from iwari_helpers import GAME, all_cards, new, put_totems

from ludoteca.games.iwari.components import (
    BIOMES,
    MAP_IDS,
    DataError,
    _build_map,
    cards,
    expeditions,
    game_map,
)
from ludoteca.games.iwari.scoring import totem_scoring

PUBLISHED = {"tundra": 13, "forest": 12, "glacier": 11, "coast": 11, "desert": 10}


def test_iw_1_components() -> None:
    deck = cards()
    assert len(deck.ids) == 57 == len(set(deck.ids))
    assert Counter(BIOMES[b] for b in deck.biome) == PUBLISHED
    assert "tundra-07" in deck.ids and "desert-10" in deck.ids and "desert-11" not in deck.ids
    state = new(4)
    assert state.tents_left == [20] * 4  # 21 tents, one on the score track
    assert state.totems_left == [8] * 4
    assert len(state.display) == 4
    assert [len(hand) for hand in state.hands] == [3, 3, 3, 3]


@pytest.mark.parametrize(("seats", "removed"), [(2, 2), (3, 2), (4, 1), (5, 0)])
def test_iw_2_cards_removed_by_seat_count(seats: int, removed: int) -> None:
    state = new(seats)
    in_play = all_cards(state)
    assert len(in_play) == len(set(in_play)) == 57 - 5 * removed
    by_biome = Counter(BIOMES[cards().biome[c]] for c in in_play)
    assert by_biome == {biome: n - removed for biome, n in PUBLISHED.items()}


def _territory_is_joined(board, t) -> bool:  # type: ignore[no-untyped-def]
    spaces = set(board.territories[t].spaces)
    start = min(spaces)
    seen, stack = {start}, [start]
    while stack:
        for n in board.neighbours[stack.pop()]:
            if n in spaces and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen == spaces


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_iw_3_every_map_loads_valid(map_id: str) -> None:
    board = game_map(map_id)
    assert len(board.territories) == 12
    assert {t.biome for t in board.territories} == set(range(5))
    assert [c.number for c in board.connections] == list(range(1, len(board.connections) + 1))
    for c in board.connections:
        assert c.a != c.b
        assert board.space_territory[c.ends[0]] == c.a and board.space_territory[c.ends[1]] == c.b
    for a, b in board.roads:
        assert a != b and 0 <= a < len(board.space_ids) and 0 <= b < len(board.space_ids)
    # each territory's tent spaces are joined by its own roads, and every territory has a connection
    assert all(_territory_is_joined(board, t) for t in range(12))
    assert all(board.territory_connections[t] for t in range(12))
    raw = json.loads(resources.files("ludoteca.games.iwari").joinpath("data", f"map-{map_id}.json").read_text())
    assert "RECONSTRUCTED" in raw["_provenance"]


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_iw_3_views_carry_the_map_drawing(map_id: str) -> None:
    """The browser draws the map from the view alone: every space, road and connection
    of the validated map, with a position inside the layout's box."""
    board = game_map(map_id)
    drawing = board.drawing
    state = new(3, 1, map=map_id)
    assert GAME.view(state, None)["board"] == drawing == GAME.view(state, 0)["board"]
    spaces = {sid: xy for t in drawing["territories"] for sid, xy in t["spaces"].items()}
    assert list(spaces) == list(board.space_ids)
    assert all(0 <= x <= drawing["width"] and 0 <= y <= drawing["height"] for x, y in spaces.values())
    assert len(drawing["roads"]) == len(board.roads) and all(a in spaces and b in spaces for a, b in drawing["roads"])
    assert [c["number"] for c in drawing["connections"]] == [c.number for c in board.connections]
    assert len({tuple(c["at"]) for c in drawing["connections"]}) == len(board.connections)  # no badge hides another
    assert drawing["purple_road"] == [board.space_ids[s] for s in board.purple_road]


def _raw(map_id: str = "base") -> dict:  # type: ignore[type-arg]
    return json.loads(resources.files("ludoteca.games.iwari").joinpath("data", f"map-{map_id}.json").read_text())


@pytest.mark.parametrize("breakage", ["self_connection", "missing_space", "number_gap", "same_pair", "bad_road",
                                      "three_of_a_type", "bad_end", "no_layout", "space_off_map"])
def test_iw_3_broken_maps_are_rejected(breakage: str) -> None:
    data = _raw()
    conns = data["connections"]
    if breakage == "self_connection":
        conns[0]["between"] = [conns[0]["between"][0]] * 2
    elif breakage == "missing_space":
        data["roads"].append(["tundra-1.1", "tundra-1.99"])
    elif breakage == "number_gap":
        conns[-1]["number"] += 1
    elif breakage == "same_pair":
        conns[1]["between"] = list(conns[0]["between"])
        conns[1]["ends"] = list(conns[0]["ends"])
    elif breakage == "bad_road":
        data["territories"][0]["roads"].append([1, 1])
    elif breakage == "three_of_a_type":
        next(c for c in conns if c["peaks"] == 0)["peaks"] = 1
    elif breakage == "bad_end":
        conns[0]["ends"] = list(reversed(conns[0]["ends"]))
    elif breakage == "no_layout":
        del data["territories"][3]["layout"]
    elif breakage == "space_off_map":
        data["territories"][0]["layout"]["spaces"][0] = [-5, 10]
    with pytest.raises(DataError):
        _build_map(data)


def test_iw_3_other_data_files_validate() -> None:
    assert len(expeditions().cards) == 13
    assert all(e.values[0] >= e.values[1] for e in expeditions().cards)


@pytest.mark.parametrize(("seats", "mountains"), [(2, 4), (3, 3), (4, 2), (5, 1)])
def test_iw_4_mountains_by_seat_count(seats: int, mountains: int) -> None:
    board = game_map("base")
    for seed in range(8):
        state = new(seats, seed)
        covered = [c for c in board.connections if state.covered[c.index]]
        assert len(covered) == mountains
        peaks = [c.peaks for c in covered]
        assert 0 not in peaks and len(set(peaks)) == len(peaks)  # one spot of a type, never an untyped one
        if seats == 2:
            assert sorted(peaks) == [1, 2, 3, 4]


def test_iw_4_mountains_are_drawn_at_random() -> None:
    layouts = {tuple(new(3, seed).covered) for seed in range(30)}
    assert len(layouts) > 5


def test_iw_4_a_covered_connection_is_not_scored() -> None:
    state = new(3)
    state.covered = [0] * len(state.covered)
    state.covered[1] = 1  # connection 2: tundra-1 / forest-1 (a 1-peak spot)
    put_totems(state, "tundra-1", 0, 2)
    put_totems(state, "forest-1", 0, 1)
    put_totems(state, "forest-1", 1, 1)
    put_totems(state, "desert-1", 1, 1)
    rows = totem_scoring(state)
    assert rows[1] == [0, 0, 0]  # covered: nothing
    assert rows[6] == [0, 3, 0]  # 7: forest-1 (1/1, tied) + desert-1 (tribe 1): tribe 1 holds both, 3 totems
    state.covered[1] = 0
    assert totem_scoring(state)[1] == [4, 0, 0]  # uncovered: tribe 0 holds tundra-1 and (tied) forest-1
