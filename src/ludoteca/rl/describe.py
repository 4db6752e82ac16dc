"""Print each game's action order, vocabulary sizes and observation layout as Markdown
(the reference part of docs/rl.md is this output):

    python -m ludoteca.rl.describe > /tmp/games.md
"""

from __future__ import annotations

from ludoteca.games import load

from .observation import encoder
from .vocab import data_fingerprint, game_module, games, vocabulary


def describe(game_id: str) -> str:
    game = load(game_id)
    seats = range(game.min_seats, game.max_seats + 1)
    order = (game_module(game_id).__doc__ or "").split("\n\n", 1)[1].strip()
    sizes = ", ".join(f"{n}: {len(vocabulary(game_id, n))}" for n in seats)
    obs = ", ".join(f"{n}: {encoder(game_id, n).size}" for n in seats)
    return "\n\n".join([
        f"### {game.name} (`{game_id}`)",
        order,
        f"Actions by seat count (default options): {sizes}. Observation sizes: {obs}. "
        f"Data version `{data_fingerprint(game_id)}`.",
        "Observation layout at 2 seats, default options:",
        encoder(game_id, 2).layout.markdown(),
    ]) + "\n"


def main() -> None:
    print("\n".join(describe(game_id) for game_id in games()))


if __name__ == "__main__":
    main()
