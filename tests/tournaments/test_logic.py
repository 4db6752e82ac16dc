"""The pure logic of player tournaments (ludoteca.tournaments): points, standings and
tie-breaks, Swiss pairing at 2 to 6 seats, elimination and arena pairing."""

from __future__ import annotations

import random

import pytest

from ludoteca.tournaments import arena, elimination
from ludoteca.tournaments.core import (
    Bye,
    Played,
    Player,
    bye_points_default,
    default_points,
    meetings,
    points_for_ranks,
    standings,
    table_sizes,
)
from ludoteca.tournaments.swiss import max_rounds, pair_swiss


def test_points_by_rank_default_custom_ties_and_smaller_tables():
    assert default_points(4) == [3, 2, 1, 0]
    assert points_for_ranks([2, 1, 4, 3]) == [2, 3, 0, 1]
    assert points_for_ranks([1, 1]) == [0.5, 0.5]
    assert points_for_ranks([1, 2, 3, 4], [6, 4, 2, 0]) == [6, 4, 2, 0]
    assert points_for_ranks([1, 2, 2, 4], [6, 4, 2, 0]) == [6, 3, 3, 0]
    # A three-player table with a four-place list: first and last keep their values.
    assert points_for_ranks([1, 2, 3], [6, 4, 2, 0]) == [6, 2, 0]
    assert bye_points_default(None, 4) == 1.5


def test_table_sizes_fill_and_byes():
    assert table_sizes(24, 4, 4) == [4] * 6
    assert table_sizes(10, 4, 3) == [4, 3, 3]
    assert table_sizes(10, 4, 4) == [4, 4]  # two byes
    assert table_sizes(7, 2, 2) == [2, 2, 2]
    assert table_sizes(1, 2, 2) == []


def test_standings_tie_breaks_points_then_opponents_then_rating():
    players = [Player(1, 10), Player(2, 20), Player(3, 30), Player(4, 40)]
    games = [Played(1, (1, 2), (1, 2), (1.0, 0.0)), Played(1, (3, 4), (1, 2), (1.0, 0.0)),
             Played(2, (1, 3), (2, 1), (0.0, 1.0)), Played(2, (2, 4), (1, 2), (1.0, 0.0))]
    rows = standings(players, games, seed=1)
    assert next(r.player for r in rows) == 3  # 2 points
    # 1 and 2 both have 1 point; 1 met 2 (1) and 3 (2): 3; 2 met 1 (1) and 4 (0): 1.
    assert [r.player for r in rows][1:3] == [1, 2]
    assert rows[1].opponents_points == 3 and rows[1].opponents_average == 1.5
    # Equal on everything but rating: the higher rating first.
    same = standings([Player(1, 5), Player(2, 9)], [], seed=3)
    assert [r.player for r in same] == [2, 1]
    with_byes = standings(players, [], [Bye(1, 1, 1.5), Bye(1, 2, 0.0, "skipped")], seed=1)
    assert with_byes[0].player == 1 and with_byes[0].byes == 1
    assert next(r for r in with_byes if r.player == 2).skipped == 1


def _play(players, seats, min_seats, rounds, seed, avoid=True):
    rng = random.Random(seed)
    games, byes = [], []
    for r in range(1, rounds + 1):
        order = standings(players, games, byes, seed=seed)
        pairing = pair_swiss(order, seats, min_seats, r, seed, meetings(games), avoid)
        for table in pairing.tables:
            ranks = list(range(1, len(table) + 1))
            rng.shuffle(ranks)
            games.append(Played(r, table, tuple(ranks), tuple(points_for_ranks(ranks))))
        byes += [Bye(r, p, 1.0) for p in pairing.byes]
        yield r, pairing, games, byes


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_swiss_everyone_plays_once_a_round_and_repeats_are_avoided(seats):
    players = [Player(i, float(i)) for i in range(1, 25)]
    games: list[Played] = []
    for _r, pairing, played, _byes in _play(players, seats, seats, 3, 11):
        games = played
        seen = [p for t in pairing.tables for p in t] + pairing.byes
        assert sorted(seen) == list(range(1, 25))
        assert all(len(t) == seats for t in pairing.tables)
    # 24 players, 3 rounds: new opponents every time up to 4 seats (at 5 and 6, 4 tables
    # cannot seat 5 players from 4 earlier tables without a repeat: fewer than without
    # the avoidance).
    repeated = sum(1 for n in meetings(games).values() if n > 1)
    if seats <= 4:
        assert repeated == 0
    else:
        *_, (_r, _p, careless, _b) = _play(players, seats, seats, 3, 11, avoid=False)
        assert repeated < sum(1 for n in meetings(careless).values() if n > 1)


def test_swiss_is_deterministic_and_leaders_on_board_one():
    players = [Player(i, float(i % 7)) for i in range(1, 22)]
    runs = [[(p.tables, p.byes) for _r, p, _g, _b in _play(players, 4, 3, 4, 5)] for _ in range(2)]
    assert runs[0] == runs[1]
    *_, (_r, _p, games, byes) = _play(players, 4, 3, 2, 5)
    order = standings(players, games, byes, seed=5)
    pairing = pair_swiss(order, 4, 3, 3, 5, meetings(games))
    assert order[0].player in pairing.tables[0]
    assert sorted(len(t) for t in pairing.tables) == [3, 3, 3, 4, 4, 4]


def test_swiss_byes_go_to_the_lowest_without_a_bye():
    players = [Player(i, float(i)) for i in range(1, 8)]
    byed = []
    for _r, pairing, _g, _b in _play(players, 2, 2, 5, 3):
        assert len(pairing.byes) == 1
        byed += pairing.byes
    assert len(set(byed)) == 5  # never twice while others had none


def test_max_rounds():
    assert max_rounds(24, 4, True) == 8
    assert max_rounds(8, 2, True) == 7
    assert max_rounds(1, 2, True) == 0


def test_elimination_plan_rounds_and_advance():
    assert elimination.plan(16, 4, 4, 2) == [16, 8, 4]
    assert elimination.plan(24, 4, 3, 1) == [24, 6, 2]
    assert elimination.plan(5, 4, 2, 4) == []  # nobody would go home
    seeds = list(range(1, 17))
    first = elimination.pair_round(seeds, 4, 4, 2, 1, 9)
    assert not first.final and not first.byes and len(first.tables) == 4
    assert [sorted(t) for t in first.tables] == [[1, 8, 9, 16], [2, 7, 10, 15], [3, 6, 11, 14], [4, 5, 12, 13]]
    odd = elimination.pair_round(list(range(1, 11)), 4, 4, 2, 1, 9)
    assert odd.byes == [1, 2] and len(odd.tables) == 2
    assert elimination.advancing((5, 6, 7, 8), (2, 1, 2, 4), 2, [5, 6, 7, 8]) == [6, 5]
    final = elimination.pair_round([1, 2, 3], 4, 2, 2, 3, 9)
    assert final.final and sorted(final.tables[0]) == [1, 2, 3]


def test_arena_pairs_rating_near_and_no_immediate_rematch():
    free = [arena.Free(1, 1500), arena.Free(2, 1490, frozenset({3})), arena.Free(3, 1480, frozenset({2})),
            arena.Free(4, 1000)]
    tables = arena.pair_free(free, 2, 1)
    assert tables == [(1, 2), (3, 4)]
    # Only the two who just met: they wait, unless nobody else could ever come.
    two = [arena.Free(2, 1490, frozenset({3})), arena.Free(3, 1480, frozenset({2}))]
    assert arena.pair_free(two, 2, 1) == []
    assert arena.pair_free(two, 2, 1, allow_rematch=True) == [(2, 3)]
    four = [arena.Free(i, 1000 + i) for i in range(1, 10)]
    assert [len(t) for t in arena.pair_free(four, 4, 1)] == [4, 4]


def test_arena_streak_doubles_after_two_wins():
    games = [Played(0, (1, 2), (1, 2), (2.0, 0.0)), Played(0, (1, 3), (1, 2), (2.0, 0.0)),
             Played(0, (1, 2), (1, 2), (2.0, 0.0)), Played(0, (1, 3), (2, 1), (0.0, 2.0)),
             Played(0, (1, 3), (1, 2), (2.0, 0.0))]
    assert arena.streak_bonus(games) == {1: 2.0}
    assert arena.on_fire(games[:2]) == {1: True, 2: False, 3: False}


def test_pairing_a_thousand_players_at_four_seats_takes_under_a_second():
    import time

    players = [Player(i, float(i % 97)) for i in range(1, 1001)]
    *_, (_r, _p, games, byes) = _play(players, 4, 3, 3, 2)
    order = standings(players, games, byes, seed=2)
    met = meetings(games)
    began = time.process_time()
    pairing = pair_swiss(order, 4, 3, 4, 2, met)
    assert time.process_time() - began < 1.0  # CPU time: a loaded machine does not count
    assert len(pairing.tables) == 250 and not pairing.byes
