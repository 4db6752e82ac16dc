"""Crusaders: Thy Will Be Done (Seth Jaffee, Tasty Minstrel Games, 2018). Game id
``crusaders``; the Game is in game.py."""

from .game import CrusadersGame

__all__ = ["CrusadersGame"]
