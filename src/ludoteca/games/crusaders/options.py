"""Crusaders' options: its variants, declared the engine's way (``ludoteca.engine.Option``),
which the game class offers as ``options`` (CR-12, CR-41, CR-42)."""

from __future__ import annotations

from ludoteca.engine import Option

WHEELS = ("shared", "individual", "first_game", "learning", "tournament")

OPTIONS: tuple[Option, ...] = (
    Option("knight_orders", "bool", True, "Each player draws two knight orders and keeps one."),
    Option("wheel", "choice", "shared", "Wheel arrangement: one random arrangement copied by all (shared), "
           "each player's own random arrangement (individual), the first-game arrangement (first_game), the "
           "learning game (learning: the first-game arrangement with both Move wedges upgraded, and no "
           "upgrading), or the Knight's Tournament (tournament: each player arranges its own wheel and, with "
           "knight orders, picks any order).", choices=WHEELS),
)
