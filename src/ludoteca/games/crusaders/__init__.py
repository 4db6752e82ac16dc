"""Crusaders: Thy Will Be Done (Seth Jaffee, Tasty Minstrel Games, 2018)."""

from .rules import CrusadersGame

__all__ = ["CrusadersGame"]
