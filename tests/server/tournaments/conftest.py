"""Quick Pick (a 2-6 seat game of one move a seat) registered in this process for the
tournament tests; the server tests' fixtures come from tests/server/conftest.py."""

from __future__ import annotations

from ludoteca.games import register
from tests.server.tournaments.quick import GAME

register(GAME)
