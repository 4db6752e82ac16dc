"""Greedy bots only, one deal per seed: each seat's mean score. A bot that plays the same
at every seat shows no gradient beyond the deals' noise; prints figures, asserts nothing.

    .venv/bin/python bench/greedy_seats.py [GAME] [--players 3] [--deals 6] [--option KEY=JSON ...]

Measured with it (bench/results/bots-journal.md, the greedy bot): Hadrian's Wall at 3
seats, deals 0-5, before the greedy bot's fix of simultaneous rounds 38.3 / 43.3 / 49.3,
after it 45.8 / 57.3 / 50.7, with common random numbers 53.2 / 52.7 / 58.0.
"""

from __future__ import annotations

import argparse
import json
import statistics

from rich.console import Console
from rich.progress import track

from ludoteca.bots import GreedyBot
from ludoteca.bots.playout import play_match
from ludoteca.games import load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default="hadrianswall")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--deals", type=int, default=6, help="seeds 0..DEALS-1, greedy bots at every seat")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=JSON",
                        help='a game option, e.g. resource_passing=false')
    args = parser.parse_args()
    game = load(args.game)
    options = {key: json.loads(value) for key, value in (o.split("=", 1) for o in args.option)} or None
    scores: list[list[int]] = [[] for _ in range(args.players)]
    for seed in track(range(args.deals), description=f"{args.game}, {args.players} greedy bots"):
        match = play_match(game, args.players, options, seed, [GreedyBot() for _ in range(args.players)], None)
        outcome = match.result()
        assert outcome is not None
        for seat, score in enumerate(outcome.scores):
            scores[seat].append(score)
    Console().print(" / ".join(f"seat {seat}: {statistics.fmean(s):.1f}" for seat, s in enumerate(scores)),
                    f"({args.deals} deal{'s' if args.deals != 1 else ''})")


if __name__ == "__main__":
    main()
