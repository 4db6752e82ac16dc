"""Benchmark: pairing a Swiss round of 1,000 players at 4-seat tables (and at 2 seats,
the matching), from standings after three rounds. Prints CPU seconds and, to read the
figure on any machine, its ratio to computing the standings of the same round measured
in the same run.

    .venv/bin/python bench/tournament_pairing.py [--players 1000] [--seats 4]
"""

from __future__ import annotations

import argparse
import random
import time

from ludoteca.tournaments.core import Played, Player, meetings, points_for_ranks, standings
from ludoteca.tournaments.swiss import pair_swiss


def history(players: list[Player], seats: int, rounds: int, seed: int) -> list[Played]:
    rng = random.Random(seed)
    games: list[Played] = []
    for r in range(1, rounds + 1):
        order = standings(players, games, seed=seed)
        pairing = pair_swiss(order, seats, seats - 1, r, seed, meetings(games))
        for table in pairing.tables:
            ranks = list(range(1, len(table) + 1))
            rng.shuffle(ranks)
            games.append(Played(r, table, tuple(ranks), tuple(points_for_ranks(ranks))))
    return games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    rng = random.Random(1)
    players = [Player(i, rng.uniform(0, 40)) for i in range(1, args.players + 1)]
    for seats in (args.seats, 2):
        games = history(players, seats, 3, 7)
        t0 = time.process_time()
        order = standings(players, games, seed=7)
        met = meetings(games)
        t1 = time.process_time()
        pairing = pair_swiss(order, seats, seats - 1, 4, 7, met)
        t2 = time.process_time()
        repeats = sum(1 for t in pairing.tables for i, a in enumerate(t) for b in t[i + 1:]
                      if met.get((min(a, b), max(a, b)), 0))
        print(f"{args.players} players, {seats} seats: pairing {t2 - t1:.3f} s CPU "
              f"({(t2 - t1) / max(t1 - t0, 1e-9):.1f}x the standings' {t1 - t0:.3f} s), "
              f"{len(pairing.tables)} tables, {len(pairing.byes)} byes, {repeats} repeated pairs")


if __name__ == "__main__":
    main()
