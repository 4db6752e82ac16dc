"""The action vocabulary: every legal move of random games maps into it, distinct moves to
distinct indices, and the vocabularies stay what they were (pinned digests)."""

from __future__ import annotations

import pytest

from ludoteca.engine import OptionError, Rng, SetupError, option_sets
from ludoteca.games import load
from ludoteca.rl.vocab import GAMES, vocabulary

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


# Each game's vocabulary at its default options, per seat count: its size and digest. A
# change here renumbers actions and breaks saved policies: when it is intended (the
# game's data or moves changed), update these and say so in docs/rl.md's changelog.
PINNED = {
    ("bloodrage", 2): 1568, ("bloodrage", 3): 1700, ("bloodrage", 4): 1853,
    ("crusaders", 2): 754, ("crusaders", 3): 934, ("crusaders", 4): 934, ("crusaders", 5): 934,
    ("hadrianswall", 1): 533, ("hadrianswall", 2): 549, ("hadrianswall", 3): 539, ("hadrianswall", 4): 553,
    ("hadrianswall", 5): 567, ("hadrianswall", 6): 581,
    ("iwari", 2): 413, ("iwari", 3): 413, ("iwari", 4): 475, ("iwari", 5): 542,
}


DIGESTS = {("bloodrage", 2): "786b1a70b44010bf", ("crusaders", 2): "a7d8e0c18e56f4f9",
           ("hadrianswall", 1): "243a8f4d042f1584", ("hadrianswall", 2): "ea868d0a0c507f76",
           ("iwari", 2): "1a0caa91ba9d72a9"}


def test_vocabulary_sizes_and_digests_are_pinned() -> None:
    assert {key: len(vocabulary(*key)) for key in PINNED} == PINNED
    assert {key: vocabulary(*key).digest for key in DIGESTS} == DIGESTS


def test_vocabulary_is_the_same_every_time() -> None:
    first = vocabulary("crusaders", 3).digest
    from ludoteca.rl import vocab as module

    module._vocabulary.cache_clear()
    assert vocabulary("crusaders", 3).digest == first
    assert vocabulary("crusaders", 3).describe()["actions"] == 934
