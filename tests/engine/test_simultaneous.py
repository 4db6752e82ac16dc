"""``Game.simultaneous`` and ``Match.independent_since``: which moves chosen at an earlier
number of moves still mean the same now."""

from __future__ import annotations

from ludoteca.engine import Match


def test_a_pick_chosen_before_other_seats_picks_of_the_same_round_stays_independent():
    match = Match.new("bloodrage", 4, {"clans": "random"}, 7)  # dealt clans: the draft opens the game
    assert match.rounds == [("draft", 1, 0)]
    match.play(1, match.legal(1)[0])
    match.play(2, match.legal(2)[0])
    assert match.independent_since(0, 0) and match.independent_since(0, 3) and match.independent_since(1, 0)
    assert not match.independent_since(0, 1)  # its own move landed since
    assert not match.independent_since(-1, 0) and not match.independent_since(5, 0)
    assert match.independent_since(2, 1)  # nothing landed since
    match.undo(2)
    assert len(match.rounds) == match.version + 1 == 2
    match.play(2, match.legal(2)[0])
    match.play(0, match.legal(0)[0])
    match.play(3, match.legal(3)[0])  # the round ends: packs pass
    assert match.rounds[-1] == ("draft", 1, 1)
    assert not match.independent_since(0, 0) and not match.independent_since(3, 2)


def test_a_game_without_simultaneous_decisions_keeps_every_move_dependent():
    match = Match.new("crusaders", 2, {}, 3)
    seat = match.pending()[0]
    match.play(seat, match.legal(seat)[0])
    assert match.rounds == [None, None]
    assert not match.independent_since(0, 1 - seat)


def test_a_match_restored_from_json_knows_no_earlier_decision():
    match = Match.new("hadrianswall", 3, {}, 5)
    match.play(0, match.legal(0)[0])
    again = Match.from_json(match.to_json())
    assert again.rounds == [None, ("choose", 1)]
    assert match.independent_since(0, 1) and not again.independent_since(0, 1)
    again.play(1, again.legal(1)[0])
    assert again.independent_since(1, 2)
