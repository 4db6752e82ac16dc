"""Engine speed for every registered game and seat count: random playouts on one core,
decisions per second, legal moves per decision, and clone time against copy.deepcopy.

    .venv/bin/python bench/engine_speed.py [--seconds 3] [--json] [--players N] [GAME ...]
    .venv/bin/python bench/engine_speed.py --ismcts 300 [--players N] [GAME ...]

``--ismcts N`` measures the search instead: ISMCTS with a budget of N iterations on the
same five mid-game positions (random play from seeds 0-4), reported as iterations per
second of CPU time. A fixed iteration budget and CPU time keep the figure comparable on a
loaded machine, where ``bench/bots_strength.py --speed`` (wall-clock budget) is not.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from ludoteca.bots import Budget, ISMCTSBot
from ludoteca.engine import Game
from ludoteca.games import available, load
from ludoteca.playouts import measure, midgame_contexts


def ismcts_speed(game: Game[Any], players: int, iterations: int, positions: int = 5) -> dict[str, Any]:
    """ISMCTS iterations per CPU second over a few fixed mid-game positions."""
    done = 0
    cpu = 0.0
    for ctx in midgame_contexts(game, players, 0, positions):
        bot = ISMCTSBot(Budget(iterations=iterations))
        started = time.process_time()
        bot.choose(ctx)
        cpu += time.process_time() - started
        done += bot.stats.iterations
    return {"game": game.id, "players": players, "iterations": done, "cpu_seconds": round(cpu, 3),
            "iterations_per_cpu_second": done / cpu if cpu else 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--players", type=int, default=None, help="one seat count (default: every one)")
    parser.add_argument("--ismcts", type=int, default=None, metavar="N",
                        help="measure ISMCTS iterations per CPU second with N iterations per decision")
    parser.add_argument("games", nargs="*")
    args = parser.parse_args()
    rows = []
    for game_id in args.games or available():
        game = load(game_id)
        for players in range(game.min_seats, game.max_seats + 1):
            if args.players is not None and players != args.players:
                continue
            if args.ismcts:
                rows.append(ismcts_speed(game, players, args.ismcts))
            else:
                rows.append(measure(game, players, args.seconds))
    if args.ismcts:
        for r in rows:
            print(json.dumps(r) if args.json else
                  f"{r['game']} {r['players']}: {r['iterations_per_cpu_second']:,.0f} ISMCTS iterations/CPU s")
        return
    if args.json:
        print(json.dumps(rows))
        return
    table = Table(title="Random playouts, one core")
    for column in ("game", "players", "games/s", "decisions/s", "decisions/game", "legal/decision",
                   "clone µs", "deepcopy µs", "speed-up"):
        table.add_column(column, justify="right")
    for r in rows:
        table.add_row(r["game"], str(r["players"]), f"{r['games_per_second']:.1f}", f"{r['decisions_per_second']:,.0f}",
                      f"{r['decisions_per_game']:.0f}", f"{r['legal_moves_per_decision']:.1f}",
                      f"{r['clone_microseconds']:.1f}", f"{r['deepcopy_microseconds']:.1f}",
                      f"{r['clone_speedup_over_deepcopy']:.0f}x")
    Console().print(table)


if __name__ == "__main__":
    main()
