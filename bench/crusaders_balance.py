"""Crusaders balance check: simple focused strategies against each other and against random
play, knight-order and seat win rates under random play.

    .venv/bin/python bench/crusaders_balance.py [--games 60] [--players 3]

A strategy plays each turn by looking at every choice to the end of the turn (splits
included, knights walking by rule of thumb towards free regions or enemies) and keeps the one
that gains most: influence, plus buildings, troops and beaten enemies, the strategy's own focus
weighted up (balanced: no focus). One move in ten is random.
"""

from __future__ import annotations

import argparse
import itertools
from collections import Counter, defaultdict
from typing import Any

from ludoteca.engine import Rng
from ludoteca.games.crusaders import CrusadersGame
from ludoteca.games.crusaders.components import components
from ludoteca.games.crusaders.state import CrusadersState

GAME = CrusadersGame()
C = components()
STRATEGIES = ("random", "influence", "build", "muster", "crusade", "balanced")


def _wedge_actions(state: CrusadersState, seat: int, pos: int) -> tuple[str, ...]:
    p = state.players[seat]
    wedge = C.wedges[C.wedge_index[p.wheel[pos]]]
    return (wedge.action, wedge.upgrade) if p.upgraded[pos] else (wedge.action,)


def _distance(state: CrusadersState, region: int, goal: Any) -> int:
    """Steps from a region to the nearest region satisfying ``goal``."""
    board = C.board_for(state.seats)
    seen = {region}
    frontier = [region]
    d = 0
    while frontier:
        if any(goal(r) for r in frontier):
            return d
        d += 1
        nxt = []
        for r in frontier:
            for nb in board.neighbours[r]:
                if nb not in seen:
                    seen.add(nb)
                    nxt.append(nb)
        frontier = nxt
    return 99


def _goal(state: CrusadersState, focus: str) -> Any:
    if focus == "build":
        return lambda r: not state.enemy[r] and not state.buildings[r]
    if focus == "crusade":
        return lambda r: bool(state.enemy[r])
    return lambda r: not state.buildings[r]


def _progress(state: CrusadersState, seat: int, focus: str) -> float:
    """What a turn achieved, as the strategy values it: influence, plus things built, troops
    mustered and enemies beaten (worth more to the strategy that focuses on them)."""
    p = state.players[seat]
    weights = {"build": 2.5, "muster": 1.5, "crusade": 1.5}
    if focus in weights:
        weights[focus] += 1.5
    return (p.influence + weights["build"] * sum(p.built) + weights["muster"] * p.troops
            + weights["crusade"] * sum(p.defeated))


def _sub_move(state: CrusadersState, seat: int, focus: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The rest of a turn, played by rule of thumb."""
    phase = state.phase
    p = state.players[seat]
    if phase == "move":
        goal = _goal(state, focus)
        steps = [m for m in legal if m["type"] == "step"]
        here = min(_distance(state, k, goal) for k in p.knights if k >= 0)
        if here == 0 or not steps:
            return {"type": "stop"}
        board = C.board_for(state.seats)
        return min(steps, key=lambda m: _distance(state, board.index[m["to"]], goal))
    if phase in ("crusade", "build", "saracen"):
        best, best_value = legal[-1], -1.0
        for move in legal:
            copy = state.clone()
            GAME.perform(copy, seat, move)
            value = _progress(copy, seat, focus)
            if value > best_value:
                best, best_value = move, value
        return best
    if phase == "after_upgrade":
        return {"type": "no_sow"}
    return legal[0]


def _finish_turn(state: CrusadersState, seat: int, focus: str) -> None:
    while state.phase not in ("turn", "over") and state.current == seat:
        legal = GAME.legal(state, seat)
        if state.phase == "split":
            best, best_value = legal[0], -1.0
            for move in legal:
                copy = state.clone()
                GAME.perform(copy, seat, move)
                _finish_turn(copy, seat, focus)
                value = _progress(copy, seat, focus)
                if value > best_value:
                    best, best_value = move, value
            GAME.perform(state, seat, best)
        else:
            GAME.perform(state, seat, _sub_move(state, seat, focus, legal))


def _planner(state: CrusadersState, seat: int, focus: str, legal: list[dict[str, Any]], rng: Rng) -> dict[str, Any]:
    if state.phase != "turn":
        return _sub_move(state, seat, focus, legal) if state.phase != "split" else _best_split(state, seat, focus)
    before = _progress(state, seat, focus)
    goal = _goal(state, focus)
    placed = any(k >= 0 and goal(k) for k in state.players[seat].knights)
    best, best_value = [], -1e9
    for move in legal:
        copy = state.clone()
        GAME.perform(copy, seat, move)
        _finish_turn(copy, seat, focus)
        value = _progress(copy, seat, focus) - before
        if move["type"] == "upgrade" and state.round < 12:
            value += 2.0  # an upgraded wedge pays back over the rest of the game
        goal_after = _goal(copy, focus)
        if any(k >= 0 and goal_after(k) for k in copy.players[seat].knights) and not placed:
            value += 2.0  # a knight now stands where the strategy can act next turn
        if value > best_value + 1e-9:
            best, best_value = [move], value
        elif abs(value - best_value) <= 1e-9:
            best.append(move)
    return rng.choice(best)


def _best_split(state: CrusadersState, seat: int, focus: str) -> dict[str, Any]:
    best, best_value = None, -1.0
    for move in GAME.legal(state, seat):
        copy = state.clone()
        GAME.perform(copy, seat, move)
        _finish_turn(copy, seat, focus)
        value = _progress(copy, seat, focus)
        if value > best_value:
            best, best_value = move, value
    assert best is not None
    return best


def choose(strategy: str, state: CrusadersState, seat: int, rng: Rng) -> dict[str, Any]:
    legal = GAME.legal(state, seat)
    if strategy == "random" or len(legal) == 1 or state.phase in ("order", "setup") or rng.below(10) == 0:
        return rng.choice(legal)
    return _planner(state, seat, strategy, legal, rng)


def play(strategies: list[str], seed: int, options: dict[str, Any] | None = None) -> tuple[Any, CrusadersState]:
    state = GAME.setup(len(strategies), options or {}, seed)
    rng = Rng(seed * 7919 + 1)
    while GAME.result(state) is None:
        seat = GAME.pending(state)[0].seat
        GAME.perform(state, seat, choose(strategies[seat], state, seat, rng))
    return GAME.result(state), state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    n = args.players
    print(f"== one strategy against {n - 1} random players ({args.games} games each, seat rotated)")
    for strategy in STRATEGIES:
        wins = 0
        score = 0
        ended = 0
        for g in range(args.games):
            seat = g % n
            seats = ["random"] * n
            seats[seat] = strategy
            result, state = play(seats, 1000 + g)
            wins += 1 if result.ranks[seat] == 1 else 0
            score += result.scores[seat]
            ended += state.ending
        print(f"{strategy:10s} win {wins / args.games:6.1%} (fair {1 / n:.1%})  mean score {score / args.games:6.1f}"
              f"  supply-ended {ended}/{args.games}")
    print(f"== focused strategies against each other, {n} at a table, every arrangement")
    focused = [s for s in STRATEGIES if s != "random"]
    wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    seed = 5000
    for combo in itertools.combinations(focused, n):
        for arrangement in itertools.permutations(combo):
            for _ in range(max(1, args.games // 30)):
                result, _ = play(list(arrangement), seed)
                seed += 1
                for s, name in enumerate(arrangement):
                    played[name] += 1
                    wins[name] += 1 if result.ranks[s] == 1 else 0
    for name in focused:
        print(f"{name:10s} win {wins[name] / played[name]:6.1%} of {played[name]}")
    print("== random play: knight orders and seats")
    order_wins: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    seat_wins = Counter()
    games = args.games * 5
    for g in range(games):
        result, state = play(["random"] * n, 9000 + g)
        for s, p in enumerate(state.players):
            order_wins[p.order][1] += 1
            order_wins[p.order][0] += result.ranks[s] == 1
        seat_wins[result.winners[0]] += 1
    for order, (w, t) in sorted(order_wins.items(), key=lambda kv: -kv[1][0] / kv[1][1]):
        print(f"{order:12s} win {w / t:6.1%} of {t}")
    print("seat wins:", {s: f"{seat_wins[s] / games:.1%}" for s in range(n)})


if __name__ == "__main__":
    main()
