"""Fixtures for the tournament tests: the server tests' fixtures, and Quick Pick (a
2-6 seat game of one move a seat) registered in this process."""

from __future__ import annotations

from ludoteca.games import register
from tests.server.conftest import client, pg_url, redis_url, sqlite_url  # noqa: F401
from tests.tournaments.quick import GAME

register(GAME)
