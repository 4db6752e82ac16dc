"""Play now's pairing as pure logic (server/playnow/pools.py): bands widening with the wait,
seat wishes, bots after a wait, blocks kept apart, every seeker in one group at most."""

from __future__ import annotations

import random

from ludoteca.server.playnow.pools import BAND_MAX, BAND_START, Seeker, band, pair


def test_band_widens_with_the_wait_up_to_a_limit():
    assert band(0) == BAND_START
    assert band(10) > band(5) > band(0)
    assert band(10**6) == BAND_MAX
    assert band(-5) == BAND_START


def test_two_close_players_are_paired_at_once_two_far_ones_only_after_waiting():
    assert pair([Seeker(1, 1500, 0, 2), Seeker(2, 1550, 0, 2)], 2, 3)[0].players == (1, 2)
    far = [Seeker(1, 1500, 0, 2), Seeker(2, 1900, 0, 2)]
    assert pair(far, 2, 3) == []
    waited = [Seeker(1, 1500, 200, 2), Seeker(2, 1900, 200, 2)]
    assert [g.players for g in pair(waited, 2, 3)] == [(1, 2)]
    # Both must have waited: one newcomer's narrow band holds the pair apart.
    assert pair([Seeker(1, 1500, 500, 2), Seeker(2, 1900, 0, 2)], 2, 3) == []


def test_seat_wishes_and_any():
    groups = pair([Seeker(1, 1500, 3, 3), Seeker(2, 1500, 2, 2), Seeker(3, 1500, 1, None)], 2, 3)
    # The longest waiting wants three: only two others, one of whom wants two -> waits;
    # then the two-seat player pairs with "any".
    assert [(g.seats, g.players) for g in groups] == [(2, (2, 3))]
    groups = pair([Seeker(i, 1500, 10 - i, None) for i in range(1, 8)], 2, 3)
    assert [g.seats for g in groups] == [3, 3]  # "any" fills the largest table it can
    assert sorted(u for g in groups for u in g.players) == [1, 2, 3, 4, 5, 6]


def test_bots_fill_after_the_chosen_wait():
    assert pair([Seeker(1, 1500, 5, 3, bots_after=10)], 2, 3) == []
    (group,) = pair([Seeker(1, 1500, 11, 3, bots_after=10)], 2, 3)
    assert (group.seats, group.players, group.bots) == (3, (1,), 2)
    (group,) = pair([Seeker(1, 1500, 11, None, bots_after=10)], 2, 3)
    assert (group.seats, group.bots) == (2, 1)  # "any" with no one: the smallest table
    (group,) = pair([Seeker(1, 1500, 11, 3, bots_after=10), Seeker(2, 1510, 1, None)], 2, 3)
    assert (group.players, group.bots) == ((1, 2), 1)


def test_blocked_pairs_are_kept_apart():
    seekers = [Seeker(1, 1500, 3, 2), Seeker(2, 1500, 2, 2), Seeker(3, 1500, 1, 2)]
    assert [g.players for g in pair(seekers, 2, 3, {frozenset((1, 2))})] == [(1, 3)]


def test_every_seeker_is_in_one_group_at_most_and_groups_hold_their_band():
    rng = random.Random(7)
    for _ in range(200):
        seekers = [Seeker(i, rng.uniform(800, 2200), rng.uniform(0, 300), rng.choice([None, 2, 3, 4]),
                          rng.choice([None, None, 30.0])) for i in range(rng.randint(0, 40))]
        groups = pair(seekers, 2, 4)
        seen = [u for g in groups for u in g.players]
        assert len(seen) == len(set(seen))
        by_id = {s.user_id: s for s in seekers}
        for g in groups:
            assert 2 <= g.seats <= 4 and len(g.players) + g.bots == g.seats
            members = [by_id[u] for u in g.players]
            assert all(m.seats in (None, g.seats) for m in members)
            spread = max(m.rating for m in members) - min(m.rating for m in members)
            assert spread <= min(band(m.waited) for m in members)
        assert pair(seekers, 2, 4) == groups  # deterministic
