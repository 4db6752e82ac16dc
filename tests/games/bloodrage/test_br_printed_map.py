"""The rules that depend on the printed map (BR-2, BR-3): call to arms, fjord support,
quests, Ragnarok and Lord of Hammers, each checked against the neighbours and fjords of
the printed board (board.json, read off the picture of the printed board)."""

from __future__ import annotations

from ludoteca.games.bloodrage.components import VALHALLA
from ludoteca.games.bloodrage.rules import quest_done

from .br_helpers import GAME, P, action_state, at, equip, give, keys, pending, play, prompt, put, settle


def _joins(s, seat: int) -> set[str]:
    return {m["from"] for m in GAME.legal(s, seat) if m["type"] == "join"}


def test_br_30_call_to_arms_from_the_printed_neighbours() -> None:
    # Myrkulor borders Elvagar, Gimle and Yggdrasil on the printed board; not Angerboda,
    # not Andlang (across Gimle)
    s = action_state(2)
    put(s, 0, "warrior", "myrkulor")
    for where in ("elvagar", "gimle", "yggdrasil", "angerboda", "andlang"):
        put(s, 1, "warrior", where)
    play(s, 0, {"type": "pillage", "province": "myrkulor"})
    assert prompt(s) == "br.prompt.call" and pending(s) == [1]
    assert _joins(s, 1) == {"elvagar", "gimle", "yggdrasil"}


def test_br_30_call_to_arms_muspelheim_borders_angerboda_not_myrkulor() -> None:
    s = action_state(2)
    put(s, 0, "warrior", "muspelheim")
    for where in ("angerboda", "horgr", "myrkulor", "utgard"):
        put(s, 1, "warrior", where)
    play(s, 0, {"type": "pillage", "province": "muspelheim"})
    assert _joins(s, 1) == {"angerboda", "horgr"}


def test_br_3_a_ship_in_fjord_south_supports_andlang_and_utgard_only() -> None:
    s = action_state(2)
    put(s, 0, "ship", "fjord_south")
    pillages = {m["province"] for m in GAME.legal(s, 0) if m["type"] == "pillage"}
    assert pillages == {"andlang", "utgard"}
    # its ship fights in a battle in Andlang (BR-33) and dies with its clan (BR-40)
    put(s, 1, "warrior", "andlang")
    give(s, 0, "tyrs_bash")
    give(s, 1, "tyrs_crush")
    play(s, 0, {"type": "pillage", "province": "andlang"})
    settle(s, {0: "tyrs_bash", 1: "tyrs_crush"})
    assert at(s, 0, "fjord_south") == [] and s.locs[0].count(VALHALLA) == 1
    assert s.battle is None


def test_br_46_province_quest_counts_the_printed_fjord() -> None:
    # Alfheim quest, one warrior each in Andlang: a tie fails. A ship in Fjord Manheim
    # (Elvagar-Angerboda) does not reach Alfheim (it wins Manheim alone); in Fjord South
    # (Andlang-Utgard) it counts in Andlang.
    s = action_state(2)
    put(s, 0, "warrior", "andlang")
    put(s, 1, "warrior", "andlang")
    assert not quest_done(s, 0, "alfheim")
    put(s, 0, "ship", "fjord_manheim")
    assert not quest_done(s, 0, "alfheim") and quest_done(s, 0, "manheim")
    s.locs[0][1] = P("fjord_south")  # the ship (figure 1) stands in Fjord South instead
    assert quest_done(s, 0, "alfheim") and not quest_done(s, 0, "manheim")
    assert not quest_done(s, 1, "alfheim")


def test_br_47_ragnarok_takes_the_printed_fjord_with_the_province() -> None:
    from .test_br_phases import _end_actions

    s = action_state(2)
    s.ragnarok = [P("myrkulor"), P("horgr"), P("utgard")]
    put(s, 0, "ship", "fjord_west")  # supports Myrkulor (and Gimle)
    put(s, 1, "ship", "fjord_manheim")  # supports Elvagar and Angerboda, not Myrkulor
    events = _end_actions(s)
    assert "br.ragnarok" in keys(events) and s.destroyed[P("myrkulor")]
    assert at(s, 1, "fjord_manheim") == ["ship"] and s.glory[0] == 2 and s.glory[1] == 0


def test_br_76_lord_of_hammers_moves_to_a_printed_neighbour() -> None:
    s = action_state(2)
    equip(s, 0, "lord_of_hammers")
    put(s, 0, "leader", "myrkulor")
    play(s, 0, {"type": "pillage", "province": "myrkulor"})
    targets = {m["to"] for m in GAME.legal(s, 0) if m["type"] == "move_leader"}
    assert targets == {"elvagar", "gimle", "yggdrasil"}
    play(s, 0, {"type": "move_leader", "to": "gimle"})
    assert at(s, 0, "gimle") == ["leader"]
