"""Hadrian's Wall's options: its variants, declared the engine's way
(``ludoteca.engine.Option``), which the game class offers as ``options``."""

from __future__ import annotations

from ludoteca.engine import Option

from .components import DIFFICULTIES

OPTIONS: tuple[Option, ...] = (
    Option("difficulty", "choice", "normal", "How many Pict cards attack each year (HW-40).", choices=DIFFICULTIES),
    Option("resource_passing", "bool", True,
           "A neighbour whose card you use receives your resource or soldier; off: you add a Pict card to "
           "your own attack instead (HW-55).", seats=(2, 3, 4, 5, 6)),
)
