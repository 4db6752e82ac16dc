"""Engine speed for every registered game and seat count: random playouts on one core,
decisions per second, legal moves per decision, and clone time against copy.deepcopy.

    .venv/bin/python bench/engine_speed.py [--seconds 3] [--json]
"""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table

from ludoteca.bench import measure
from ludoteca.games import available, load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("games", nargs="*")
    args = parser.parse_args()
    rows = []
    for game_id in args.games or available():
        game = load(game_id)
        for players in range(game.min_seats, game.max_seats + 1):
            rows.append(measure(game, players, args.seconds))
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
