"""The RL adapters need the rl extra (installed by `make test`); without it these tests skip."""

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
