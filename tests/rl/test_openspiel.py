"""The OpenSpiel games: pyspiel's random_sim_test for each game, the parameters, the
information state's consistency under resampling."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import ludoteca.rl.openspiel  # noqa: F401 (registers the games)
from ludoteca.engine import OptionError, SetupError
from ludoteca.rl.openspiel import short_name
from ludoteca.rl.vocab import GAMES, vocabulary

# One simulation per game and seat count kept short: the adapter asks the engine for
# every seat's view at every step, and Crusaders at 5 seats takes minutes.
SIMS = [("bloodrage", 2), ("crusaders", 2), ("hadrianswall", 1), ("hadrianswall", 2), ("iwari", 2)]


@pytest.mark.parametrize(("game_id", "players"), SIMS)
def test_random_sim_test_passes(game_id: str, players: int) -> None:
    game = pyspiel.load_game(short_name(game_id), {"players": players, "seed": 5})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_every_game_is_registered_with_its_options() -> None:
    names = set(pyspiel.registered_names())
    for game_id in GAMES:
        assert short_name(game_id) in names
    game = pyspiel.load_game("python_ludoteca_iwari", {"players": 3, "map": "long-road", "feats": True})
    assert game.num_players() == 3
    assert game.num_distinct_actions() == len(vocabulary("iwari", 3, {"map": "long-road", "feats": True}))
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game.observation_tensor_size() == game.information_state_tensor_size() > 0


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(SetupError, match="2 to 5 players"):
        pyspiel.load_game("python_ludoteca_iwari", {"players": 9})
    with pytest.raises(OptionError, match="map"):
        pyspiel.load_game("python_ludoteca_iwari", {"map": "atlantis"})
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("python_ludoteca_iwari", {"planets": 3})


def test_seeded_games_deal_the_same_matches_and_clones_do_not_use_deals() -> None:
    a = pyspiel.load_game("python_ludoteca_bloodrage", {"players": 2, "seed": 3})
    b = pyspiel.load_game("python_ludoteca_bloodrage", {"players": 2, "seed": 3})
    first = a.new_initial_state()
    assert str(first) == str(b.new_initial_state())
    first.clone()  # a clone must not draw a deal of its own
    assert str(a.new_initial_state()) == str(b.new_initial_state())
    assert first.information_state_string(0) != a.new_initial_state().information_state_string(0)


def test_resampling_keeps_the_information_state_and_observation() -> None:
    game = pyspiel.load_game("python_ludoteca_bloodrage", {"players": 3, "seed": 1})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(40):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    for _ in range(3):
        other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.observation_tensor(player) == state.observation_tensor(player)
        assert other.legal_actions() == state.legal_actions()
    # another seat's hand differs in some resample
    others = [p for p in range(3) if p != player]
    strings = {state.resample_from_infostate(player).observation_string(others[0]) for _ in range(5)}
    assert len(strings) > 1


def test_returns_sum_to_zero_at_the_end() -> None:
    game = pyspiel.load_game("python_ludoteca_iwari", {"players": 3, "seed": 2})
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert sum(state.returns()) == pytest.approx(0.0)
    assert max(state.returns()) == 1.0
