"""Blood Rage (Eric M. Lang, CMON, 2015): Viking clans draft the gods' gifts, invade,
pillage and die gloriously before Ragnarok. Game id ``bloodrage``; the Game is in game.py."""

from .game import BloodRageGame

__all__ = ["BloodRageGame"]
