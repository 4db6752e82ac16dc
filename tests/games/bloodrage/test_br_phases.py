"""BR-44 .. BR-53: discard, quests, Ragnarok, Valhalla, end of age and game, hidden information."""

from __future__ import annotations

import json

from ludoteca.engine import Rng
from ludoteca.games.bloodrage.components import OUTER, PROVINCES, RESERVE, VALHALLA

from .br_helpers import GAME, P, action_state, at, count_at, give, keys, new_game, pending, play, prompt, put


def _end_actions(s) -> list:
    events = []
    while s.phase == "action" and not s.stack:
        events += play(s, pending(s)[0], {"type": "pass"})
    return events


def test_br_44_discard_keep_one_none_in_age_three() -> None:
    s = action_state()
    a, b = give(s, 0, "tyrs_bash"), give(s, 0, "tyrs_smash")
    give(s, 1, "tyrs_smite")
    _end_actions(s)
    assert prompt(s) == "br.prompt.discard" and pending(s) == [0]  # seat 1 keeps its only card
    assert {"type": "keep", "card": a} in GAME.legal(s, 0) and {"type": "discard_all"} in GAME.legal(s, 0)
    play(s, 0, {"type": "keep", "card": b})
    assert s.hands[0] == [b] and len(s.hands[1]) == 1
    s = action_state()
    s.age = 3
    give(s, 0, "tyrs_bash")
    give(s, 1, "tyrs_smash")
    events = _end_actions(s)
    assert "br.discard_all" in keys(events) and "br.discarded" not in keys(events)
    assert s.hands == [[], [], []] and s.over


def test_br_45_quests_give_glory_and_a_stat() -> None:
    s = action_state()
    q = give(s, 0, "quest_alfheim")
    f = give(s, 0, "quest_manheim")
    play(s, 0, {"type": "quest", "card": q})
    s.turn = 0
    play(s, 0, {"type": "quest", "card": f})
    put(s, 0, "warrior", "gimle")
    events = _end_actions(s)
    assert prompt(s) == "br.prompt.raise" and pending(s) == [0]
    events += play(s, 0, {"type": "raise", "stat": "horns"})
    results = [e.args for e in events if e.key == "br.quest_result"]
    assert [(r["quest"], r["done"]) for r in results] == [("quest_alfheim", True), ("quest_manheim", False)]
    assert s.glory[0] == 5 and s.stats[0] == [0, 0, 1] and s.quests[0] == []


def test_br_46_most_str_ties_fail() -> None:
    from ludoteca.games.bloodrage.rules import quest_done
    s = action_state()
    put(s, 0, "warrior", "gimle", 2)
    put(s, 1, "leader", "gimle")
    assert not quest_done(s, 0, "alfheim")  # 2 against 3
    put(s, 0, "ship", "fjord_west")  # the fjord counts
    assert quest_done(s, 0, "alfheim") and not quest_done(s, 1, "alfheim")
    put(s, 1, "warrior", "gimle")  # 4 against 4: a tie fails
    assert not quest_done(s, 0, "alfheim") and not quest_done(s, 1, "alfheim")
    s.destroyed[P("gimle")] = True
    assert not quest_done(s, 0, "alfheim")


def test_br_47_ragnarok_destroys_and_pays_glory() -> None:
    for age, each in ((1, 2), (2, 3), (3, 4)):
        s = action_state()
        s.age = age
        doomed = P("horgr")
        s.ragnarok = [doomed, P("gimle"), P("utgard")] if age == 1 else [P("gimle"), doomed, P("utgard")] \
            if age == 2 else [P("gimle"), P("utgard"), doomed]
        put(s, 0, "warrior", "horgr", 2)
        put(s, 1, "ship", "fjord_jotunheim")  # supports horgr
        s.kinds[1] = (*s.kinds[1], "troll")
        s.locs[1].append(doomed)  # a monster counts too
        events = _end_actions(s)
        assert "br.ragnarok" in keys(events) and s.destroyed[doomed]
        assert s.glory[0] == 2 * each and s.glory[1] == 2 * each
        assert all(loc != doomed for locs in s.locs for loc in locs)


def test_br_48_doom_moves_on() -> None:
    s = action_state()
    s.ragnarok = [P("horgr"), P("gimle"), P("utgard")]
    events = _end_actions(s)
    doom = next(e for e in events if e.key == "br.doom")
    assert doom.args["province"] == "gimle"
    assert GAME.view(s, None)["doom"] == "gimle"


def test_br_49_release_valhalla_board_stays() -> None:
    s = action_state()
    s.ragnarok = [P("horgr"), P("gimle"), P("utgard")]
    put(s, 0, "warrior", "andlang", 2)
    s.locs[0][5] = VALHALLA
    s.locs[0][6] = VALHALLA
    events = _end_actions(s)
    assert "br.released" in keys(events)
    assert count_at(s, 0, VALHALLA) == 0 and s.locs[0][5] == RESERVE
    assert at(s, 0, "andlang") == ["warrior", "warrior"]


def test_br_50_end_of_age_tokens_back_first_player_left() -> None:
    s = action_state()
    tokens = s.tokens[:]
    s.pillaged = [True] * 9
    s.ragnarok = [P("horgr"), P("gimle"), P("utgard")]
    _end_actions(s)
    assert s.age == 2 and s.first == 1 and not any(s.pillaged)
    assert s.tokens == tokens and s.phase == "draft"


def test_br_51_legendary_stat_bonuses() -> None:
    s = action_state()
    s.age = 3
    s.ragnarok = [P("horgr"), P("gimle"), P("utgard")]
    s.stats[0] = [3, 4, 5]  # 4th, 5th and last steps
    s.stats[1] = [2, 0, 0]
    s.glory = [10, 10, 10]
    events = _end_actions(s)
    assert s.over and s.glory[0] == 10 + 10 + 10 + 20 and s.glory[1] == 10
    assert "br.final_bonus" in keys(events)
    result = GAME.result(s)
    assert result is not None and result.breakdown[0]["legendary"] == {"rage": 10, "axes": 10, "horns": 20}


def test_br_52_most_glory_wins_ties_shared() -> None:
    s = action_state()
    s.age = 3
    s.ragnarok = [P("horgr"), P("gimle"), P("utgard")]
    s.glory = [30, 30, 12]
    _end_actions(s)
    result = GAME.result(s)
    assert result is not None and result.ranks == (1, 1, 3) and result.winners == (0, 1)


def test_br_53_hidden_information() -> None:
    s = new_game(3, 8)
    secrets = GAME.secrets(s)
    for viewer in (None, 0, 1, 2):
        text = json.dumps(GAME.view(s, viewer))
        for owner, ids in secrets.items():
            if owner != viewer:
                assert not any(f'"{c}"' in text for c in ids)
    d = GAME.determinize(s, 0, Rng(3))
    assert GAME.view(d, 0) == GAME.view(s, 0) and d.packs[1] != s.packs[1] and d.packs[0] == s.packs[0]
    # the Ragnarok tokens on the age track are public, the deck order is not
    assert GAME.view(s, 1)["ragnarok"] == [PROVINCES[p] for p in s.ragnarok] and all(p in OUTER for p in s.ragnarok)
    assert "decks" in GAME.view(s, 1) and not any(c in json.dumps(GAME.view(s, 1)) for c in s.decks[1])
