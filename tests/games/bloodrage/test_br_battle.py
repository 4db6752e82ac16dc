"""BR-30 .. BR-43: pillage and battle."""

from __future__ import annotations

from ludoteca.games.bloodrage.components import VALHALLA

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
    prompt,
    put,
    settle,
)


def test_br_30_call_to_arms_order_and_one_figure_per_step() -> None:
    s = action_state(4)
    put(s, 0, "warrior", "gimle")
    put(s, 1, "warrior", "andlang", 2)  # andlang is adjacent to gimle
    put(s, 2, "warrior", "yggdrasil")
    put(s, 3, "warrior", "muspelheim")  # not adjacent to gimle
    put(s, 3, "ship", "fjord_jotunheim")
    s.turn = 0
    play(s, 0, {"type": "pillage", "province": "gimle"})
    assert prompt(s) == "br.prompt.call" and pending(s) == [1]  # the pillager's left first
    assert {"type": "join", "figure": "warrior", "from": "andlang"} in GAME.legal(s, 1)
    play(s, 1, {"type": "join", "figure": "warrior", "from": "andlang"})
    assert pending(s) == [2]  # seat 3 has nothing adjacent but will be skipped later
    play(s, 2, {"type": "join", "figure": "warrior", "from": "yggdrasil"})
    # seat 3 cannot join (no adjacent figure, ships never move); seat 0 has nothing adjacent either
    assert pending(s) == [1]  # round two
    assert at(s, 1, "gimle") == ["warrior"] and at(s, 2, "gimle") == ["warrior"]


def test_br_31_call_ends_when_full_or_all_decline() -> None:
    s = action_state(3)
    put(s, 0, "warrior", "andlang", 2)  # andlang: 3 villages
    put(s, 1, "warrior", "gimle", 3)
    give(s, 0, "tyrs_bash")
    give(s, 1, "tyrs_smash")
    play(s, 0, {"type": "pillage", "province": "andlang"})
    play(s, 1, {"type": "join", "figure": "warrior", "from": "gimle"})
    # full: nobody else is asked, the battle starts
    assert prompt(s) == "br.prompt.battle_card" and s.battle.participants == [0, 1]
    s = action_state(3)
    put(s, 0, "warrior", "yggdrasil")
    put(s, 1, "warrior", "gimle", 2)
    put(s, 2, "warrior", "horgr")
    for seat in range(3):
        give(s, seat, "tyrs_smash")
    play(s, 0, {"type": "pillage", "province": "yggdrasil"})
    play(s, 1, {"type": "join", "figure": "warrior", "from": "gimle"})
    play(s, 2, {"type": "decline"})
    assert pending(s) == [1]  # seat 0 has nothing adjacent to add; the round goes on
    play(s, 1, {"type": "join", "figure": "warrior", "from": "gimle"})  # Yggdrasil never fills
    play(s, 2, {"type": "decline"})
    assert prompt(s) == "br.prompt.battle_card"  # seat 1 has nothing left, seat 2 declined: over
    assert s.battle.participants == [0, 1] and count_at(s, 1, P("yggdrasil")) == 2


def test_br_32_no_enemy_automatic_success_no_glory() -> None:
    s = action_state()
    put(s, 0, "warrior", "gimle")
    token = s.tokens[P("gimle")]
    events = play(s, 0, {"type": "pillage", "province": "gimle"})
    events += settle(s)
    assert s.pillaged[P("gimle")] and "br.no_battle" in keys(events) and "br.battle" not in keys(events)
    glory = 5 if token == "glory" else 0
    assert s.glory[0] == glory


def test_br_33_participants_include_fjords() -> None:
    s = battle_state()
    put(s, 2, "ship", "fjord_west")
    give(s, 0, "tyrs_smash")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    while prompt(s) == "br.prompt.call":
        play(s, pending(s)[0], {"type": "decline"})
    assert s.battle.participants == [0, 1, 2]
    ev = settle(s)
    totals = next(e for e in ev if e.key == "br.totals").args
    assert totals["totals"] == [[0, 5], [1, 1], [2, 2]] and at(s, 2, "fjord_west") == []


def test_br_34_cards_chosen_face_down_revealed_together() -> None:
    s = battle_state()
    a = give(s, 0, "tyrs_smash")
    b = give(s, 1, "tyrs_bash")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    while prompt(s) == "br.prompt.call":
        play(s, pending(s)[0], {"type": "decline"})
    assert prompt(s) == "br.prompt.battle_card" and sorted(pending(s)) == [0, 1]
    ev = play(s, 1, {"type": "play", "card": b})
    assert "tyrs_bash" not in str([e.to_json() for e in ev]) and "tyrs_bash" not in str(GAME.view(s, 0))
    assert GAME.view(s, 0)["battle"]["chosen"][1] is True
    ev = play(s, 0, {"type": "play", "card": a})
    reveal = next(e for e in ev if e.key == "br.reveal")
    assert reveal.args["cards"] == [[0, "tyrs_smash"], [1, "tyrs_bash"]]


def test_br_35_only_battle_cards_count() -> None:
    s = battle_state()
    give(s, 0, "quest_manheim")
    give(s, 1, "tyrs_bash")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    ev = settle(s, {0: "quest_manheim", 1: "tyrs_bash"})
    totals = next(e for e in ev if e.key == "br.totals").args
    assert totals["totals"] == [[0, 2], [1, 3]] and totals["winner"] == 1


def test_br_36_clan_without_figures_stays_in_and_may_win_with_its_card() -> None:
    s = action_state()
    put(s, 0, "warrior", "gimle", 2)
    put(s, 1, "warrior", "gimle", 1)
    give(s, 0, "odins_smite")
    rage = give(s, 1, "tyrs_rage")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    ev = settle(s, {0: "odins_smite", 1: "tyrs_rage"})
    assert "br.out_of_battle" in keys(ev) and s.battle is None
    totals = next(e for e in ev if e.key == "br.totals").args
    # seat 1's only warrior died to the Smite before the comparison: 0 + 6 beats 2 + 1
    assert totals["totals"] == [[0, 3], [1, 6]] and totals["winner"] == 1
    assert s.glory[1] == 3 and rage not in s.hands[1]  # the winner's Axes glory; its card discarded
    assert at(s, 0, "gimle") == [] and count_at(s, 0, VALHALLA) == 2  # the losing pillager's figures die
    assert not s.pillaged[P("gimle")]


def test_br_37_after_reveal_cards_pillager_first() -> None:
    s = battle_state()
    give(s, 0, "tyrs_bash")
    eye0 = give(s, 0, "heimdalls_eye")
    give(s, 0, "quest_manheim")
    give(s, 1, "tyrs_smash")
    eye1 = give(s, 1, "heimdalls_eye")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    while prompt(s) == "br.prompt.call":
        play(s, pending(s)[0], {"type": "decline"})
    play(s, 0, {"type": "play", "card": s.hands[0][0]})
    play(s, 1, {"type": "play", "card": s.hands[1][0]})
    assert prompt(s) == "br.prompt.extra_card" and pending(s) == [0]
    play(s, 0, {"type": "play_extra", "card": eye0})
    assert pending(s) == [1]
    ev = play(s, 1, {"type": "play_extra", "card": eye1})
    assert pending(s) == [0] and GAME.legal(s, 0) == [{"type": "decline"}]  # asked, though it holds no Eye
    ev += settle(s)
    totals = next(e for e in ev if e.key == "br.totals").args
    assert totals["totals"] == [[0, 2 + 2 + 2], [1, 1 + 3 + 2]]


def test_br_38_highest_str_wins_tie_all_lose() -> None:
    s = battle_state()
    give(s, 0, "tyrs_bash")
    give(s, 1, "tyrs_smash")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    ev = settle(s)
    assert next(e for e in ev if e.key == "br.totals").args["winner"] == -1
    assert count_at(s, 0, VALHALLA) == 2 and count_at(s, 1, VALHALLA) == 1
    assert not s.pillaged[P("gimle")] and s.glory == [0, 0, 0]


def test_br_38_a_tie_at_the_top_makes_all_three_clans_lose() -> None:
    s = battle_state()
    put(s, 2, "warrior", "gimle")
    give(s, 0, "tyrs_bash")  # 2 + 2
    give(s, 1, "tyrs_smash")  # 1 + 3
    give(s, 2, "heimdalls_eye")  # 1 + 2: lower, and still a loser
    play(s, 0, {"type": "pillage", "province": "gimle"})
    ev = settle(s)
    totals = next(e for e in ev if e.key == "br.totals").args
    assert totals["totals"] == [[0, 4], [1, 4], [2, 3]] and totals["winner"] == -1
    assert [count_at(s, seat, VALHALLA) for seat in range(3)] == [2, 1, 1] and s.glory == [0, 0, 0]
    assert all(len(s.hands[seat]) == 1 for seat in range(3))  # every card back in its hand


def test_br_39_winner_discards_losers_take_back() -> None:
    s = battle_state()
    win = give(s, 0, "tyrs_smash")
    lose = give(s, 1, "tyrs_bash")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    settle(s)
    assert win not in s.hands[0] and lose in s.hands[1]


def test_br_40_losers_figures_to_valhalla_ships_too() -> None:
    s = battle_state()
    put(s, 1, "ship", "fjord_west")
    give(s, 0, "tyrs_rage")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    settle(s)
    assert at(s, 1, "gimle") == [] and at(s, 1, "fjord_west") == [] and count_at(s, 1, VALHALLA) == 2
    assert at(s, 0, "gimle") == ["warrior", "warrior"]


def test_br_41_winner_gains_axes_glory() -> None:
    s = battle_state()
    s.tokens[P("gimle")] = "rage"
    s.stats[1][1] = 2  # Axes 5
    give(s, 1, "tyrs_rage")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    settle(s)
    assert s.glory[1] == 5 and s.glory[0] == 0 and not s.pillaged[P("gimle")]


def test_br_42_pillage_rewards() -> None:
    for token, check in (("rage", lambda s: s.stats[0] == [1, 0, 0] and s.glory[0] == 4),
                         ("axes", lambda s: s.stats[0] == [0, 1, 0] and s.glory[0] == 4 + 0),
                         ("horns", lambda s: s.stats[0] == [0, 0, 1] and s.glory[0] == 3),
                         ("glory", lambda s: s.glory[0] == 5 + 3)):
        s = battle_state()
        s.tokens[P("gimle")] = token
        give(s, 0, "tyrs_rage")
        play(s, 0, {"type": "pillage", "province": "gimle"})
        settle(s)
        if token == "rage":
            assert s.stats[0] == [1, 0, 0] and s.glory[0] == 3 and s.rage[0] == 6  # no rage now
        elif token == "axes":
            assert s.stats[0] == [0, 1, 0] and s.glory[0] == 4  # the new Axes counts at once
        else:
            assert check(s)
        assert s.pillaged[P("gimle")]
    s = action_state()
    put(s, 0, "warrior", "yggdrasil")
    play(s, 0, {"type": "pillage", "province": "yggdrasil"})
    settle(s)
    assert s.stats[0] == [1, 1, 1]


def test_br_43_failed_pillage_may_be_retried() -> None:
    s = battle_state()
    give(s, 1, "tyrs_rage")
    play(s, 0, {"type": "pillage", "province": "gimle"})
    settle(s)
    assert not s.pillaged[P("gimle")]
    s.turn = 1
    assert {"type": "pillage", "province": "gimle"} in GAME.legal(s, 1)
