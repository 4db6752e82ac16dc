"""Adapters for researchers: every game as a PettingZoo AEC environment and as an
OpenSpiel game (the optional extra ``ludoteca[rl]``: numpy, gymnasium, pettingzoo,
open-spiel).

- ``ludoteca.rl.vocab``: the fixed action vocabulary of a (game, seats, options), its
  move <-> index maps and the legal-move mask.
- ``ludoteca.rl.observation``: the flat float32 observation of a seat, built from
  ``view(state, seat)`` only, with a documented layout per game.
- ``ludoteca.rl.pettingzoo``: ``env(game, players, options=None, seed=None, render_mode=None)``.
- ``ludoteca.rl.openspiel``: importing it registers ``python_ludoteca_<id>`` with pyspiel.
- ``ludoteca.rl.bots``: OpenSpiel's IS-MCTS and MCTS as Ludoteca bots (``openspiel-ismcts``,
  ``openspiel-mcts``), for ``ludoteca series``.

Each game's own part, its action order and observation encoder, is ``research.py`` in
the game's package (ludoteca.games.package); ``vocab.games()`` lists the games that have
one, a game installed from elsewhere included.

docs/rl.md describes the interfaces and each game's layouts.
"""

from __future__ import annotations

from .observation import Encoder, Layout, encoder
from .vocab import Vocabulary, vocabulary

__all__ = ["Encoder", "Layout", "Vocabulary", "encoder", "vocabulary"]
