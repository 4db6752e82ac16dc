"""HW-12..HW-24: sheet A."""

from __future__ import annotations

from ludoteca.games.hadrianswall import sheets

from .hw_helpers import G, choose_all, count, end_year_all, fill, fill_ids, give, main, set_count, stock, why


def test_hw_12_cohorts_are_earned_and_reward_at_3_5_6() -> None:
    state = main(1)
    assert why(state, 0, "cohort_centre_1") == "earned"
    for _ in range(6):
        sheets.gain(state, 0, "cohort")
        G.apply(state, 0, {"type": "cohort", "cohort": "centre"})
    assert count(state, 0, "cohort_centre") == 6
    assert count(state, 0, "discipline") == 2 and count(state, 0, "valour") == 1
    sheets.gain(state, 0, "cohort")
    assert [m["cohort"] for m in G.legal(state, 0)] == ["left", "right"]


def test_hw_13_mining_and_logging() -> None:
    state = main(1)
    give(state, servants=2)
    fill(state, 0, "mining_1")
    fill(state, 0, "mining_2")
    assert count(state, 0, "production") == 2 and stock(state)["resources"] == 1
    set_count(state, 0, "mining", 4)
    give(state, servants=1)
    assert why(state, 0, "mining_5") == "locked"
    set_count(state, 0, "granary", 1)
    assert why(state, 0, "mining_5") is None


def test_hw_14_wall_guard() -> None:
    state = main(1)
    give(state, soldiers=3)
    fill(state, 0, "wall_guard_1")
    assert state.players[0].todo == [["cohort"]]
    G.apply(state, 0, {"type": "cohort", "cohort": "left"})
    fill(state, 0, "wall_guard_2")
    assert count(state, 0, "discipline") == 1
    set_count(state, 0, "wall_guard", 6)
    assert why(state, 0, "wall_guard_7") == "locked"
    set_count(state, 0, "granary", 1)
    assert why(state, 0, "wall_guard_7") is None


def test_hw_15_fort() -> None:
    state = main(1)
    set_count(state, 0, "fort", 3)
    give(state, builders=1)
    fill(state, 0, "fort_4", "builders")
    assert stock(state)["civilians"] == 1
    set_count(state, 0, "fort", 7)
    give(state, soldiers=1)
    assert why(state, 0, "fort_8") == "locked"
    set_count(state, 0, "granary", 1)
    assert "fort_8" in fill_ids(state)


def test_hw_16_palisade_and_wall_chain_links() -> None:
    state = main(1)
    give(state, resources=5)
    assert why(state, 0, "wall_1") == "locked" and why(state, 0, "palisade_1") == "locked"
    set_count(state, 0, "fort", 1)
    fill(state, 0, "wall_1")
    assert stock(state)["civilians"] == 1
    fill(state, 0, "palisade_1")
    assert why(state, 0, "wall_2") == "locked"
    set_count(state, 0, "fort", 3)
    assert why(state, 0, "palisade_2") == "locked"
    set_count(state, 0, "fort", 4)
    assert why(state, 0, "palisade_2") is None


def test_hw_17_granaries() -> None:
    state = main(1)
    give(state, servants=2, builders=2, resources=3)
    assert why(state, 0, "granary_small") == "locked"
    set_count(state, 0, "fort", 1)
    fill(state, 0, "granary_small")
    set_count(state, 0, "fort", 10)
    assert why(state, 0, "granary_large") == "locked"
    set_count(state, 0, "fort", 11)
    fill(state, 0, "granary_large")
    assert count(state, 0, "renown") == 1


def test_hw_18_inns_workshops_roads_small_before_large() -> None:
    state = main(1)
    set_count(state, 0, "fort", 17)
    give(state, servants=5, builders=3, resources=10)
    assert why(state, 0, "inn_large") == "order"
    fill(state, 0, "inn_small")
    assert stock(state)["civilians"] == 1
    fill(state, 0, "workshop_small")
    assert stock(state)["builders"] == 3  # paid none, gained one
    fill(state, 0, "road_small")
    assert [m["attribute"] for m in G.legal(state, 0)] == ["piety", "discipline"]
    G.apply(state, 0, {"type": "attribute", "attribute": "discipline"})
    assert count(state, 0, "discipline") == 1


def test_hw_19_resource_production_filled_by_hammers() -> None:
    state = main(1)
    assert why(state, 0, "production_2") == "earned"
    sheets.gain(state, 0, "production")
    assert count(state, 0, "production") == 2
    set_count(state, 0, "production", 9)
    sheets.gain(state, 0, "production")
    assert count(state, 0, "production") == 9


def test_hw_20_training_grounds_once_a_year_gives_a_sword() -> None:
    state = main(1)
    give(state, builders=2)
    fill(state, 0, "training_grounds_1")
    assert count(state, 0, "wall_guard") == 1 and state.players[0].todo == [["cohort"]]
    G.apply(state, 0, {"type": "cohort", "cohort": "left"})
    assert why(state, 0, "training_grounds_2") == "year_limit"


def test_hw_21_forum_two_non_soldiers_for_one() -> None:
    state = main(1)
    give(state, soldiers=5, servants=1)
    assert "forum_1" not in fill_ids(state)
    give(state, soldiers=5, servants=1, civilians=1)
    pays = [m["pay"] for m in G.legal(state, 0) if m.get("box") == "forum_1"]
    assert pays == ["servants+civilians"]
    fill(state, 0, "forum_1", "servants+civilians")
    assert [m["gain"] for m in G.legal(state, 0)] == ["builders", "servants", "civilians"]
    G.apply(state, 0, {"type": "forum", "gain": "builders"})
    assert stock(state) == {"soldiers": 5, "builders": 1, "servants": 0, "civilians": 0, "resources": 0}
    assert why(state, 0, "forum_2") == "year_limit"


def test_hw_22_landmarks_need_an_attribute_at_15() -> None:
    state = main(1)
    give(state, builders=1, resources=2)
    set_count(state, 0, "renown", 14)
    assert why(state, 0, "archway") == "locked"
    set_count(state, 0, "renown", 15)
    fill(state, 0, "archway")
    assert count(state, 0, "valour") == 2


def test_hw_23_attribute_tracks() -> None:
    state = main(1)
    set_count(state, 0, "piety", 16)
    sheets.gain(state, 0, "piety")
    assert count(state, 0, "renown") == 1
    set_count(state, 0, "discipline", 2)
    sheets.gain(state, 0, "discipline")
    assert stock(state)["builders"] == 1
    assert all(len(sheets.SECTIONS[sheets.S_ATTR[a]].boxes) == 25 for a in sheets.S_ATTR)


def test_hw_24_disdain_track_caps_at_15() -> None:
    state = main(1)
    p = state.players[0]
    p.disdain = 14
    end_year_all(state)  # year 1: one Pict card, no cohort: a breach
    assert p.disdain == 15 and state.last_attack[0]["disdain"] == 1
    choose_all(state)
    end_year_all(state)
    assert p.disdain == 15


def test_hw_16_every_wall_box_waits_for_its_fort_box() -> None:
    state = main(1)
    give(state, resources=1)
    set_count(state, 0, "granary", 2)
    for n in range(1, 22):
        set_count(state, 0, "wall", n - 1)
        set_count(state, 0, "fort", n - 1)
        assert why(state, 0, f"wall_{n}") == "locked"
        set_count(state, 0, "fort", n)
        assert why(state, 0, f"wall_{n}") is None
    chained = [1, 4, 7, 10, 13, 16, 20]
    for i, fort_box in enumerate(chained, start=1):
        set_count(state, 0, "palisade", i - 1)
        set_count(state, 0, "fort", fort_box - 1)
        assert why(state, 0, f"palisade_{i}") == "locked"
        set_count(state, 0, "fort", fort_box)
        assert why(state, 0, f"palisade_{i}") is None


def test_hw_22_each_landmark_needs_its_attribute_and_gives_two_of_another() -> None:
    for landmark, needs, gives in (("archway", "renown", "valour"), ("monolith", "piety", "discipline"),
                                   ("column", "valour", "piety"), ("statue", "discipline", "renown")):
        state = main(1)
        give(state, builders=1, resources=2)
        set_count(state, 0, needs, 14)
        assert why(state, 0, landmark) == "locked"
        set_count(state, 0, needs, 15)
        before = count(state, 0, gives)
        fill(state, 0, landmark)
        assert count(state, 0, gives) == before + 2
        assert stock(state) == {"soldiers": 0, "builders": 0, "servants": 0, "civilians": 0, "resources": 0}
