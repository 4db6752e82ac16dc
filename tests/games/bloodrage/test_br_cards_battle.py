"""BR-54 .. BR-72: the timing system, battle cards and quests."""

from __future__ import annotations

from ludoteca.games.bloodrage.components import VALHALLA
from ludoteca.games.bloodrage.effects import HOOKS

from .br_helpers import (
    GAME,
    P,
    action_state,
    at,
    battle_state,
    count_at,
    give,
    keys,
    pending,
    play,
    put,
    settle,
)


def _totals(events: list) -> dict:
    return next(e for e in events if e.key == "br.totals").args


def _fight(s, cards: dict[int, str], choose=None) -> list:
    for seat, name in cards.items():
        give(s, seat, name)
    events = play(s, 0, {"type": "pillage", "province": "gimle"})
    return events + settle(s, cards, choose)


def test_br_54_hooks_are_registered_by_timing() -> None:
    assert set(HOOKS["odins_smite"]) == {"reveal"}
    assert set(HOOKS["thors_hammer"]) == {"win"} and set(HOOKS["lokis_trickery"]) == {"lose"}
    assert set(HOOKS["lokis_domain"]) == {"release"} and set(HOOKS["troll"]) == {"invaded"}
    # order: lose hooks before win hooks, a decision queued by a hook resolves before play goes on
    s = battle_state()
    events = _fight(s, {0: "thors_oath", 1: "lokis_trickery"}, choose=lambda st, seat, legal: None)
    assert keys(events).index("br.steal_rage") < keys(events).index("br.stat_up")
    assert pending(s) == [1]  # the action turn resumes only once the oath's raise was chosen


def test_br_55_tyrs_cards_add_str() -> None:
    for name, bonus in (("tyrs_bash", 2), ("tyrs_smash", 3), ("tyrs_crush", 4), ("tyrs_smite", 5), ("tyrs_rage", 6)):
        s = battle_state()
        events = _fight(s, {0: name})
        assert _totals(events)["totals"] == [[0, 2 + bonus], [1, 1]]


def test_br_56_odins_smite() -> None:
    s = battle_state()
    put(s, 1, "warrior", "gimle")
    put(s, 1, "leader", "gimle")
    events = _fight(s, {0: "odins_smite"})
    assert next(e.args["cause"] for e in events if e.key == "br.destroyed") == "odins_smite"
    assert _totals(events)["totals"] == [[0, 3], [1, 1 + 3]]


def test_br_57_heimdalls_sight() -> None:
    s = battle_state()
    events = _fight(s, {0: "heimdalls_sight", 1: "tyrs_crush"})
    assert _totals(events)["totals"] == [[0, 2 + 4], [1, 1 + 4]]


def test_br_58_friggas_grace() -> None:
    s = battle_state()
    s.tokens[P("gimle")] = "rage"
    offered: list = []

    def choose(st, seat, legal):
        if GAME.pending(st)[0].prompt.key == "br.prompt.raise":
            offered.extend(legal)
            return legal[-1]
        return None

    events = _fight(s, {0: "friggas_grace"}, choose=choose)
    assert offered == [{"type": "raise", "stat": "axes"}, {"type": "raise", "stat": "horns"}]
    assert s.stats[0] == [1, 0, 1] and "br.stat_up" in keys(events)  # rage from the token, horns from Grace


def test_br_59_lokis_trickery() -> None:
    s = battle_state()
    _fight(s, {0: "tyrs_smash", 1: "lokis_trickery"})
    assert s.rage == [5, 7, 6]


def test_br_60_thors_hammer() -> None:
    s = battle_state()
    s.tokens[P("gimle")] = "rage"
    _fight(s, {0: "thors_hammer"})
    assert s.glory[0] == 3 + 3


def test_br_61_heimdalls_eye_and_gaze() -> None:
    s = battle_state()
    give(s, 0, "tyrs_bash")
    gaze = give(s, 1, "heimdalls_gaze")
    give(s, 1, "tyrs_bash" if False else "lokis_trickery")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    events = settle(s, {0: "tyrs_bash", 1: "lokis_trickery"},
                    choose=lambda st, seat, legal: {"type": "play_extra", "card": gaze}
                    if {"type": "play_extra", "card": gaze} in legal else None)
    assert "br.extra_card" in keys(events) and _totals(events)["totals"] == [[0, 4], [1, 1 + 0 + 3]]
    s = battle_state()
    events = _fight(s, {0: "heimdalls_eye"})  # also a normal battle card
    assert _totals(events)["totals"] == [[0, 4], [1, 1]]


def test_br_62_odins_tide() -> None:
    s = battle_state()
    put(s, 1, "leader", "gimle")
    put(s, 1, "ship", "fjord_west")
    keep = {0: {"type": "keep_figure", "figure": "warrior", "at": "gimle"},
            1: {"type": "keep_figure", "figure": "leader", "at": "gimle"}}
    events = _fight(s, {0: "odins_tide"}, choose=lambda st, seat, legal: keep[seat]
                    if GAME.pending(st)[0].prompt.key == "br.prompt.tide" else None)
    assert _totals(events)["totals"] == [[0, 1 + 1], [1, 3]]
    assert count_at(s, 1, VALHALLA) == 2 and count_at(s, 0, VALHALLA) == 2  # tide 1+2, then the loss


def test_br_63_lokis_backstab() -> None:
    s = battle_state()
    s.glory[0] = 7
    s.tokens[P("gimle")] = "rage"
    _fight(s, {0: "tyrs_smash", 1: "lokis_backstab"})
    assert s.glory == [7 + 3 - 2, 2, 0]


def test_br_64_heimdalls_watch() -> None:
    s = battle_state()
    give(s, 0, "tyrs_rage")
    give(s, 1, "tyrs_bash")
    events = _fight(s, {0: "tyrs_smite", 1: "heimdalls_watch"})
    assert "br.watch" in keys(events) and s.glory[1] >= 5
    reveals = [e.args["cards"] for e in events if e.key == "br.reveal"]
    assert len(reveals) == 2 and reveals[1] == [[0, "tyrs_rage"], [1, "tyrs_bash"]]
    assert _totals(events)["totals"] == [[0, 8], [1, 3]]


def test_br_65_thors_oath() -> None:
    s = battle_state()
    s.tokens[P("gimle")] = "glory"
    _fight(s, {0: "thors_oath"}, choose=lambda st, seat, legal: {"type": "raise", "stat": "axes"}
           if {"type": "raise", "stat": "axes"} in legal else None)
    assert s.stats[0] == [0, 1, 0]


def test_br_66_thors_primacy() -> None:
    s = battle_state()
    s.glory[0] = 10
    events = _fight(s, {0: "lokis_backstab", 1: "thors_primacy"})
    assert "br.cancelled" in keys(events)
    assert s.glory[0] == 10 and _totals(events)["totals"] == [[0, 2], [1, 4]]  # no theft
    s = battle_state()
    put(s, 1, "warrior", "gimle")
    events = _fight(s, {0: "thors_primacy", 1: "odins_smite"})
    assert "br.destroyed" not in keys(events[: keys(events).index("br.totals")])


def test_br_67_thors_ascension() -> None:
    s = battle_state()
    s.tokens[P("gimle")] = "horns"
    _fight(s, {0: "thors_ascension"})
    assert s.rage[0] == 9 and s.glory[0] == 3 + 3


def test_br_68_odins_judgement() -> None:
    s = battle_state()
    put(s, 1, "warrior", "gimle")
    give(s, 0, "tyrs_smash")
    events = _fight(s, {1: "odins_judgement"})
    assert _totals(events)["winner"] == 0 and s.glory[1] == 2 * 2  # its own two warriors died


def test_br_69_lokis_poison() -> None:
    s = battle_state()
    events = _fight(s, {0: "tyrs_smite", 1: "lokis_poison"})
    assert "br.poison" in keys(events)
    names = sorted(GAME.view(s, 1)["you"]["hand"], key=lambda c: c["name"])
    assert [c["name"] for c in names] == ["lokis_poison", "tyrs_smite"] and s.hands[0] == []


def test_br_69_lokis_poison_leaves_the_winners_card_effects() -> None:
    # the winner's "if you win" and battle-end texts still act; Poison only takes the cards
    s = battle_state()
    s.tokens[P("gimle")] = "horns"
    events = _fight(s, {0: "thors_hammer", 1: "lokis_poison"})
    assert _totals(events)["winner"] == 0 and s.glory[0] == 3 + 3
    assert sorted(GAME.view(s, 1)["you"]["hand"], key=lambda c: c["name"])[1]["name"] == "thors_hammer"
    s = battle_state()
    s.tokens[P("gimle")] = "horns"
    put(s, 1, "warrior", "gimle")
    give(s, 0, "tyrs_bash")
    events = _fight(s, {0: "odins_judgement", 1: "lokis_poison"})
    assert _totals(events)["winner"] == 0 and s.glory[0] == 3 + 2 * 2  # Axes, then two dead warriors
    assert [c["name"] for c in GAME.view(s, 1)["you"]["hand"]].count("odins_judgement") == 1


def _quest_phase(s, seat: int, name: str) -> list:
    q = give(s, seat, name)
    s.quests[seat].append(q)
    s.hands[seat].remove(q)
    events = []
    while s.phase == "action" and not s.stack:
        events += play(s, pending(s)[0], {"type": "pass"})
    return events


def test_br_70_province_quests() -> None:
    for name, where in (("quest_alfheim", "andlang"), ("quest_jotunheim", "utgard"), ("quest_manheim", "elvagar")):
        s = action_state()
        s.ragnarok = [P("horgr"), P("gimle"), P("muspelheim")]
        put(s, 0, "warrior", where)
        events = _quest_phase(s, 0, name)
        assert [e.args["done"] for e in events if e.key == "br.quest_result"] == [True] and s.glory[0] == 5


def test_br_71_yggdrasil_quest() -> None:
    s = action_state()
    put(s, 0, "leader", "yggdrasil")
    put(s, 1, "warrior", "yggdrasil", 2)
    events = _quest_phase(s, 0, "quest_yggdrasil")
    assert [e.args["done"] for e in events if e.key == "br.quest_result"] == [True] and s.glory[0] == 6


def test_br_72_glorious_death() -> None:
    s = action_state()
    for i in range(2, 5):
        s.locs[0][i] = VALHALLA
    events = _quest_phase(s, 0, "glorious_death")
    assert [e.args["done"] for e in events if e.key == "br.quest_result"] == [False]
    s = action_state()
    for i in range(2, 6):
        s.locs[0][i] = VALHALLA
    events = _quest_phase(s, 0, "glorious_death")
    assert [e.args["done"] for e in events if e.key == "br.quest_result"] == [True] and s.glory[0] == 6
    assert at(s, 0, "gimle") == []
