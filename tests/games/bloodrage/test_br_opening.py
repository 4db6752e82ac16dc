"""BR-104 .. BR-106: the clans are chosen in turn (or dealt), and the set-up is shown."""

from __future__ import annotations

import json

import pytest

from ludoteca.engine import IllegalMove, Match
from ludoteca.games.bloodrage.components import CLANS

from .br_helpers import GAME, keys, pending, play, prompt


def test_br_104_clans_chosen_in_turn_from_the_first_player() -> None:
    s = GAME.setup(4, {"first_player": "3"}, 2)
    assert s.phase == "clans" and prompt(s) == "br.prompt.clan"
    order = []
    for clan in ("bear", "wolf", "raven", "serpent"):
        seat = pending(s)[0]
        assert len(pending(s)) == 1  # one seat at a time
        free = [m["clan"] for m in GAME.legal(s, seat)]
        assert free == [c for c in CLANS if c not in s.clans]  # only the clans nobody has taken
        for other in range(4):
            if other != seat:
                assert GAME.legal(s, other) == []
        play(s, seat, {"type": "clan", "clan": clan})
        order.append(seat)
    assert order == [2, 3, 0, 1]  # from the first player, clockwise
    assert s.clans == ["raven", "serpent", "bear", "wolf"]
    assert s.phase == "draft" and prompt(s) == "br.prompt.pick"  # the first age starts once all have chosen


def test_br_104_a_taken_or_unknown_clan_is_refused_and_changes_nothing() -> None:
    s = GAME.setup(2, {"first_player": "1"}, 2)
    play(s, 0, {"type": "clan", "clan": "raven"})
    before = json.dumps(GAME.to_json(s), sort_keys=True)
    with pytest.raises(IllegalMove) as taken:
        play(s, 1, {"type": "clan", "clan": "raven"})
    assert taken.value.code == "clan_taken"
    with pytest.raises(IllegalMove) as unknown:
        play(s, 1, {"type": "clan", "clan": "eagle"})
    assert unknown.value.code == "unknown_clan"
    with pytest.raises(IllegalMove) as done:
        play(s, 0, {"type": "clan", "clan": "raven"})  # seat 0 has chosen already
    assert done.value.code == "not_your_turn"
    assert json.dumps(GAME.to_json(s), sort_keys=True) == before


def test_br_105_random_clans_are_dealt_by_the_seed() -> None:
    deals = set()
    for seed in range(30):
        s = GAME.setup(3, {"clans": "random"}, seed)
        assert len(set(s.clans)) == 3 and set(s.clans) <= set(CLANS)
        assert s.phase == "draft" and prompt(s) == "br.prompt.pick"  # no clan decision
        deals.add(tuple(s.clans))
    assert len(deals) > 5
    assert GAME.setup(3, {"clans": "random"}, 4).clans == GAME.setup(3, {"clans": "random"}, 4).clans


def test_br_106_views_and_log_show_each_seats_clan_and_the_first_player() -> None:
    s = GAME.setup(3, {"first_player": "2"}, 6)
    v = GAME.view(s, 0)
    assert [c["clan"] for c in v["clans"]] == [None, None, None] and v["first"] == 1
    events = play(s, 1, {"type": "clan", "clan": "bear"})
    assert keys(events) == ["br.first_player", "br.clan_chosen"]  # the set-up opens the log
    assert events[0].args == {"seat": 1} and events[1].args == {"seat": 1, "clan": "bear"}
    assert [c["clan"] for c in GAME.view(s, None)["clans"]] == [None, "bear", None]
    assert "br.first_player" not in keys(play(s, 2, {"type": "clan", "clan": "wolf"}))  # said once

    s = GAME.setup(3, {"clans": "random"}, 6)
    first = play(s, 0, GAME.legal(s, 0)[0])
    dealt = [e.args for e in first if e.key == "br.clan_dealt"]
    assert keys(first)[0] == "br.first_player"
    assert dealt == [{"seat": k, "clan": s.clans[k]} for k in range(3)]
    assert [c["clan"] for c in GAME.view(s, 2)["clans"]] == s.clans


def test_br_106_replay_is_deterministic_with_the_options() -> None:
    options = {"clans": "choose", "first_player": "random"}
    a = Match.new("bloodrage", 3, options, 11)
    b = Match.new("bloodrage", 3, options, 11)
    for _ in range(3):
        seat = a.game.pending(a.state)[0].seat
        move = a.game.legal(a.state, seat)[-1]
        a.play(seat, move)
        b.play(seat, move)
    assert json.dumps(a.game.to_json(a.state), sort_keys=True) == json.dumps(b.game.to_json(b.state), sort_keys=True)
