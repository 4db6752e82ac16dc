"""IW-24 (Floating Lands: no totems on tundra), IW-20 as players see the expedition cards,
and IW-3's record of the board's second side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from iwari_helpers import GAME, deal, new, play, put_tents, put_totems, tindex

from ludoteca.engine import IllegalMove
from ludoteca.games.iwari.components import BIOMES, MAP_IDS, MISSIONS, expeditions, game_map
from ludoteca.games.iwari.rules import open_territories
from ludoteca.games.iwari.state import PIECE

PACKAGE = Path(__file__).parents[3] / "src" / "ludoteca" / "games" / "iwari"


def test_iw_24_floating_lands_takes_no_totem_on_tundra() -> None:
    state = new(3, map="floating-lands")
    b = game_map("floating-lands")
    assert [b.territories[t].id for t, ok in enumerate(b.totem_allowed) if not ok] == ["tundra-1", "tundra-2",
                                                                                      "tundra-3"]
    put_tents(state, 0, "tundra-1.1", "tundra-1.2")
    deal(state, 0, "tundra-01", "tundra-02", "tundra-03")
    play(state, 0, {"type": "territory", "territory": "tundra-1"})
    legal = GAME.legal(state, 0)
    assert {"type": "totem"} not in legal and {"type": "tent", "space": "tundra-1.3"} in legal
    before = json.dumps(GAME.to_json(state), sort_keys=True)
    with pytest.raises(IllegalMove) as raised:
        play(state, 0, {"type": "totem"})
    assert raised.value.code == "no_totems_here" and "tundra" in str(raised.value)
    assert json.dumps(GAME.to_json(state), sort_keys=True) == before  # nothing changed


def test_iw_24_a_full_tundra_territory_is_not_offered_for_a_totem() -> None:
    for map_id, offered in (("floating-lands", False), ("base", True)):
        state = new(3, map=map_id)
        b = game_map(map_id)
        spaces = [b.space_ids[s] for s in b.territories[b.territory_index["tundra-1"]].spaces]
        put_tents(state, 0, *spaces)  # every tent space taken: only a totem could go there
        deal(state, 0, "tundra-01", "tundra-02", "glacier-01")
        t = tindex(state, "tundra-1")
        assert (t in open_territories(state, 0, state.hands[0])) is offered, map_id


def test_iw_24_totems_still_go_elsewhere_and_on_other_maps() -> None:
    state = new(3, map="floating-lands")
    put_tents(state, 0, "forest-1.1", "forest-1.2")
    deal(state, 0, "forest-01", "forest-02", "forest-03")
    play(state, 0, {"type": "territory", "territory": "forest-1"})
    assert {"type": "totem"} in GAME.legal(state, 0)
    for map_id in MAP_IDS:
        allowed = game_map(map_id).totem_allowed
        assert all(allowed) is (map_id != "floating-lands"), map_id
    # The browser is told which biome's circles to strike through.
    assert GAME.view(new(3, map="floating-lands"), None)["board"]["no_totems"] == ["tundra"]
    assert GAME.view(new(3), None)["board"]["no_totems"] == []


def test_iw_20_the_view_carries_each_face_up_expedition_card() -> None:
    state = new(3, expeditions=True)
    deck = expeditions()
    for entry, card in zip(GAME.view(state, None)["expeditions"], state.expedition_cards, strict=True):
        e = deck.cards[card]
        assert entry == {"id": e.id, "mission": e.mission, "count": e.count,
                         "biome": BIOMES[e.biome] if e.biome >= 0 else None, "values": list(e.values),
                         "done": [], "completed": []}
    # Complete one: who did it and the points it gave are in every reader's view.
    carvers = deck.by_id["carvers"]
    state.expedition_cards = [carvers]
    state.expedition_done = [[]]
    put_tents(state, 1, "forest-1.1", "forest-1.2", "forest-1.3", "forest-1.4")
    put_totems(state, "forest-1", 1, 3)
    state.current = state.tribe = 1
    deal(state, 1, "forest-01", "forest-02", "forest-03")
    play(state, 1, {"type": "territory", "territory": "forest-1"})
    play(state, 1, {"type": "totem"})
    play(state, 1, {"type": "pay", "cards": ["forest-01"]})
    assert state.phase == PIECE
    for reader in (None, 0, 1):
        (entry,) = GAME.view(state, reader)["expeditions"]
        assert entry["completed"] == [{"seat": 1, "points": deck.cards[carvers].values[0]}]
        assert entry["done"] == [1] and entry["mission"] == "totems" and entry["count"] == 4


def test_iw_20_every_mission_reads_in_en_ja_vi() -> None:
    tables = {lang: json.loads((PACKAGE / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
              for lang in ("en", "ja", "vi")}
    for lang, table in tables.items():
        for mission in MISSIONS:
            assert "{count}" in table[f"iwari.mission.{mission}"], (lang, mission)
        assert "{biome}" in table["iwari.mission.biome_tents"]
        for key in ("expeditions", "expedition_values", "expedition_open", "expedition_done",
                    "expedition_closed", "no_totems"):
            assert table[f"iwari.ui.{key}"], (lang, key)
    assert tables["ja"]["iwari.mission.territories"] != tables["en"]["iwari.mission.territories"]


def test_iw_3_the_second_side_of_the_board_is_recorded_not_invented() -> None:
    provenance = json.loads((PACKAGE / "data" / "map-base.json").read_text(encoding="utf-8"))["_provenance"]
    assert "double-sided" in provenance and "Tried" in provenance
    option = next(o for o in GAME.options if o.name == "map")
    assert tuple(option.choices) == MAP_IDS == ("base", "floating-lands", "glacial-mass", "long-road")
