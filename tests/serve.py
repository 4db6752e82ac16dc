"""Runs the real server in its own process for the tests that need one, with test-only
games registered (the registry is per process, so the server process must do it itself).

    python -m tests.serve PORT [MODULE:NAME ...]     (settings from LUDOTECA_* variables)

Each MODULE:NAME is a game object, or a game class to instantiate, to register.
"""

from __future__ import annotations

import importlib
import sys

import uvicorn

from ludoteca.games import register
from ludoteca.server.app import create_app
from ludoteca.server.http.edge import launch_options
from ludoteca.server.kernel.config import Settings


def main() -> None:
    port, *games = sys.argv[1:]
    for spec in games:
        module, _, name = spec.partition(":")
        game = getattr(importlib.import_module(module), name)
        register(game() if isinstance(game, type) else game)
    uvicorn.run(create_app(), host="127.0.0.1", port=int(port), log_level="warning", timeout_graceful_shutdown=1,
                **launch_options(Settings.from_env()))


if __name__ == "__main__":
    main()
