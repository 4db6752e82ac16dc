"""Sealed Bids, a tiny game that exercises every part of the engine contract, packaged
the way a game from outside Ludoteca is: one package with the fixed layout of a game
package (see ludoteca.games.package), registered through its entry point."""

from .game import SealedBids, SealedBidsState, value

__all__ = ["SealedBids", "SealedBidsState", "value"]
