"""Runs the server with the test game registered (the subprocess of the process tests)."""

import sys

import uvicorn

from ludoteca.games import register
from tests.server.drawbid import GAME

register(GAME)

if __name__ == "__main__":
    uvicorn.run("ludoteca.server.app:create_app", factory=True, host="127.0.0.1", port=int(sys.argv[1]),
                log_level="warning")
