"""Hadrian's Wall (Bobby Hill with Shem Phillips, Garphill Games, 2021): two sheets,
six years, everyone at once, and the Picts each winter.

The game class is in game.py; the entry point ``ludoteca.games`` names it here."""

from .game import HadriansWallGame

__all__ = ["HadriansWallGame"]
