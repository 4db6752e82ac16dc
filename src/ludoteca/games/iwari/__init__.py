"""Iwari by Michael Schacht (ThunderGryph Games, 2020): tents and totems across a map of biomes.

The game class is in game.py; the entry point ``ludoteca.games`` names it here."""

from .game import IwariGame

__all__ = ["IwariGame"]
