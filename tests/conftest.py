"""Shared test set-up: the test-only game is registered for every test session."""

from ludoteca.games import register
from tests.engine.sealed_bids import SealedBids

register(SealedBids())
