"""A fixed random playout, for instruction counts that do not depend on the machine's load.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python bench/fixed_playout.py GAME SEATS GAMES

Plays GAMES games from seeds 0..GAMES-1 with the moves drawn by Rng(1); run it with 0
games as well and subtract, to leave out start-up (imports, data files). Compare two trees
with ``PYTHONPATH=<tree>/src``.
"""

from __future__ import annotations

import sys

from ludoteca.engine import Rng
from ludoteca.games import load


def main() -> None:
    game = load(sys.argv[1])
    seats, games = int(sys.argv[2]), int(sys.argv[3])
    rng = Rng(1)
    for seed in range(games):
        state = game.setup(seats, None, seed)
        while game.result(state) is None:
            seat = game.pending(state)[0].seat
            game.perform(state, seat, rng.choice(game.legal(state, seat)))


if __name__ == "__main__":
    main()
