"""Blood Rage's options: its variants, declared the engine's way (``ludoteca.engine.Option``),
which the game class offers as ``options``; opening.py plays them out (BR-11, BR-104,
BR-105)."""

from __future__ import annotations

from ludoteca.engine import Option

CLAN_MODES = ("choose", "random")
FIRST_PLAYER = ("random", "1", "2", "3", "4")

OPTIONS: tuple[Option, ...] = (
    Option("clans", "choice", "choose", "How the clans are shared out: each player in turn chooses one, starting "
           "with the first player (choose), or they are dealt at random (random).", choices=CLAN_MODES),
    Option("first_player", "choice", "random", "Who holds the first-player token in the first age: drawn at "
           "random, or the seat named (1 is the first seat).", choices=FIRST_PLAYER, seat_numbers=True),
)
