"""Blood Rage random-playout speed at 2, 3 and 4 seats, and where the time goes.

    .venv/bin/python bench/bloodrage_speed.py [--seconds 3]

Prints games per second (one core), decisions per game, clone time, and the share of
time spent in pending / legal / perform during the playouts. Asserts nothing.
"""

from __future__ import annotations

import argparse
import time

from ludoteca.engine import Rng
from ludoteca.games.bloodrage import BloodRageGame
from ludoteca.playouts import measure


def breakdown(game: BloodRageGame, seats: int, games: int) -> dict[str, float]:
    rng = Rng(7)
    spent = {"pending": 0.0, "legal": 0.0, "perform": 0.0}
    clock = time.perf_counter
    for seed in range(games):
        state = game.setup(seats, None, seed)
        while game.result(state) is None:
            t0 = clock()
            seat = game.pending(state)[0].seat
            t1 = clock()
            legal = game.legal(state, seat)
            t2 = clock()
            game.perform(state, seat, rng.choice(legal))
            t3 = clock()
            spent["pending"] += t1 - t0
            spent["legal"] += t2 - t1
            spent["perform"] += t3 - t2
    total = sum(spent.values())
    return {k: round(100 * v / total, 1) for k, v in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    game = BloodRageGame()
    for seats in (2, 3, 4):
        m = measure(game, seats, args.seconds)
        share = breakdown(game, seats, 20)
        print(f"{seats} seats: {m['games_per_second']:.1f} games/s, {m['decisions_per_game']:.0f} decisions/game, "
              f"{m['decisions_per_second']:.0f} decisions/s, clone {m['clone_microseconds']:.1f} us "
              f"(deepcopy {m['deepcopy_microseconds']:.0f} us); time: {share}")


if __name__ == "__main__":
    main()
