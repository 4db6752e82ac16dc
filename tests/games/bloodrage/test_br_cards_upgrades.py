"""BR-73 .. BR-103: figure upgrades, monsters and clan upgrades."""

from __future__ import annotations

from ludoteca.games.bloodrage.board import invade_cost, str_at
from ludoteca.games.bloodrage.components import RESERVE, VALHALLA, YGG

from .br_helpers import (
    GAME,
    P,
    action_state,
    at,
    battle_state,
    count_at,
    equip,
    give,
    keys,
    pending,
    play,
    prompt,
    put,
    settle,
)


def _totals(events: list) -> dict:
    return next(e for e in events if e.key == "br.totals").args


def _pillage(s, cards: dict[int, str] | None = None, choose=None, where: str = "gimle") -> list:
    for seat, name in (cards or {}).items():
        give(s, seat, name)
    events = play(s, 0, {"type": "pillage", "province": where})
    return events + settle(s, cards, choose)


def _pass_all(s) -> list:
    events = []
    while s.phase == "action" and not s.stack:
        events += play(s, pending(s)[0], {"type": "pass"})
    return events


def _answer(prompt_key: str, move: dict):
    def choose(st, seat, legal):
        return move if GAME.pending(st)[0].prompt.key == prompt_key and move in legal else None
    return choose


def test_br_73_brothers_in_arms() -> None:
    s = action_state()
    equip(s, 0, "brothers_in_arms")
    put(s, 0, "warrior", "gimle", 5)
    assert str_at(s, 0, P("gimle")) == 3 + 3 + 1 and invade_cost(s, 0, "warrior") == 1


def test_br_74_experts_in_arms() -> None:
    s = action_state()
    equip(s, 0, "experts_in_arms")
    put(s, 0, "warrior", "gimle", 3)
    assert str_at(s, 0, P("gimle")) == 6
    play(s, 0, {"type": "invade", "figure": "warrior", "to": "horgr"})
    assert s.rage[0] == 4


def test_br_75_masters_in_arms() -> None:
    s = action_state()
    equip(s, 0, "masters_in_arms")
    put(s, 0, "warrior", "gimle", 3)
    assert str_at(s, 0, P("gimle")) == 6 + 2


def test_br_76_lord_of_hammers() -> None:
    s = action_state()
    equip(s, 0, "lord_of_hammers")
    put(s, 0, "leader", "gimle")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    assert prompt(s) == "br.prompt.hammers"
    assert {"type": "move_leader", "to": "andlang"} in GAME.legal(s, 0)
    assert {"type": "move_leader", "to": "horgr"} not in GAME.legal(s, 0)  # not adjacent
    play(s, 0, {"type": "move_leader", "to": "yggdrasil"})
    assert at(s, 0, "yggdrasil") == ["leader"] and s.pillaged[P("gimle")]


def test_br_77_lord_of_axes() -> None:
    s = action_state()
    s.tokens[P("gimle")] = "glory"
    equip(s, 0, "lord_of_axes")
    put(s, 0, "leader", "gimle")
    _pillage(s, choose=_answer("br.prompt.raise", {"type": "raise", "stat": "horns"}))
    assert s.stats[0] == [0, 0, 1] and s.glory[0] == 5
    s = action_state()
    equip(s, 0, "lord_of_axes")
    put(s, 0, "warrior", "gimle")  # the leader is elsewhere: nothing
    s.tokens[P("gimle")] = "glory"
    _pillage(s)
    assert s.stats[0] == [0, 0, 0]


def test_br_78_lord_of_spears() -> None:
    s = action_state()
    s.tokens[P("gimle")] = "glory"
    equip(s, 0, "lord_of_spears")
    put(s, 0, "leader", "gimle")
    _pillage(s)
    assert s.stats[0] == [1, 1, 1]


def test_br_79_dragons() -> None:
    for name, glory in (("lokis_dragons", 4), ("fire_dragons", 8), ("eternal_dragons", 12)):
        s = battle_state()
        equip(s, 1, name)
        put(s, 1, "ship", "fjord_west")
        _pillage(s, {0: "tyrs_rage"})
        assert s.glory[1] == glory and count_at(s, 1, VALHALLA) == 2


def test_br_80_troll() -> None:
    s = action_state()
    put(s, 1, "warrior", "horgr", 2)
    put(s, 1, "leader", "horgr")
    troll = give(s, 0, "troll")
    play(s, 0, {"type": "upgrade", "card": troll, "slot": "monster1"})
    events = play(s, 0, {"type": "free_invade", "figure": "troll", "to": "horgr"})
    assert at(s, 1, "horgr") == ["leader"] and count_at(s, 1, VALHALLA) == 2 and "br.destroyed" in keys(events)


def test_br_81_dwarf_chieftain() -> None:
    s = action_state()
    d = give(s, 0, "dwarf_chieftain")
    play(s, 0, {"type": "upgrade", "card": d, "slot": "monster2"})
    assert s.rage[0] == 6 and invade_cost(s, 0, "dwarf_chieftain") == 0
    play(s, 0, {"type": "free_invade", "figure": "dwarf_chieftain", "to": "gimle"})
    assert str_at(s, 0, P("gimle")) == 2


def test_br_82_sea_serpent() -> None:
    s = action_state()
    equip(s, 0, "sea_serpent")
    targets = {m["to"] for m in GAME.legal(s, 0) if m["type"] == "invade" and m["figure"] == "sea_serpent"}
    assert targets == {"fjord_manheim", "fjord_west", "fjord_south", "fjord_jotunheim"}
    play(s, 0, {"type": "invade", "figure": "sea_serpent", "to": "fjord_south"})
    assert s.rage[0] == 3 and str_at(s, 0, P("utgard")) == 3


def test_br_83_valkyrie() -> None:
    s = battle_state()
    equip(s, 0, "valkyrie")
    put(s, 0, "valkyrie", "gimle")
    put(s, 1, "warrior", "gimle")
    s.tokens[P("gimle")] = "rage"
    _pillage(s)
    assert s.glory[0] == 3 + 2 * 2


def test_br_84_dark_elf() -> None:
    s = action_state()
    equip(s, 0, "dark_elf")
    assert {"type": "invade", "figure": "dark_elf", "to": "yggdrasil"} in GAME.legal(s, 0)
    play(s, 0, {"type": "invade", "figure": "dark_elf", "to": "yggdrasil"})
    assert str_at(s, 0, YGG) == 3 and s.rage[0] == 5
    s.locs[0][-1] = P("gimle")
    assert str_at(s, 0, P("gimle")) == 1


def test_br_85_fire_giant() -> None:
    s = action_state()
    put(s, 1, "warrior", "horgr")
    put(s, 1, "leader", "horgr")
    equip(s, 1, "troll")
    put(s, 1, "troll", "horgr")
    equip(s, 0, "fire_giant")
    play(s, 0, {"type": "invade", "figure": "fire_giant", "to": "horgr"})
    assert at(s, 1, "horgr") == ["troll"] and s.rage[0] == 2


def test_br_85_fire_giant_also_kills_in_supporting_fjords() -> None:
    # BR-3: an effect on a province also affects its supporting fjords (ships die, the Serpent stays);
    # Angerboda's fjord is Fjord Manheim (with Elvagar), Fjord West is Myrkulor-Gimle
    s = action_state()
    put(s, 1, "warrior", "angerboda")
    put(s, 1, "ship", "fjord_manheim")
    equip(s, 1, "sea_serpent")
    put(s, 1, "sea_serpent", "fjord_manheim")
    put(s, 2, "ship", "fjord_west")
    equip(s, 0, "fire_giant")
    play(s, 0, {"type": "invade", "figure": "fire_giant", "to": "angerboda"})
    assert at(s, 1, "angerboda") == [] and at(s, 1, "fjord_manheim") == ["sea_serpent"]
    assert count_at(s, 1, VALHALLA) == 2 and at(s, 2, "fjord_west") == ["ship"]


def test_br_86_frost_giant() -> None:
    s = action_state()
    s.tokens[P("gimle")] = "horns"
    equip(s, 0, "frost_giant")
    put(s, 0, "frost_giant", "gimle")
    _pillage(s)
    assert s.stats[0] == [0, 0, 2]


def test_br_87_soldier_of_hel() -> None:
    s = action_state()
    h = give(s, 0, "soldier_of_hel")
    s.rage[0] = 1
    play(s, 0, {"type": "upgrade", "card": h, "slot": "monster1"})
    assert s.rage[0] == 1 and invade_cost(s, 0, "soldier_of_hel") == 0


def test_br_88_volur_witch() -> None:
    s = battle_state()
    equip(s, 1, "volur_witch")
    put(s, 1, "volur_witch", "gimle")
    events = _pillage(s, {0: "tyrs_rage"})
    assert "br.witch_retreat" in keys(events) and at(s, 1, "yggdrasil") == ["volur_witch"]
    assert count_at(s, 1, VALHALLA) == 1


def test_br_89_lokis_release_glory() -> None:
    for name, each in (("lokis_domain", 1), ("lokis_eminence", 2), ("lokis_wrath", 3)):
        s = action_state()
        equip(s, 0, name)
        s.locs[0][2] = s.locs[0][3] = VALHALLA
        _pass_all(s)
        assert s.glory[0] == 2 * each and s.locs[0][2] == RESERVE


def test_br_90_friggas_charm() -> None:
    s = action_state()
    equip(s, 0, "friggas_charm")
    t = give(s, 0, "thors_glory")
    play(s, 0, {"type": "upgrade", "card": t, "slot": "clan2"})
    assert s.rage[0] == 5


def test_br_91_thors_glory() -> None:
    s = battle_state()
    equip(s, 0, "thors_glory")
    put(s, 0, "leader", "gimle")
    put(s, 1, "warrior", "gimle")
    s.tokens[P("gimle")] = "rage"
    _pillage(s)
    assert s.glory[0] == 3 + 2


def test_br_92_friggas_succor() -> None:
    s = action_state()
    equip(s, 0, "friggas_succor")
    play(s, 0, {"type": "invade", "figure": "leader", "to": "gimle"})
    assert prompt(s) == "br.prompt.free_invade"
    play(s, 0, {"type": "free_invade", "figure": "warrior", "to": "gimle"})
    assert at(s, 0, "gimle") == ["leader", "warrior"] and s.rage[0] == 6 and pending(s) == [1]


def test_br_93_tyrs_domain_and_wrath() -> None:
    for name, bonus in (("tyrs_domain", 3), ("tyrs_wrath", 5)):
        s = battle_state()
        equip(s, 0, name)
        events = _pillage(s, {0: "quest_manheim"})
        assert _totals(events)["totals"] == [[0, 2 + bonus], [1, 1]]


def test_br_94_lokis_blessing() -> None:
    s = battle_state()
    equip(s, 1, "lokis_blessing")
    give(s, 0, "tyrs_rage")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    settle(s, choose=_answer("br.prompt.free_invade", {"type": "free_invade", "figure": "warrior", "to": "gimle"}))
    assert at(s, 1, "gimle") == ["warrior"] and count_at(s, 1, VALHALLA) == 1


def test_br_95_odins_inspiration() -> None:
    s = action_state()
    s.ragnarok = [P("horgr"), P("gimle"), P("utgard")]
    equip(s, 0, "odins_inspiration")
    put(s, 0, "warrior", "horgr", 2)
    _pass_all(s)
    assert s.glory[0] == 2 * 2 * 2


def test_br_96_tyrs_challenge() -> None:
    s = action_state()
    equip(s, 0, "tyrs_challenge")
    put(s, 0, "warrior", "gimle")
    s.pillaged[P("gimle")] = True
    assert {"type": "pillage", "province": "gimle"} in GAME.legal(s, 0)
    events = play(s, 0, {"type": "pillage", "province": "gimle"})
    assert s.rage[0] == 4 and "br.challenge" in keys(events)
    s.rage[0] = 1
    s.turn = 0
    assert {"type": "pillage", "province": "gimle"} not in GAME.legal(s, 0)


def test_br_97_friggas_protection() -> None:
    s = battle_state()
    equip(s, 1, "friggas_protection")
    put(s, 1, "leader", "gimle")
    give(s, 0, "tyrs_rage")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    settle(s, choose=_answer("br.prompt.protect", {"type": "protect", "figure": "leader", "at": "gimle"}))
    assert at(s, 1, "gimle") == ["leader"] and count_at(s, 1, VALHALLA) == 1 and s.rage[1] == 5
    # any death but Ragnarok and sacrifice: a Troll's invasion, one figure at a time, rage allowing
    s = action_state()
    equip(s, 1, "friggas_protection")
    put(s, 1, "warrior", "horgr", 2)
    s.rage[1] = 1
    equip(s, 0, "troll")
    play(s, 0, {"type": "invade", "figure": "troll", "to": "horgr"})
    assert prompt(s) == "br.prompt.protect" and pending(s) == [1]
    play(s, 1, {"type": "protect", "figure": "warrior", "at": "horgr"})
    assert s.rage[1] == 0 and at(s, 1, "horgr") == ["warrior"] and count_at(s, 1, VALHALLA) == 1  # no rage left
    assert pending(s) == [2] and prompt(s) == "br.prompt.action"  # seat 1, out of rage, is skipped


def test_br_98_tyrs_prowess() -> None:
    s = battle_state()
    equip(s, 0, "tyrs_prowess")
    smite = give(s, 0, "tyrs_smite")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    settle(s, choose=_answer("br.prompt.prowess", {"type": "keep_card", "card": smite}))
    assert smite in s.hands[0] and s.rage[0] == 5


def test_br_98_tyrs_prowess_cannot_keep_cards_from_lokis_poison() -> None:
    # the FAQ: Loki's Poison takes the revealed cards first; Prowess has nothing left to keep
    s = battle_state()
    equip(s, 0, "tyrs_prowess")
    smite = give(s, 0, "tyrs_smite")
    give(s, 1, "lokis_poison")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    asked: list[str] = []

    def choose(st, seat, legal):
        asked.append(GAME.pending(st)[0].prompt.key)
        return None
    events = settle(s, choose=choose)
    assert "br.prompt.prowess" not in asked and "br.poison" in keys(events)
    assert smite in s.hands[1] and smite not in s.hands[0] and s.rage[0] == 6


def test_br_99_thors_domain() -> None:
    s = action_state()
    equip(s, 0, "thors_domain")
    play(s, 0, {"type": "invade", "figure": "leader", "to": "gimle"})
    assert prompt(s) == "br.prompt.thors_domain"
    play(s, 0, {"type": "domain_pillage", "province": "gimle"})
    settle(s)
    assert s.rage[0] == 4 and s.pillaged[P("gimle")] and pending(s) == [1]


def test_br_100_friggas_domain() -> None:
    s = action_state()
    equip(s, 0, "friggas_domain")
    s.locs[0][0] = VALHALLA
    assert {"type": "valhalla_invade", "figure": "leader", "to": "gimle"} in GAME.legal(s, 0)
    play(s, 0, {"type": "valhalla_invade", "figure": "leader", "to": "gimle"})
    assert at(s, 0, "gimle") == ["leader"] and s.rage[0] == 5


def test_br_101_odins_throne() -> None:
    s = action_state()
    equip(s, 0, "odins_throne")
    put(s, 0, "warrior", "andlang")
    q = give(s, 0, "quest_alfheim")
    s.hands[0].remove(q)
    s.quests[0].append(q)
    s.ragnarok = [P("horgr"), P("gimle"), P("utgard")]
    _pass_all(s)
    assert s.glory[0] == 10


def test_br_102_thors_conquest() -> None:
    s = action_state()
    s.age = 3
    s.ragnarok = [P("gimle"), P("utgard"), P("horgr")]
    equip(s, 0, "thors_conquest")
    put(s, 0, "warrior", "andlang", 2)
    _pass_all(s)
    assert s.over and s.glory[0] == 6
    assert GAME.result(s).breakdown[0]["thors_conquest"] == 6


def test_br_103_friggas_sacrifice() -> None:
    s = action_state()
    equip(s, 0, "friggas_sacrifice")
    put(s, 0, "warrior", "gimle", 2)
    play(s, 0, {"type": "sacrifice"})
    assert prompt(s) == "br.prompt.sacrifice"
    play(s, 0, {"type": "sacrifice_figure", "figure": "warrior", "at": "gimle"})
    play(s, 0, {"type": "sacrifice_figure", "figure": "warrior", "at": "gimle"})
    play(s, 0, {"type": "raise", "stat": "axes"})
    assert s.stats[0] == [0, 1, 0] and count_at(s, 0, VALHALLA) == 2 and s.rage[0] == 6
