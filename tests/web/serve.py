"""Runs the real server for the browser tests, in its own process, with the test-only
game registered (the registry is per process, so the server process must do it itself).

    python -m tests.web.serve PORT      (settings from LUDOTECA_* environment variables)
"""

from __future__ import annotations

import sys

import uvicorn

from ludoteca.games import register
from ludoteca.server.app import create_app
from tests.engine.sealed_bids import SealedBids


def main() -> None:
    register(SealedBids())
    port = int(sys.argv[1])
    uvicorn.run(create_app(), host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1)


if __name__ == "__main__":
    main()
