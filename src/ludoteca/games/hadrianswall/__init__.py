"""Hadrian's Wall (Bobby Hill with Shem Phillips, Garphill Games, 2021): two sheets,
six years, everyone at once, and the Picts each winter."""

from .rules import HadriansWallGame

__all__ = ["HadriansWallGame"]
