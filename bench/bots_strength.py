"""Bot strength: ISMCTS against random and against greedy bots, seat-rotated, per game
and seat count; solo Hadrian's Wall by mean score. Prints figures; asserts nothing.

    .venv/bin/python bench/bots_strength.py [GAME ...] [--seconds 1.0 | --iterations N]
        [--games 200] [--players 2 4] [--against random greedy] [--seed 0] [--json]

Defaults follow issue 9: 1 s per decision, 200 games, 2 and 4 seats (1 and 3 for
Hadrian's Wall). One game of a long title takes minutes at 1 s per decision, so pass
``--seconds 0.1 --games 20`` for a quick look. ``--speed`` only measures the search's
iterations per second on mid-game states. ``--rollout-depth`` and ``--no-hooks`` change
the hooks the measured ISMCTS uses (the opponents keep the game's), to weigh a hook.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from ludoteca.bots import Budget, GreedyBot, ISMCTSBot, RandomBot
from ludoteca.bots.base import Bot, BotContext
from ludoteca.bots.hooks import GameHooks, hooks_for
from ludoteca.bots.tournament import run_tournament
from ludoteca.engine import Game, Rng
from ludoteca.games import available, load

SOLO_GAMES = {"hadrianswall"}
"""Games measured at 1 and 3 seats: solo is scored by points."""

err = Console(stderr=True)


def seat_counts(game: Game[Any], wanted: list[int] | None) -> list[int]:
    counts = wanted or ([1, 3] if game.id in SOLO_GAMES else [2, 4])
    return [n for n in counts if game.min_seats <= n <= game.max_seats]


def opponent(kind: str) -> Bot:
    return {"random": RandomBot, "greedy": GreedyBot}[kind]()


def own_hooks(game: Game[Any], depth: int | None, none: bool) -> GameHooks | None:
    """The hooks the measured ISMCTS uses instead of the game's, if any (to weigh them)."""
    if none:
        return GameHooks(source="none")
    if depth is None:
        return None
    game_hooks = hooks_for(game)
    return GameHooks(game_hooks.rollout_policy, game_hooks.evaluate, game_hooks.reward, depth,
                     f"{game_hooks.source}, ROLLOUT_DEPTH={depth}")


def speed(game: Game[Any], players: int, budget: Budget, seed: int, positions: int = 5) -> dict[str, Any]:
    """Iterations per second on a few mid-game states reached by random play."""
    rng = Rng(seed)
    bot = ISMCTSBot(budget)
    for position in range(positions):
        state = game.setup(players, None, seed + position)
        for _ in range(rng.below(40) + 10):
            if game.result(state) is not None:
                break
            seat = game.pending(state)[0].seat
            game.perform(state, seat, rng.choice(game.legal(state, seat)))
        if game.result(state) is not None:
            continue
        seat = game.pending(state)[0].seat
        ctx = BotContext(game, state, seat, rng.fork())
        if len(ctx.legal) > 1:
            bot.choose(ctx)
    stats = bot.stats
    return {"game": game.id, "players": players, "decisions": stats.decisions,
            "iterations_per_second": stats.iterations_per_second}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="game ids (default: every registered game)")
    parser.add_argument("--seconds", type=float, default=None, help="ISMCTS seconds per decision (default 1.0)")
    parser.add_argument("--iterations", type=int, default=None, help="ISMCTS iterations per decision instead")
    parser.add_argument("--games", type=int, default=200, dest="count")
    parser.add_argument("--players", type=int, nargs="*", default=None)
    parser.add_argument("--against", nargs="*", default=["random", "greedy"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed", action="store_true", help="only iterations per second")
    parser.add_argument("--rollout-depth", type=int, default=None,
                        help="ISMCTS: replace the game's ROLLOUT_DEPTH (its other hooks kept)")
    parser.add_argument("--no-hooks", action="store_true", help="ISMCTS: ignore the game's hooks")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.iterations is not None:
        budget = Budget(iterations=args.iterations, seconds=args.seconds)
    else:
        budget = Budget(seconds=args.seconds if args.seconds is not None else 1.0)
    parts = ([f"{budget.iterations} it"] if budget.iterations else []) + \
        ([f"{budget.seconds:g} s"] if budget.seconds else [])
    label = "ismcts " + " ".join(parts)
    rows: list[dict[str, Any]] = []
    for game_id in args.games or available():
        game = load(game_id)
        for players in seat_counts(game, args.players):
            if args.speed:
                rows.append(speed(game, players, budget, args.seed))
                err.print(rows[-1])
                continue
            for kind in (["solo"] if players == 1 else args.against):
                hooks = own_hooks(game, args.rollout_depth, args.no_hooks)
                bots = [ISMCTSBot(budget, name=label, hooks=hooks)] + [opponent(kind) for _ in range(players - 1)]
                started = time.perf_counter()
                with err.status(f"{game_id} {players}p vs {kind}: 0/{args.count}") as status:
                    result = run_tournament(
                        game, players, bots, args.count, args.seed,
                        on_game=lambda i, _r, g=game_id, p=players, k=kind: status.update(
                            f"{g} {p}p vs {k}: {i + 1}/{args.count}"))
                hero = result.entries[0]
                rows.append({"game": game_id, "players": players, "against": kind, "games": result.games,
                             "budget": label, "hooks": (hooks or hooks_for(game)).source,
                             **{k: v for k, v in hero.to_json().items() if k != "bot"},
                             "opponent_mean_score": (sum(sum(e.scores) for e in result.entries[1:])
                                                     / max(1, sum(len(e.scores) for e in result.entries[1:]))),
                             "baseline": result.baseline, "seconds": time.perf_counter() - started})
                err.print(f"[dim]{rows[-1]}[/dim]")
    if args.json:
        print(json.dumps(rows))
        return
    table = Table(title=f"ISMCTS strength ({label} per decision), seat-rotated")
    if args.speed:
        for column in ("game", "players", "decisions", "iterations/s"):
            table.add_column(column, justify="right")
        for row in rows:
            table.add_row(row["game"], str(row["players"]), str(row["decisions"]),
                          f"{row['iterations_per_second']:,.0f}")
    else:
        for column in ("game", "seats", "against", "games", "win share", "95%", "vs 1/N", "mean score",
                       "opp. score", "ms/decision", "iter/s"):
            table.add_column(column, justify="right")
        for row in rows:
            low, high = row["win_share_95"]
            ips = row["iterations_per_second"]
            table.add_row(row["game"], str(row["players"]), row["against"], str(row["games"]),
                          f"{row['win_share']:.1%}", f"{low:.0%}-{high:.0%}",
                          f"{row['win_share'] / row['baseline']:.2f}x", f"{row['mean_score']:.1f}",
                          f"{row['opponent_mean_score']:.1f}", f"{row['ms_per_decision']:.0f}",
                          f"{ips:,.0f}" if ips else "-")
    Console().print(table)


if __name__ == "__main__":
    main()
