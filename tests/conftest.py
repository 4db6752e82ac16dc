"""Shared test set-up: the test-only game is registered for every test session.

Sealed Bids is packaged like a game from elsewhere (tests/toygame, its own distribution):
its folder goes on the path of this process and, through PYTHONPATH, of every process
the tests start (servers, bot processes), which register it themselves."""

import os
import sys

from ludoteca.games import available, register
from tests.toyinstall import TOYGAME

if str(TOYGAME) not in sys.path:
    sys.path.insert(0, str(TOYGAME))
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(TOYGAME), os.environ.get("PYTHONPATH")) if p)

from sealedbids import SealedBids  # importable once its folder is on the path

if "sealedbids" not in available():  # else installed: its entry point is seen (tests/games/test_toygame.py)
    register(SealedBids())


def pytest_collection_modifyitems(items: list) -> None:
    """The slowest tests (marked ``slow``: whole games played in the browser, the API fuzzers)
    go first. pytest-xdist hands tests out in this order, so the long ones start while the
    many short ones still fill the gaps, instead of one worker running a minute-long game
    alone at the end. The order is the same in every worker (a stable sort), as xdist needs."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
