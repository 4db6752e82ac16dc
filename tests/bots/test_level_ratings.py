"""Bot levels rated against each other with openskill, as people are, and published in each
game's own package."""

from __future__ import annotations

from ludoteca.bots import level_names
from ludoteca.bots.ratings import bot_levels, level_ratings, rate


def test_a_level_that_always_wins_is_rated_above_one_that_always_loses() -> None:
    games = [(["a", "b", "c"], [1, 2, 3]), (["c", "a", "b"], [3, 1, 2]), (["b", "c", "a"], [2, 3, 1])] * 4
    rated = {r.level: r for r in rate(["a", "b", "c"], games)}
    assert rated["a"].ordinal > rated["b"].ordinal > rated["c"].ordinal
    assert {r.games for r in rated.values()} == {12}
    # Every game narrows what is known.
    assert all(r.sigma < 25 / 3 for r in rated.values())


def test_a_shared_rank_rates_the_tied_levels_alike() -> None:
    rated = {r.level: r for r in rate(["a", "b"], [(["a", "b"], [1, 1]), (["b", "a"], [1, 1])])}
    assert abs(rated["a"].mu - rated["b"].mu) < 1e-9


def test_the_published_ratings_cover_every_game_and_level_and_order_them_by_strength() -> None:
    published = level_ratings()
    assert set(published) == {"bloodrage", "crusaders", "hadrianswall", "iwari"}
    for game_id, levels in published.items():
        assert set(levels) == {"random", *level_names()}, game_id
        assert all(entry["games"] > 0 for entry in levels.values()), game_id
        # The searching level beats the random one in every game.
        assert levels["hard"]["mu"] > levels["random"]["mu"], game_id


def test_the_levels_offered_for_a_game_carry_their_ratings_weakest_first() -> None:
    offered = bot_levels("iwari")
    assert [entry["level"] for entry in offered] == ["random", *level_names()]
    assert all(entry["rating"] is not None and entry["games"] > 0 for entry in offered)
    unmeasured = bot_levels("no-such-game")
    assert [entry["rating"] for entry in unmeasured] == [None] * len(unmeasured)
