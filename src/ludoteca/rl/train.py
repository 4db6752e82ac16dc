"""A worked example: a small agent trained with policy gradient (REINFORCE) on one game,
numpy only, through the PettingZoo environment, against the random bot.

    python -m ludoteca.rl.train --game iwari --minutes 5 --plot docs/img/rl-iwari.png

The policy is linear: logits = W x + b over the action vocabulary, a softmax restricted
to the legal actions (the mask). Each episode the agent takes a seat in turn (player_0,
then player_1, ...), the other seats play uniformly random legal actions, and at the end
every decision the agent took is pushed towards (or away from) what it chose in
proportion to its reward minus a running baseline. The plot shows the agent's win share
against the random bot over a moving window of training games; the evaluation that
follows plays fixed deals with the greedy policy and reports a 95% interval.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ludoteca.bots.series import wilson

from .pettingzoo import LudotecaEnv, env


class LinearPolicy:
    """A softmax over the legal actions of a linear function of the observation."""

    def __init__(self, features: int, actions: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.w = (rng.standard_normal((actions, features)) * 0.01).astype(np.float32)
        self.b = np.zeros(actions, dtype=np.float32)

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.w @ x + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator, greedy: bool = False) -> int:
        p = self.probabilities(x, mask)
        return int(np.argmax(p)) if greedy else int(rng.choice(len(p), p=p))

    def to_json(self) -> dict[str, Any]:
        return {"w": self.w.tolist(), "b": self.b.tolist()}


@dataclass
class Episode:
    xs: list[np.ndarray] = field(default_factory=list)
    grads: list[np.ndarray] = field(default_factory=list)  # one-hot(action) - probabilities
    reward: float = 0.0
    won: float = 0.0


def play(e: LudotecaEnv, policy: LinearPolicy, seat: int, rng: np.random.Generator, greedy: bool = False,
         seed: int | None = None) -> Episode:
    """One game: the policy at ``seat``, uniformly random legal actions elsewhere."""
    e.reset(seed=seed)
    me = f"player_{seat}"
    episode = Episode()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            if agent == me:
                episode.reward = float(reward)
            e.step(None)
            continue
        mask = obs["action_mask"]
        if agent == me:
            x = obs["observation"]
            p = policy.probabilities(x, mask)
            action = int(np.argmax(p)) if greedy else int(rng.choice(len(p), p=p))
            g = -p
            g[action] += 1.0
            episode.xs.append(x)
            episode.grads.append(g.astype(np.float32))
        else:
            action = int(rng.choice(np.flatnonzero(mask)))
        e.step(action)
    result = e.infos[me]["result"] if me in e.infos else None
    if result is None:  # the agents were removed after the last step: ask the engine
        outcome = e.game.result(e.state)
        assert outcome is not None
        winners = outcome.winners
    else:
        winners = result["winners"]
    episode.won = 1.0 / len(winners) if seat in winners else 0.0
    return episode


def train(game: str = "iwari", players: int = 2, minutes: float = 5.0, lr: float = 0.01, seed: int = 0,
          window: int = 100, max_episodes: int | None = None) -> tuple[LinearPolicy, list[float], dict[str, Any]]:
    """Train for ``minutes`` (or ``max_episodes``); returns the policy, the per-episode win
    shares, and a summary."""
    e = env(game, players, seed=seed)
    rng = np.random.default_rng(seed)
    features = e.encoder.size
    policy = LinearPolicy(features, len(e.vocab), seed)
    baseline = 0.0
    wins: list[float] = []
    started = time.perf_counter()
    episodes = 0
    while time.perf_counter() - started < minutes * 60 and (max_episodes is None or episodes < max_episodes):
        episode = play(e, policy, episodes % players, rng)
        advantage = episode.reward - baseline
        baseline += 0.01 * (episode.reward - baseline)
        if episode.xs:
            x = np.stack(episode.xs)
            g = np.stack(episode.grads)
            policy.w += lr * advantage * (g.T @ x)
            policy.b += lr * advantage * g.sum(axis=0)
        wins.append(episode.won)
        episodes += 1
    seconds = time.perf_counter() - started
    tail = wins[-window:]
    summary = {"game": game, "players": players, "episodes": episodes, "seconds": round(seconds, 1), "lr": lr,
               "features": features, "actions": len(e.vocab), "vocabulary": e.vocab.digest,
               "final_window_win_share": sum(tail) / len(tail) if tail else 0.0}
    return policy, wins, summary


def evaluate(policy: LinearPolicy, game: str, players: int, games: int, seed: int = 10_000,
             greedy: bool = True) -> dict[str, Any]:
    """Win share of the policy against random players over ``games`` fixed deals (seat rotated)."""
    e = env(game, players)
    rng = np.random.default_rng(seed)
    won = 0.0
    for i in range(games):
        won += play(e, policy, i % players, rng, greedy=greedy, seed=seed + i).won
    low, high = wilson(won, games)
    return {"games": games, "wins": won, "win_share": won / games, "win_share_95": [low, high],
            "baseline": 1 / players, "greedy": greedy}


def moving(values: Sequence[float], window: int) -> list[float]:
    out: list[float] = []
    total = 0.0
    for i, v in enumerate(values):
        total += v
        if i >= window:
            total -= values[i - window]
        out.append(total / min(i + 1, window))
    return out


def plot(wins: Sequence[float], window: int, path: Path, title: str, baseline: float) -> None:
    """The moving win share as a small PNG (needs matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3), dpi=100)
    ax.plot(range(1, len(wins) + 1), moving(wins, window), label=f"agent, last {window} games")
    ax.axhline(baseline, color="grey", linestyle="--", label="random vs random")
    ax.set_xlabel("training games")
    ax.set_ylabel("win share vs random")
    ax.set_ylim(0, 1)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="iwari")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--window", type=int, default=100)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--plot", type=Path, default=None, help="write the learning curve here (PNG)")
    parser.add_argument("--save", type=Path, default=None, help="write the weights here (JSON)")
    args = parser.parse_args(argv)
    policy, wins, summary = train(args.game, args.players, args.minutes, args.lr, args.seed, args.window)
    summary["evaluation"] = evaluate(policy, args.game, args.players, args.eval_games)
    untrained = LinearPolicy(policy.w.shape[1], policy.w.shape[0], args.seed)
    summary["evaluation_untrained"] = evaluate(untrained, args.game, args.players, args.eval_games)
    print(json.dumps(summary, indent=1))
    if args.plot:
        plot(wins, args.window, args.plot, f"{args.game}, {args.players} players: REINFORCE, linear policy",
             1 / args.players)
    if args.save:
        args.save.write_text(json.dumps({"summary": summary, **policy.to_json()}))


if __name__ == "__main__":
    main()
