"""Every Ludoteca game as a PettingZoo AEC environment.

    from ludoteca.rl.pettingzoo import env
    e = env("iwari", 3, options={"feats": True}, seed=7)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0`` .. ``player_<n-1>`` (seat i is ``player_i``). Where several seats
decide at once (Blood Rage's draft, Hadrian's Wall's years), they are asked one after
the other in seat order, each from its own view, as the engine's own playouts do.
Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``; the
action space is ``Discrete(len(vocabulary))``. Rewards are 0 until the end, then the
final ranking mapped to [-1, 1] (see ``ludoteca.rl.rewards``). ``render_mode="ansi"``:
``render()`` returns the game's terminal text of the spectator's view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ludoteca.games import load

from .observation import encoder
from .rewards import rank_rewards
from .vocab import vocabulary


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class LudotecaEnv(AECEnv):  # type: ignore[misc]
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "ludoteca_v0", "is_parallelizable": False}

    def __init__(self, game: str, players: int, options: Mapping[str, object] | None = None, seed: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = load(game)
        self.players = players
        self.vocab = vocabulary(game, players, options)
        self.options = dict(self.vocab.options)
        self.encoder = encoder(game, players, options)
        self.render_mode = render_mode
        self.possible_agents = [agent_name(seat) for seat in range(players)]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        n, size = len(self.vocab), self.encoder.size
        self._action_spaces = {agent: spaces.Discrete(n) for agent in self.possible_agents}
        self._observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self._seeds = np.random.default_rng(seed)
        self.match_seed = 0
        self.state: Any = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match; its seed is drawn from the generator ``seed`` (re)starts, so the
        same seed gives the same sequence of matches."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.match_seed = int(self._seeds.integers(0, 2**62))
        self.state = self.game.setup(self.players, self.options, self.match_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._next_agent()

    def _next_agent(self) -> str:
        pending = self.game.pending(self.state)
        return agent_name(pending[0].seat) if pending else self.possible_agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat_of[agent]
        return {
            "observation": self.encoder.encode(self.game.view(self.state, seat)),
            "action_mask": self.vocab.mask(self.game.legal(self.state, seat)),
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.seat_of[agent]
        move = self.vocab.resolve(int(action), self.game.legal(self.state, seat))
        self._cumulative_rewards[agent] = 0.0
        self.game.perform(self.state, seat, move)
        result = self.game.result(self.state)
        if result is not None:
            for s, reward in enumerate(rank_rewards(result, self.game.id)):
                self.rewards[agent_name(s)] = reward
                self.terminations[agent_name(s)] = True
            self.infos = {a: {"result": result.to_json()} for a in self.agents}
        else:
            self.agent_selection = self._next_agent()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        return self.game.view_text(self.game.view(self.state, None))

    def close(self) -> None:
        pass


def env(game: str, players: int, options: Mapping[str, object] | None = None, seed: int | None = None,
        render_mode: str | None = None) -> LudotecaEnv:
    """A PettingZoo AEC environment of ``game`` at ``players`` seats (see the module's doc)."""
    return LudotecaEnv(game, players, options, seed, render_mode)
