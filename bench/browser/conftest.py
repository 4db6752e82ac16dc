"""Benchmarks that drive Chromium against a real server, run with pytest (they are not in
`make test`: `testpaths` is tests/). They use the browser tests' fixtures:

    .venv/bin/pytest bench/browser -s -p no:randomly
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, for tests.web

import tests.conftest  # noqa: F401  (puts the test game, Sealed Bids, on the path of the servers it starts)
from tests.web.conftest import browser, new_page, server  # noqa: F401  (fixtures)
