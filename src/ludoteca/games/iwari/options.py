"""Iwari's options: its variants, declared the engine's way (``ludoteca.engine.Option``),
which the game class offers as ``options``. The map and the two modules (feats.py,
expeditions.py) are the published game's own variants."""

from __future__ import annotations

from ludoteca.engine import Option

from .components import MAP_IDS

OPTIONS: tuple[Option, ...] = (
    Option("map", "choice", "base", "the map: base, Floating Lands, Glacial Mass or The Long Road",
           choices=MAP_IDS),
    Option("feats", "bool", False, "feats: Union, Discovery, Honour and Respect raise scoring factors"),
    Option("expeditions", "bool", False, "expedition cards: missions that score for the first two to complete"),
)
