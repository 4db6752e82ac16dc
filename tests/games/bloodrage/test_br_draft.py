"""BR-12 .. BR-14: Gods' Gifts."""

from __future__ import annotations

from ludoteca.games.bloodrage.components import deck_for

from .br_helpers import GAME, new_game, pending, play, prompt


def test_br_12_deal_eight_remove_rest_unseen() -> None:
    for seats in (2, 3, 4):
        s = new_game(seats, 4)
        assert all(len(p) == 8 for p in s.packs)
        assert not s.decks[0]  # the rest is gone, unseen
        assert len(s.decks[1]) == {2: 20, 3: 26, 4: 34}[seats]
        assert prompt(s) == "br.prompt.pick" and sorted(pending(s)) == list(range(seats))


def test_br_13_simultaneous_hidden_picks_then_pass_left() -> None:
    s = new_game(3, 4)
    packs = [p[:] for p in s.packs]
    pick = packs[0][0]
    events = play(s, 0, {"type": "pick", "card": pick})
    assert pick in s.hands[0] and pending(s) == [1, 2]  # seat 0 waits for the others
    assert all(pick not in str(e.to_json()) for e in events if e.to is None)
    assert pick not in str(GAME.view(s, 1))
    play(s, 1, {"type": "pick", "card": packs[1][0]})
    play(s, 2, {"type": "pick", "card": packs[2][0]})
    # packs pass left: seat 1 now holds what remained of seat 0's pack
    assert sorted(s.packs[1]) == sorted(packs[0][1:])
    assert sorted(s.packs[0]) == sorted(packs[2][1:])


def test_br_13_two_seats_pick_two() -> None:
    s = new_game(2, 4)
    a = s.packs[0][:]
    play(s, 0, {"type": "pick", "card": a[0]})
    assert pending(s) == [0, 1]  # seat 0 picks a second card this round
    play(s, 0, {"type": "pick", "card": a[1]})
    assert pending(s) == [1]
    b = s.packs[1][:]
    play(s, 1, {"type": "pick", "card": b[0]})
    play(s, 1, {"type": "pick", "card": b[1]})
    assert sorted(s.packs[1]) == sorted(a[2:]) and len(s.packs[0]) == 6


def test_br_14_six_picks_last_two_discarded_kept_card_stays() -> None:
    s = new_game(3, 4)
    in_packs = {c for p in s.packs for c in p}
    kept = next(c for c in deck_for(1, 3) if c not in in_packs)  # one of the cards removed unseen
    s.hands[1].append(kept)  # stands for a card kept from a previous age
    while s.phase == "draft":
        seat = pending(s)[0]
        play(s, seat, GAME.legal(s, seat)[0])
    assert [len(h) for h in s.hands] == [6, 7, 6]
    assert kept in s.hands[1]
    assert all(p == [] for p in s.packs) and s.phase == "action"
