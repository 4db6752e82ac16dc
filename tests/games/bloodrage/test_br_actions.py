"""BR-15 .. BR-29: the action phase."""

from __future__ import annotations

import pytest

from ludoteca.engine import IllegalMove
from ludoteca.games.bloodrage.components import BOX, PROVINCES, RESERVE, TRACKS

from .br_helpers import GAME, P, action_state, at, give, keys, new_game, pending, play, prompt, put


def _draft_out(seats: int = 3, seed: int = 2):
    s = new_game(seats, seed)
    while s.phase == "draft":
        seat = pending(s)[0]
        play(s, seat, GAME.legal(s, seat)[0])
    return s


def test_br_15_rage_equals_rage_stat() -> None:
    s = _draft_out()
    assert s.rage == [6, 6, 6]
    s2 = new_game(3, 2)
    s2.stats[1][0] = 3
    while s2.phase == "draft":
        seat = pending(s2)[0]
        play(s2, seat, GAME.legal(s2, seat)[0])
    assert s2.rage[1] == TRACKS[0][3] == 9


def test_br_16_turn_order_one_action_each() -> None:
    s = action_state()
    assert pending(s) == [0] and prompt(s) == "br.prompt.action"
    play(s, 0, {"type": "invade", "figure": "warrior", "to": "gimle"})
    assert pending(s) == [1]
    play(s, 1, {"type": "invade", "figure": "warrior", "to": "gimle"})
    assert pending(s) == [2]
    play(s, 2, {"type": "pass"})
    assert pending(s) == [0]


def test_br_17_zero_rage_no_action() -> None:
    s = action_state()
    s.rage[1] = 0
    play(s, 0, {"type": "invade", "figure": "leader", "to": "gimle"})  # free
    assert pending(s) == [2]  # seat 1 is skipped
    s.turn = 1
    assert GAME.legal(s, 1) == [{"type": "pass"}]  # forced onto it, it could only pass
    with pytest.raises(IllegalMove):
        play(s, 1, {"type": "invade", "figure": "leader", "to": "gimle"})


def test_br_17_zero_rage_seat_still_reacts() -> None:
    # out of rage, seat 1 takes no turn, yet joins a call to arms and plays a battle card
    s = action_state()
    s.rage[1] = 0
    put(s, 0, "warrior", "gimle", 2)
    put(s, 1, "warrior", "yggdrasil")
    bash = give(s, 1, "tyrs_bash")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    assert prompt(s) == "br.prompt.call" and pending(s) == [1]
    play(s, 1, {"type": "join", "figure": "warrior", "from": "yggdrasil"})
    while prompt(s) == "br.prompt.call":
        play(s, pending(s)[0], {"type": "decline"})
    assert prompt(s) == "br.prompt.battle_card" and 1 in pending(s)
    assert {"type": "play", "card": bash} in GAME.legal(s, 1)


def test_br_18_pass_forfeits_rage() -> None:
    s = action_state()
    events = play(s, 0, {"type": "pass"})
    assert s.rage[0] == 0 and s.passed[0] and "br.pass" in keys(events)
    play(s, 1, {"type": "pass"})
    play(s, 2, {"type": "invade", "figure": "warrior", "to": "gimle"})
    assert pending(s) == [2]  # the others have passed


def test_br_19_phase_ends_when_all_out_of_rage_or_all_pillaged() -> None:
    s = action_state()
    for seat in range(3):
        play(s, seat, {"type": "pass"})
    assert s.phase != "action"
    s = action_state()
    for p in range(9):
        s.pillaged[p] = p != P("gimle")
    put(s, 0, "warrior", "gimle")
    events = play(s, 0, {"type": "pillage", "province": "gimle"})
    events += play(s, 1, {"type": "decline"}) if pending(s) == [1] else []
    from .br_helpers import settle
    events += settle(s)
    assert "br.action_over" in keys(events) and s.rage[1] == 6


def test_br_20_invade_costs_str_leader_free() -> None:
    s = action_state()
    play(s, 0, {"type": "invade", "figure": "leader", "to": "andlang"})
    assert s.rage[0] == 6 and at(s, 0, "andlang") == ["leader"]
    s.turn = 0
    play(s, 0, {"type": "invade", "figure": "warrior", "to": "andlang"})
    assert s.rage[0] == 5
    s.turn = 0
    put(s, 1, "warrior", "andlang")  # andlang (3 villages) is now full
    moves = GAME.legal(s, 0)
    assert {"type": "invade", "figure": "warrior", "to": "andlang"} not in moves


def test_br_21_ships_only_into_fjords() -> None:
    s = action_state()
    moves = [m for m in GAME.legal(s, 0) if m["type"] == "invade" and m["figure"] == "ship"]
    assert {m["to"] for m in moves} == {"fjord_manheim", "fjord_west", "fjord_south", "fjord_jotunheim"}
    put(s, 1, "ship", "fjord_west")
    play(s, 0, {"type": "invade", "figure": "ship", "to": "fjord_west"})  # shared fjord
    assert s.rage[0] == 4 and at(s, 0, "fjord_west") == ["ship"]


def test_br_22_no_invasion_of_yggdrasil() -> None:
    s = action_state()
    assert not [m for m in GAME.legal(s, 0) if m.get("to") == "yggdrasil" and m["type"] == "invade"]
    with pytest.raises(IllegalMove) as info:
        play(s, 0, {"type": "invade", "figure": "warrior", "to": "yggdrasil"})
    assert info.value.code == "no_invade_yggdrasil"


def test_br_23_horns_limit() -> None:
    s = action_state()
    put(s, 0, "warrior", "gimle", 4)  # Horns 4
    assert not [m for m in GAME.legal(s, 0) if m["type"] == "invade"]
    with pytest.raises(IllegalMove) as info:
        play(s, 0, {"type": "invade", "figure": "leader", "to": "horgr"})
    assert info.value.code == "horns_limit"


def test_br_24_march_one_province_to_another() -> None:
    s = action_state()
    put(s, 0, "warrior", "gimle", 3)
    put(s, 0, "leader", "gimle")
    put(s, 0, "ship", "fjord_south")
    play(s, 0, {"type": "march", "from": "gimle"})
    assert s.rage[0] == 5 and prompt(s) == "br.prompt.march"
    legal = GAME.legal(s, 0)
    assert {"type": "march_add", "figure": "ship"} not in legal
    play(s, 0, {"type": "march_add", "figure": "warrior"})
    play(s, 0, {"type": "march_add", "figure": "leader"})
    dests = {m["to"] for m in GAME.legal(s, 0) if m["type"] == "march_to"}
    assert "yggdrasil" in dests and "muspelheim" in dests and "gimle" not in dests  # any distance
    play(s, 0, {"type": "march_to", "to": "yggdrasil"})
    assert at(s, 0, "yggdrasil") == ["leader", "warrior"] and at(s, 0, "gimle") == ["warrior", "warrior"]
    assert at(s, 0, "fjord_south") == ["ship"] and pending(s) == [1]
    # a march may not overfill: Andlang has 3 villages
    s.turn = 0
    put(s, 0, "warrior", "horgr", 3)
    play(s, 0, {"type": "march", "from": "horgr"})
    for _ in range(3):
        play(s, 0, {"type": "march_add", "figure": "warrior"})
    assert {"type": "march_to", "to": "andlang"} in GAME.legal(s, 0)
    put(s, 1, "warrior", "andlang")
    assert {"type": "march_to", "to": "andlang"} not in GAME.legal(s, 0)


def test_br_25_upgrade_pays_cost_and_replaces() -> None:
    s = action_state()
    a = give(s, 0, "thors_glory")
    play(s, 0, {"type": "upgrade", "card": a, "slot": "clan2"})
    assert s.rage[0] == 4 and s.upgrades[0][6] == a and a not in s.hands[0]
    s.turn = 0
    b = give(s, 0, "lokis_domain")
    events = play(s, 0, {"type": "upgrade", "card": b, "slot": "clan2"})
    assert s.upgrades[0][6] == b and "br.upgrade_replaced" in keys(events) and s.rage[0] == 3
    s.turn = 0
    c = give(s, 0, "friggas_succor")
    s.rage[0] = 1
    assert not [m for m in GAME.legal(s, 0) if m.get("card") == c]  # costs 2


def test_br_26_free_invasion_after_figure_upgrade() -> None:
    s = action_state()
    cid = give(s, 0, "lokis_dragons")
    play(s, 0, {"type": "upgrade", "card": cid, "slot": "ship"})
    assert s.rage[0] == 4 and prompt(s) == "br.prompt.free_invade" and pending(s) == [0]
    play(s, 0, {"type": "free_invade", "figure": "ship", "to": "fjord_west"})
    assert s.rage[0] == 4 and at(s, 0, "fjord_west") == ["ship"] and pending(s) == [1]


def test_br_26_no_free_invasion_without_the_figure_in_reserve() -> None:
    s = action_state()
    put(s, 0, "leader", "gimle")
    cid = give(s, 0, "lord_of_hammers")
    play(s, 0, {"type": "upgrade", "card": cid, "slot": "leader"})
    assert s.rage[0] == 3 and prompt(s) == "br.prompt.action" and pending(s) == [1]


def test_br_27_monsters_join_reserve_free_invasion_replace() -> None:
    s = action_state()
    troll = give(s, 0, "troll")
    play(s, 0, {"type": "upgrade", "card": troll, "slot": "monster1"})
    assert "troll" in s.kinds[0] and s.rage[0] == 4
    play(s, 0, {"type": "free_invade", "figure": "troll", "to": "horgr"})
    assert at(s, 0, "horgr") == ["troll"] and s.rage[0] == 4
    s.turn = 0
    dwarf = give(s, 0, "dwarf_chieftain")
    play(s, 0, {"type": "upgrade", "card": dwarf, "slot": "monster1"})  # replaces the Troll
    i = s.kinds[0].index("troll")
    assert s.locs[0][i] == BOX and "troll" not in str(GAME.view(s, None)["provinces"])
    play(s, 0, {"type": "decline"})
    assert s.locs[0][s.kinds[0].index("dwarf_chieftain")] == RESERVE


def test_br_28_quest_costs_nothing() -> None:
    s = action_state()
    q1 = give(s, 0, "quest_alfheim")
    q2 = give(s, 0, "quest_alfheim")
    play(s, 0, {"type": "quest", "card": q1})
    s.turn = 0
    play(s, 0, {"type": "quest", "card": q2})
    assert s.quests[0] == [q1, q2] and s.rage[0] == 6
    assert GAME.view(s, 1)["clans"][0]["quests"] == 2 and q1 not in str(GAME.view(s, 1))


def test_br_29_pillage_needs_a_figure_there() -> None:
    s = action_state()
    assert not [m for m in GAME.legal(s, 0) if m["type"] == "pillage"]
    put(s, 0, "ship", "fjord_south")
    options = {m["province"] for m in GAME.legal(s, 0) if m["type"] == "pillage"}
    assert options == {"andlang", "utgard"}  # from the supporting fjord (printed board)
    s.pillaged[P("andlang")] = True
    options = {m["province"] for m in GAME.legal(s, 0) if m["type"] == "pillage"}
    assert options == {"utgard"}
    assert PROVINCES[P("utgard")] == "utgard"
