"""IW-5 to IW-11: a turn in small steps, placing, paying, the third tribe, refilling, discarding."""

from __future__ import annotations

import pytest
from iwari_helpers import GAME, board, deal, legal_types, new, play, put_tents, put_totems, tindex

from ludoteca.engine import IllegalMove
from ludoteca.games.iwari.rules import CARD_INDEX
from ludoteca.games.iwari.scoring import tent_scoring
from ludoteca.games.iwari.state import DRAW, OVER, PAY, PIECE, START, THIRD


def _tent_spaces(state, seat: int = 0) -> list[str]:  # type: ignore[no-untyped-def]
    return [m["space"] for m in GAME.legal(state, seat) if m["type"] == "tent"]


def test_iw_5_one_territory_per_turn() -> None:
    state = new(3)
    put_tents(state, 1, "tundra-1.1")  # explored
    deal(state, 0, "tundra-01", "tundra-02", "tundra-03")
    assert state.phase == START
    play(state, 0, {"type": "territory", "territory": "tundra-1"})
    assert state.phase == PIECE
    spaces = _tent_spaces(state)
    assert spaces == ["tundra-1.2", "tundra-1.3", "tundra-1.4", "tundra-1.5"]
    with pytest.raises(IllegalMove) as raised:
        play(state, 0, {"type": "tent", "space": "tundra-2.1"})
    assert raised.value.code == "wrong_territory"
    play(state, 0, {"type": "tent", "space": "tundra-1.2"})
    assert state.phase == PAY
    play(state, 0, {"type": "pay", "cards": ["tundra-01"]})
    # the second piece is still in tundra-1 only
    assert all(s.startswith("tundra-1.") for s in _tent_spaces(state))
    assert "done" in legal_types(state, 0)


def test_iw_5_up_to_three_cards_in_a_turn() -> None:
    state = new(3)
    put_tents(state, 1, "tundra-1.1")
    deal(state, 0, "tundra-01", "coast-01", "coast-02")
    discards = len(state.discard)
    play(state, 0, {"type": "territory", "territory": "tundra-1"})
    play(state, 0, {"type": "tent", "space": "tundra-1.2"})
    play(state, 0, {"type": "pay", "cards": ["coast-01", "coast-02"]})
    play(state, 0, {"type": "tent", "space": "tundra-1.3"})
    play(state, 0, {"type": "pay", "cards": ["tundra-01"]})
    assert state.hands[0] == [] and len(state.discard) == discards + 3
    assert state.phase == DRAW  # two pieces: the move is over


def test_iw_6_unexplored_territory_takes_exactly_one_tent() -> None:
    state = new(3)
    deal(state, 0, "tundra-01", "tundra-02", "tundra-03")
    assert state.pieces_in[tindex(state, "tundra-2")] == 0
    play(state, 0, {"type": "territory", "territory": "tundra-2"})
    assert legal_types(state, 0) == {"tent"}  # no totem, no "done" before the tent
    play(state, 0, {"type": "tent", "space": "tundra-2.3"})
    play(state, 0, {"type": "pay", "cards": ["tundra-01"]})
    assert state.phase == DRAW and len(state.hands[0]) == 2  # one tent only


def test_iw_6_explored_territory_takes_up_to_two_pieces() -> None:
    state = new(3)
    put_tents(state, 1, "tundra-2.1")
    deal(state, 0, "tundra-01", "tundra-02", "tundra-03")
    play(state, 0, {"type": "territory", "territory": "tundra-2"})
    assert legal_types(state, 0) == {"tent", "totem"}
    play(state, 0, {"type": "tent", "space": "tundra-2.2"})
    play(state, 0, {"type": "pay", "cards": ["tundra-01"]})
    assert legal_types(state, 0) == {"tent", "totem", "done"}
    play(state, 0, {"type": "totem"})
    play(state, 0, {"type": "pay", "cards": ["tundra-02"]})
    assert state.phase == DRAW and state.hands[0] == [CARD_INDEX["tundra-03"]]  # not a third piece
    t = tindex(state, "tundra-2")
    assert state.tent_count[t * 3] == 1 and state.totem_count[t * 3] == 1


def test_iw_7_tent_goes_on_an_empty_space() -> None:
    state = new(3)
    put_tents(state, 1, "glacier-1.1", "glacier-1.3")
    deal(state, 0, "glacier-01", "glacier-02", "glacier-03")
    play(state, 0, {"type": "territory", "territory": "glacier-1"})
    assert _tent_spaces(state) == ["glacier-1.2", "glacier-1.4"]
    with pytest.raises(IllegalMove) as raised:
        play(state, 0, {"type": "tent", "space": "glacier-1.1"})
    assert raised.value.code == "space_taken"


def test_iw_7_totem_limit_is_the_tent_majority() -> None:
    state = new(3)
    put_tents(state, 1, "forest-1.1", "forest-1.2")  # majority 2 (tribe 1)
    put_tents(state, 0, "forest-1.4")
    put_totems(state, "forest-1", 2, 1)  # totems of any colour count
    put_totems(state, "forest-1", 1, 1)
    deal(state, 0, "forest-01", "forest-02", "forest-03")
    play(state, 0, {"type": "territory", "territory": "forest-1"})
    assert "totem" not in legal_types(state, 0)  # 2 totems already = the majority
    # a tent that raises the majority opens room for one more totem
    play(state, 0, {"type": "tent", "space": "forest-1.5"})
    play(state, 0, {"type": "pay", "cards": ["forest-01"]})
    assert "totem" not in legal_types(state, 0)  # tribe 0 now has 2: the majority is still 2
    state2 = new(3)
    put_tents(state2, 1, "forest-1.1", "forest-1.2")
    put_totems(state2, "forest-1", 2, 1)
    deal(state2, 0, "forest-01", "forest-02", "forest-03")
    play(state2, 0, {"type": "territory", "territory": "forest-1"})
    play(state2, 0, {"type": "totem"})
    play(state2, 0, {"type": "pay", "cards": ["forest-01"]})
    assert legal_types(state2, 0) == {"tent", "done"}  # 2 totems = majority 2: no second totem


def test_iw_7_no_totem_once_the_circle_is_full_even_first_piece() -> None:
    state = new(3)
    put_tents(state, 1, "desert-1.1")
    put_totems(state, "desert-1", 1, 1)
    deal(state, 0, "desert-01", "desert-02", "desert-03")
    play(state, 0, {"type": "territory", "territory": "desert-1"})
    assert legal_types(state, 0) == {"tent"}


def test_iw_8_each_piece_costs_a_matching_card_or_a_pair() -> None:
    state = new(3)
    put_tents(state, 1, "tundra-1.1")
    deal(state, 0, "tundra-01", "coast-01", "coast-02")
    play(state, 0, {"type": "territory", "territory": "tundra-1"})
    play(state, 0, {"type": "tent", "space": "tundra-1.2"})
    assert GAME.legal(state, 0) == [{"type": "pay", "cards": ["tundra-01"]},
                                    {"type": "pay", "cards": ["coast-01", "coast-02"]}]
    with pytest.raises(IllegalMove):
        play(state, 0, {"type": "pay", "cards": ["coast-01"]})  # one card of another biome is not enough


def test_iw_8_unpayable_territories_are_not_offered() -> None:
    state = new(3)
    deal(state, 0, "desert-01", "coast-01", "forest-01")  # three biomes, no pair
    b = board(state)
    offered = {m["territory"] for m in GAME.legal(state, 0) if m["type"] == "territory"}
    assert offered == {t.id for t in b.territories if t.biome in (1, 3, 4)}
    deal(state, 0, "desert-01", "desert-02", "forest-01")  # a desert pair pays anywhere
    offered = {m["territory"] for m in GAME.legal(state, 0) if m["type"] == "territory"}
    assert offered == {t.id for t in b.territories}


def test_iw_9_two_seats_the_rest_of_the_hand_moves_the_third_tribe() -> None:
    state = new(2)
    assert state.tribes == 3 and state.tents_left == [20, 20, 20]
    deal(state, 0, "tundra-01", "desert-01", "desert-02")
    play(state, 0, {"type": "territory", "territory": "tundra-2"})
    play(state, 0, {"type": "tent", "space": "tundra-2.1"})
    events = play(state, 0, {"type": "pay", "cards": ["tundra-01"]})
    assert state.phase == THIRD and state.tribe == 2
    assert "iwari.third_tribe" in [e.key for e in events]
    assert legal_types(state, 0) == {"territory"}  # no discard, no pass: a regular move
    play(state, 0, {"type": "territory", "territory": "desert-1"})
    play(state, 0, {"type": "tent", "space": "desert-1.2"})
    events = play(state, 0, {"type": "pay", "cards": ["desert-01"]})
    b = board(state)
    assert state.tents[b.space_index["desert-1.2"]] == 2 and state.tents_left[2] == 19
    assert state.hands[0] == [] and "iwari.spent" in [e.key for e in events]  # desert-02 is spent too
    assert state.phase == DRAW and state.tribe == 0


def test_iw_9_three_cards_played_no_third_tribe_turn() -> None:
    state = new(2)
    put_tents(state, 1, "tundra-1.1")
    deal(state, 0, "tundra-01", "coast-01", "coast-02")
    play(state, 0, {"type": "territory", "territory": "tundra-1"})
    play(state, 0, {"type": "tent", "space": "tundra-1.2"})
    play(state, 0, {"type": "pay", "cards": ["tundra-01"]})
    play(state, 0, {"type": "tent", "space": "tundra-1.3"})
    play(state, 0, {"type": "pay", "cards": ["coast-01", "coast-02"]})
    assert state.phase == DRAW and state.tents_left[2] == 20


def test_iw_9_discarding_gives_the_third_tribe_no_turn() -> None:
    state = new(2)
    deal(state, 0, "tundra-01", "coast-01", "coast-02")
    play(state, 0, {"type": "discard", "card": "coast-01"})
    assert state.phase == DRAW and state.tribe == 0


def test_iw_10_refill_from_deck_and_display() -> None:
    state = new(3)
    put_tents(state, 1, "tundra-1.1")
    deal(state, 0, "tundra-01", "tundra-02", "coast-01")
    play(state, 0, {"type": "territory", "territory": "tundra-1"})
    play(state, 0, {"type": "tent", "space": "tundra-1.2"})
    play(state, 0, {"type": "pay", "cards": ["tundra-01"]})
    play(state, 0, {"type": "tent", "space": "tundra-1.3"})
    play(state, 0, {"type": "pay", "cards": ["tundra-02"]})
    assert state.phase == DRAW
    deck = len(state.deck)
    taken = state.display[0]
    top = state.deck[-1]
    draws = GAME.legal(state, 0)
    assert draws[0] == {"type": "draw", "from": "deck"} and len(draws) == 5
    play(state, 0, {"type": "draw", "from": "display", "card": draws[1]["card"]})
    assert taken in state.hands[0] and len(state.display) == 4 and top in state.display  # refilled at once
    assert len(state.deck) == deck - 1
    play(state, 0, {"type": "draw", "from": "deck"})
    assert len(state.hands[0]) == 3 and state.current == 1 and state.phase == START


def test_iw_11_discard_one_and_draw_one() -> None:
    state = new(3)
    deal(state, 0, "tundra-01", "coast-01", "desert-01")
    discards = [m["card"] for m in GAME.legal(state, 0) if m["type"] == "discard"]
    assert discards == ["tundra-01", "coast-01", "desert-01"]
    events = play(state, 0, {"type": "discard", "card": "coast-01"})
    assert CARD_INDEX["coast-01"] in state.discard and state.phase == DRAW
    assert events[0].args == {"seat": 0, "biome": "coast"}  # the biome is public, the id is not needed
    play(state, 0, {"type": "draw", "from": "deck"})
    assert len(state.hands[0]) == 3 and state.current == 1


def test_iw_11_pass_only_when_nothing_is_possible() -> None:
    state = new(3)
    state.deck[:0] = state.hands[0]
    state.hands[0] = []
    assert GAME.legal(state, 0) == [{"type": "pass"}]
    play(state, 0, {"type": "pass"})
    assert state.phase == DRAW  # and then the empty hand is refilled
    for _ in range(3):
        play(state, 0, {"type": "draw", "from": "deck"})
    assert state.current == 1 and len(state.hands[0]) == 3


def test_iw_5_legal_lists_stay_small() -> None:
    longest = 0
    for seed in range(10):
        state = new(3, seed)
        from ludoteca.engine import Rng

        rng = Rng(seed)
        while GAME.result(state) is None:
            seat = GAME.pending(state)[0].seat
            moves = GAME.legal(state, seat)
            longest = max(longest, len(moves))
            GAME.perform(state, seat, rng.choice(moves))
    assert longest <= 16


def test_iw_9_a_third_tribe_that_cannot_move_still_spends_the_cards() -> None:
    state = new(2)
    state.tents_left[2] = state.totems_left[2] = 0  # nothing left to place
    deal(state, 0, "tundra-01", "desert-01", "desert-02")
    play(state, 0, {"type": "territory", "territory": "tundra-2"})
    play(state, 0, {"type": "tent", "space": "tundra-2.1"})
    events = play(state, 0, {"type": "pay", "cards": ["tundra-01"]})
    assert [e.key for e in events][-2:] == ["iwari.third_tribe", "iwari.spent"]
    assert state.hands[0] == [] and state.phase == DRAW


def test_iw_9_the_third_tribe_takes_part_in_majorities_but_ranks_nobody() -> None:
    state = new(2)
    put_tents(state, 2, "tundra-1.1", "tundra-1.2", "tundra-1.3")
    put_tents(state, 0, "tundra-1.4")
    t = tindex(state, "tundra-1")
    assert tent_scoring(state)[t] == [3, 0, 4]  # seat 0 scores the third tribe's 3 tents
    state.phase = OVER
    state.scores = [10, 8, 30]
    result = GAME.result(state)
    assert result is not None and result.scores == (10, 8) and result.ranks == (1, 2)


def test_iw_9_the_third_tribe_placing_its_last_tent_triggers_the_end() -> None:
    state = new(2)
    state.tents_left[2] = 1
    deal(state, 0, "tundra-01", "desert-01", "desert-02")
    play(state, 0, {"type": "territory", "territory": "tundra-2"})
    play(state, 0, {"type": "tent", "space": "tundra-2.1"})
    play(state, 0, {"type": "pay", "cards": ["tundra-01"]})
    play(state, 0, {"type": "territory", "territory": "desert-1"})  # the third tribe's move
    play(state, 0, {"type": "tent", "space": "desert-1.2"})
    events = play(state, 0, {"type": "pay", "cards": ["desert-01"]})
    assert state.end_triggered and state.tents_left[2] == 0
    assert {"reason": "tents", "tribe": 2} in [e.args for e in events if e.key == "iwari.end_triggered"]
    for _ in range(3):
        play(state, 0, {"type": "draw", "from": "deck"})
    assert state.current == 1 and GAME.result(state) is None  # seat 1 still plays this round


def test_iw_9_the_third_tribe_uses_every_card_it_can() -> None:
    state = new(2)
    put_tents(state, 1, "desert-1.1")  # explored: the third tribe may place two pieces
    deal(state, 0, "tundra-01", "desert-01", "desert-02")
    play(state, 0, {"type": "territory", "territory": "tundra-2"})
    assert GAME.pending(state)[0].prompt.key == "iwari.prompt.piece"
    play(state, 0, {"type": "tent", "space": "tundra-2.1"})
    play(state, 0, {"type": "pay", "cards": ["tundra-01"]})
    play(state, 0, {"type": "territory", "territory": "desert-1"})  # the third tribe's move
    play(state, 0, {"type": "tent", "space": "desert-1.2"})
    play(state, 0, {"type": "pay", "cards": ["desert-01"]})
    # desert-02 still pays for a piece here: the move cannot stop and waste it
    assert state.phase == PIECE and "done" not in legal_types(state, 0)
    # ...and the prompt offers no "end" either (the player's own piece prompt does)
    assert GAME.pending(state)[0].prompt.key == "iwari.prompt.third_piece"
    with pytest.raises(IllegalMove):
        play(state, 0, {"type": "done"})
    play(state, 0, {"type": "totem"})
    play(state, 0, {"type": "pay", "cards": ["desert-02"]})
    t = tindex(state, "desert-1")
    assert state.tent_count[t * 3 + 2] == 1 and state.totem_count[t * 3 + 2] == 1
    assert state.hands[0] == [] and state.phase == DRAW


def test_iw_8_a_pair_is_two_cards_of_one_biome() -> None:
    state = new(3)
    put_tents(state, 1, "tundra-1.1")
    deal(state, 0, "tundra-01", "coast-01", "desert-01")
    play(state, 0, {"type": "territory", "territory": "tundra-1"})
    play(state, 0, {"type": "tent", "space": "tundra-1.2"})
    assert GAME.legal(state, 0) == [{"type": "pay", "cards": ["tundra-01"]}]  # coast + desert is no pair
    with pytest.raises(IllegalMove):
        play(state, 0, {"type": "pay", "cards": ["coast-01", "desert-01"]})
    play(state, 0, {"type": "pay", "cards": ["tundra-01"]})
    assert state.phase == DRAW and len(state.hands[0]) == 2  # nothing pays for a second piece
