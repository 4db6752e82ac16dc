"""Observations come from a seat's view only: resampling what the seat cannot see leaves
them unchanged; they fit their documented layout and lie in [0, 1]."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from ludoteca.engine import Rng
from ludoteca.games import load
from ludoteca.rl import encoder
from ludoteca.rl.vocab import GAMES

CONFIGS = [(g, n) for g in GAMES for n in sorted({load(g).min_seats, 2, load(g).max_seats})]


@pytest.mark.parametrize(("game_id", "seats"), CONFIGS)
def test_observation_ignores_what_the_seat_cannot_see(game_id: str, seats: int) -> None:
    game = load(game_id)
    enc = encoder(game_id, seats)
    state = game.setup(seats, None, seed=11 + seats)
    rng = Rng(5)
    step = 0
    while game.result(state) is None:
        if step % 7 == 0:
            for decision in game.pending(state):
                seat = decision.seat
                seen = enc.encode(game.view(state, seat))
                assert seen.dtype == np.float32 and seen.shape == (enc.size,)
                assert seen.min() >= 0.0 and seen.max() <= 1.0
                for _ in range(2):
                    other = game.determinize(state, seat, rng)
                    assert np.array_equal(enc.encode(game.view(other, seat)), seen)
        seat = game.pending(state)[0].seat
        game.perform(state, seat, rng.choice(game.legal(state, seat)))
        step += 1
    final = enc.encode(game.view(state, 0))
    assert final.any()


@pytest.mark.parametrize("game_id", GAMES)
def test_layout_is_contiguous_and_documented(game_id: str) -> None:
    enc = encoder(game_id, 2)
    parts = enc.layout.parts
    assert parts[0].start == 0
    for before, after in itertools.pairwise(parts):
        assert after.start == before.start + before.size
    assert parts[-1].start + parts[-1].size == enc.size
    assert all(part.size > 0 and part.doc for part in parts)
    assert len({part.name for part in parts}) == len(parts)
    assert "| `seat` [0:2] | 2 |" in enc.layout.markdown()


def test_seats_see_different_things_in_a_hidden_information_game() -> None:
    game = load("bloodrage")
    enc = encoder("bloodrage", 2)
    state = game.setup(2, None, seed=3)
    rng = Rng(3)
    while game.view(state, 0)["phase"] != "draft":  # past the clan choice, if any
        seat = game.pending(state)[0].seat
        game.perform(state, seat, rng.choice(game.legal(state, seat)))
    hand = enc.layout.part("pack").slice  # the draft comes first: cards are in packs
    zero, one = enc.encode(game.view(state, 0)), enc.encode(game.view(state, 1))
    assert not np.array_equal(zero[hand], one[hand])
    spectator = enc.encode(game.view(state, None))
    assert not spectator[hand].any()
