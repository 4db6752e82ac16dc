"""The action vocabulary: every legal move of random games maps into it, distinct moves to
distinct indices, and the vocabularies stay what they were (pinned digests)."""

from __future__ import annotations

import pytest

from ludoteca.engine import OptionError, Rng, SetupError, option_sets
from ludoteca.games import load
from ludoteca.rl.vocab import GAMES, data_fingerprint, vocabulary

CONFIGS = [(game_id, seats, options)
           for game_id in GAMES
           for seats in range(load(game_id).min_seats, load(game_id).max_seats + 1)
           for options in option_sets(load(game_id).options, seats)]


@pytest.mark.parametrize(("game_id", "seats", "options"), CONFIGS,
                         ids=[f"{g}-{n}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for g, n, o in CONFIGS])
def test_every_legal_move_of_a_random_game_is_in_the_vocabulary(game_id: str, seats: int, options: dict) -> None:
    game = load(game_id)
    vocab = vocabulary(game_id, seats, options)
    state = game.setup(seats, options, seed=seats * 31 + len(CONFIGS))
    rng = Rng(seats)
    while game.result(state) is None:
        for decision in game.pending(state):
            legal = game.legal(state, decision.seat)
            indices = vocab.legal_indices(legal)
            assert len(set(indices)) == len(legal), "two legal moves share an index"
            mask = vocab.mask(legal)
            assert mask.sum() == len(legal) and all(mask[i] for i in indices)
            for move in legal[:3]:
                assert vocab.resolve(vocab.index_of(move), legal) == move
        seat = game.pending(state)[0].seat
        game.perform(state, seat, rng.choice(game.legal(state, seat)))


def test_moves_and_indices_round_trip() -> None:
    vocab = vocabulary("iwari", 3)
    for index in range(len(vocab)):
        assert vocab.index_of(vocab.move(index)) == index
    # pay moves list their cards in the hand's order; the vocabulary does not care
    pay = next(m for m in vocab.moves if m["type"] == "pay" and len(m["cards"]) == 2)
    reversed_pay = {"type": "pay", "cards": pay["cards"][::-1]}
    assert vocab.index_of(reversed_pay) == vocab.index_of(pay)
    assert vocab.resolve(vocab.index_of(pay), [reversed_pay]) is not None


def test_bad_indices_moves_and_setups_are_refused_clearly() -> None:
    vocab = vocabulary("bloodrage", 2)
    with pytest.raises(ValueError, match="no action"):
        vocab.move(len(vocab))
    with pytest.raises(ValueError, match="not in the action vocabulary"):
        vocab.index_of({"type": "teleport"})
    with pytest.raises(ValueError, match="not legal now"):
        vocab.resolve(0, [{"type": "pass"}])
    with pytest.raises(SetupError):
        vocabulary("bloodrage", 7)
    with pytest.raises(OptionError):
        vocabulary("iwari", 2, {"map": "atlantis"})
    with pytest.raises(ValueError, match="no RL adapter"):
        vocabulary("chess", 2)


def test_fight_true_and_one_are_different_moves() -> None:
    vocab = vocabulary("hadrianswall", 2)
    fight = {"type": "fight", "gladiator": 1, "fight": True}
    assert vocab.index_of(fight) >= 0
    with pytest.raises(ValueError):
        vocab.index_of({"type": "fight", "gladiator": 1, "fight": 1})


# Per game and version of its component data (``data_fingerprint``), the vocabulary at
# default options per seat count: (size, digest). A change that renumbers actions breaks
# saved policies: when intended, add the new data version's line here (the failure prints
# it) and say so in docs/rl.md's changelog.
PINNED: dict[str, dict[str, dict[int, tuple[int, str]]]] = {
    "bloodrage": {
        "bda65373d3e0": {2: (1572, "43e02cfb70452ec0"), 3: (1704, "54a22f0bd3f5e4f8"), 4: (1857, "f47de565a7ec830e")},
        "56b007556c6f": {2: (1572, "43e02cfb70452ec0"), 3: (1704, "54a22f0bd3f5e4f8"), 4: (1857, "f47de565a7ec830e")},
        # provenance texts name the references, not a file outside the repository: the same actions
        "8aa571e5d1f0": {2: (1572, "43e02cfb70452ec0"), 3: (1704, "54a22f0bd3f5e4f8"), 4: (1857, "f47de565a7ec830e")},
    },
    "crusaders": {
        "b661eecd31ed": {2: (760, "4bd2953d2ab90df4"), 3: (940, "6840e782a68d9ba3"), 4: (940, "6840e782a68d9ba3"),
                         5: (940, "6840e782a68d9ba3")},
        # 30 bonus tiles (CR-3), the wheel of the player aid's pictures: the same actions
        "e016b1f63190": {2: (760, "4bd2953d2ab90df4"), 3: (940, "6840e782a68d9ba3"), 4: (940, "6840e782a68d9ba3"),
                         5: (940, "6840e782a68d9ba3")},
        # provenance texts name the references, not a file outside the repository: the same actions
        "cfcf7d736b7f": {2: (760, "4bd2953d2ab90df4"), 3: (940, "6840e782a68d9ba3"), 4: (940, "6840e782a68d9ba3"),
                         5: (940, "6840e782a68d9ba3")},
    },
    "hadrianswall": {
        "5ab0069f21fe": {1: (533, "243a8f4d042f1584"), 2: (549, "ea868d0a0c507f76"), 3: (539, "9ce4e59d9c390eee"),
                         4: (553, "f4566fd0a07f6c17"), 5: (567, "a0efa9566bba2e61"), 6: (581, "738e39d13e28fe9f")},
        # provenance texts name the references, not a file outside the repository: the same actions
        "b28eb9c353e6": {1: (533, "243a8f4d042f1584"), 2: (549, "ea868d0a0c507f76"), 3: (539, "9ce4e59d9c390eee"),
                         4: (553, "f4566fd0a07f6c17"), 5: (567, "a0efa9566bba2e61"), 6: (581, "738e39d13e28fe9f")},
    },
    # The test game (tests/toygame): no data files, its cards are made in code.
    "sealedbids": {
        "e3b0c44298fc": {2: (11, "10663cc3534d7e4f"), 3: (16, "d63311730bf7c01c"), 4: (21, "d894ca9ee6411d9a")},
    },
    "iwari": {
        "14815134c1ac": {2: (413, "1a0caa91ba9d72a9"), 3: (413, "1a0caa91ba9d72a9"), 4: (475, "c480bf4345c522a9"),
                         5: (542, "23751b70ff3c6e88")},
        "2c1e13cdfbc8": {2: (413, "1a0caa91ba9d72a9"), 3: (413, "1a0caa91ba9d72a9"), 4: (475, "c480bf4345c522a9"),
                         5: (542, "23751b70ff3c6e88")},
        # provenance texts name the references, not a file outside the repository: the same actions
        "25f3f9562d98": {2: (413, "1a0caa91ba9d72a9"), 3: (413, "1a0caa91ba9d72a9"), 4: (475, "c480bf4345c522a9"),
                         5: (542, "23751b70ff3c6e88")},
    },
}


@pytest.mark.parametrize("game_id", GAMES)
def test_vocabularies_are_pinned_per_data_version(game_id: str) -> None:
    game = load(game_id)
    now = {n: (len(vocabulary(game_id, n)), vocabulary(game_id, n).digest)
           for n in range(game.min_seats, game.max_seats + 1)}
    version = data_fingerprint(game_id)
    assert version in PINNED[game_id], f"new data version of {game_id}: {version!r}: {now}"
    assert now == PINNED[game_id][version]


def test_vocabulary_is_the_same_every_time() -> None:
    first = vocabulary("crusaders", 3).digest
    from ludoteca.rl import vocab as module

    module._vocabulary.cache_clear()
    assert vocabulary("crusaders", 3).digest == first
    assert vocabulary("crusaders", 3).describe()["actions"] == len(vocabulary("crusaders", 3))
