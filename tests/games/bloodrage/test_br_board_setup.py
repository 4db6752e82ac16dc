"""BR-1 .. BR-11: board, clans, setup."""

from __future__ import annotations

from collections import Counter

import pytest

from ludoteca.engine import OptionError
from ludoteca.games.bloodrage.board import room, str_at
from ludoteca.games.bloodrage.components import (
    ADJACENT,
    CARDS,
    DECKS,
    FJORD_SUPPORTS,
    FJORDS,
    OUTER,
    PROVINCES,
    REALM,
    RESERVE,
    RING,
    SLOTS,
    SUPPORT,
    TRACKS,
    VILLAGES,
    YGG,
    deck_for,
)

from .br_helpers import GAME, P, action_state, new_game, pending, play, put


def test_br_1_provinces_and_villages() -> None:
    assert len(PROVINCES) == 9 and PROVINCES[YGG] == "yggdrasil"
    villages = {PROVINCES[p]: VILLAGES[p] for p in OUTER}
    assert villages == {"myrkulor": 3, "elvagar": 4, "angerboda": 5, "andlang": 3, "gimle": 5, "utgard": 3,
                        "horgr": 4, "muspelheim": 5}
    assert Counter(REALM[p] for p in OUTER) == {"manheim": 3, "alfheim": 2, "jotunheim": 3}
    s = action_state()
    put(s, 0, "warrior", "yggdrasil", 8)
    assert room(s, YGG) > 8  # Yggdrasil has no village limit
    assert room(s, P("myrkulor")) == 3


def _names(locs: tuple[int, ...]) -> set[str]:
    return {PROVINCES[p] for p in locs}


def test_br_2_adjacency_is_the_printed_board() -> None:
    # the printed board, clockwise from the top: each outer province borders the two next to
    # it and Yggdrasil, and nothing else
    assert RING == ("elvagar", "angerboda", "muspelheim", "horgr", "utgard", "andlang", "gimle", "myrkulor")
    expected = {
        "elvagar": {"myrkulor", "angerboda"}, "angerboda": {"elvagar", "muspelheim"},
        "muspelheim": {"angerboda", "horgr"}, "horgr": {"muspelheim", "utgard"}, "utgard": {"horgr", "andlang"},
        "andlang": {"utgard", "gimle"}, "gimle": {"andlang", "myrkulor"}, "myrkulor": {"gimle", "elvagar"},
    }
    for name, neighbours in expected.items():
        assert _names(ADJACENT[P(name)]) == neighbours | {"yggdrasil"}, name
    assert set(ADJACENT[YGG]) == set(OUTER)
    for p in range(len(PROVINCES)):
        for q in ADJACENT[p]:
            assert p in ADJACENT[q]


def test_br_3_fjords_are_the_printed_ones() -> None:
    supports = {FJORDS[k]: _names(pair) for k, pair in enumerate(FJORD_SUPPORTS)}
    assert supports == {
        "fjord_manheim": {"elvagar", "angerboda"},  # north, inside Manheim
        "fjord_west": {"myrkulor", "gimle"},  # Manheim-Alfheim
        "fjord_south": {"andlang", "utgard"},  # Alfheim-Jotunheim
        "fjord_jotunheim": {"muspelheim", "horgr"},  # inside Jotunheim
    }
    for a, b in FJORD_SUPPORTS:  # each fjord lies between two provinces that share a border
        assert b in ADJACENT[a]
    # every outer province has exactly one supporting fjord, Yggdrasil none
    assert all(len(SUPPORT[p]) == 1 for p in OUTER) and SUPPORT[YGG] == ()


def test_br_3_fjords_support_two_provinces() -> None:
    s = action_state()
    put(s, 0, "ship", "fjord_manheim")
    # a ship adds its STR to both supported provinces and to neither other
    assert str_at(s, 0, P("elvagar")) == 2 and str_at(s, 0, P("angerboda")) == 2
    assert str_at(s, 0, P("myrkulor")) == 0 and str_at(s, 0, P("gimle")) == 0
    assert SUPPORT[P("myrkulor")] == (P("fjord_west"),)


def test_br_4_clan_figures() -> None:
    s = GAME.setup(4, {"clans": "random"}, 3)
    for seat in range(4):
        assert Counter(s.kinds[seat]) == {"leader": 1, "warrior": 8, "ship": 1}
        assert all(loc == RESERVE for loc in s.locs[seat])
    v = GAME.view(s, None)
    assert sorted(c["clan"] for c in v["clans"]) == ["bear", "raven", "serpent", "wolf"]  # one clan each
    s = action_state()
    put(s, 0, "leader", "gimle")
    put(s, 0, "warrior", "gimle")
    put(s, 0, "ship", "fjord_west")
    assert str_at(s, 0, P("gimle")) == 3 + 1 + 2


def test_br_5_stats_start_and_tracks() -> None:
    s = GAME.setup(3, None, 0)
    v = GAME.view(s, 0)
    assert {k: x["value"] for k, x in v["clans"][0]["stats"].items()} == {"rage": 6, "axes": 3, "horns": 4}
    assert TRACKS == ((6, 7, 8, 9, 12, 12), (3, 4, 5, 6, 8, 8), (4, 5, 6, 7, 10, 10))


def test_br_6_upgrade_slots() -> None:
    assert Counter(slot.rstrip("123") for slot in SLOTS) == {"warrior": 1, "leader": 1, "ship": 1, "monster": 2,
                                                             "clan": 3}


def test_br_7_pillage_tokens() -> None:
    for seed in range(5):
        s = GAME.setup(4, None, seed)
        assert s.tokens[YGG] == "all"
        assert Counter(s.tokens[p] for p in OUTER) == {"rage": 3, "axes": 2, "horns": 2, "glory": 1}
    layouts = {tuple(GAME.setup(4, None, seed).tokens) for seed in range(6)}
    assert len(layouts) > 1  # shuffled


def test_br_8_ragnarok_tokens_and_doom() -> None:
    s = GAME.setup(4, None, 5)
    assert len(set(s.ragnarok)) == 3 and all(p in OUTER for p in s.ragnarok)
    v = GAME.view(s, None)
    assert v["doom"] == PROVINCES[s.ragnarok[0]]
    assert v["ragnarok"] == [PROVINCES[p] for p in s.ragnarok]


def test_br_9_provinces_destroyed_by_seat_count() -> None:
    for seats, destroyed in ((4, 1), (3, 2), (2, 3)):
        s = GAME.setup(seats, None, 9)
        gone = [p for p in range(9) if s.destroyed[p]]
        assert len(gone) == destroyed
        assert not set(gone) & set(s.ragnarok) and YGG not in gone


def test_br_10_decks_and_markers() -> None:
    for deck in DECKS:
        markers = Counter(CARDS[c].marker for c in deck)
        assert markers == {0: 20, 3: 6, 4: 8}
    for age in (1, 2, 3):
        assert len(deck_for(age, 4)) == 34 and len(deck_for(age, 3)) == 26 and len(deck_for(age, 2)) == 20
        assert all(CARDS[c].marker == 0 for c in deck_for(age, 2))


def test_br_11_first_player_drawn_by_the_seed() -> None:
    firsts = {seats: {GAME.setup(seats, None, seed).first for seed in range(40)} for seats in (2, 3, 4)}
    assert firsts == {2: {0, 1}, 3: {0, 1, 2}, 4: {0, 1, 2, 3}}  # any seat may start
    assert GAME.setup(3, None, 7).first == GAME.setup(3, None, 7).first  # the seed decides
    # the same seed lays out the same board whatever the first player and clan options
    a, b = new_game(3, 7), GAME.setup(3, {"first_player": "3", "clans": "random"}, 7)
    assert (a.tokens, a.ragnarok, a.destroyed, a.decks, a.packs) == (b.tokens, b.ragnarok, b.destroyed, b.decks,
                                                                      b.packs)


def test_br_11_first_player_named_by_the_option() -> None:
    for seats in (2, 3, 4):
        for k in range(1, seats + 1):
            s = GAME.setup(seats, {"first_player": str(k)}, 5)
            assert s.first == k - 1 and GAME.view(s, None)["first"] == k - 1
    with pytest.raises(OptionError) as raised:
        GAME.setup(2, {"first_player": "3"}, 5)  # no seat 3 at a table of two
    assert raised.value.code == "option_seats"
    with pytest.raises(OptionError):
        GAME.setup(3, {"first_player": "0"}, 5)


def test_br_11_first_player_starts_the_action_phase_and_the_token_passes_left() -> None:
    s = new_game(3, 5, first_player="2")
    while s.phase == "draft":
        seat = pending(s)[0]
        play(s, seat, GAME.legal(s, seat)[0])
    assert s.phase == "action" and pending(s) == [1]
