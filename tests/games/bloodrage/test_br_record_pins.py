"""Seeded random-bot games of Blood Rage replay move for move: the digests were taken
before any of the engine's speed work and must not change (see tests/engine/record_pins.py)."""

from __future__ import annotations

import pytest
from tests.engine.record_pins import record_digest

from ludoteca.games import load

PINS = [
    (2, None, 1, "a50e66ee895ba6373c6ebc78e45d3a535c6f2804b90e6fe1982376855dac51fe"),
    (2, None, 11, "b7b665c43bbe3883a4fbf003e08aabf205117d26a666bc09e962a07399ee89ef"),
    (2, {"clans": "random"}, 21, "951fac55cb2522a5e334053e2ea66b9b3494d8ee622d4b8b31981ce7fa752657"),
    (3, None, 2, "be38455f6e996bfa619bb3a2adac4e8dbc694dbcea867ad09f23b5a78d18fa94"),
    (3, None, 12, "83da41fdd8eba32da2ecd3c7ea9b3c6615d53dd76e3b51673d5c5216a1970b92"),
    (3, {"first_player": "3"}, 22, "c9470f73d2e255f5bcfd57d0bd7cd33e1b33327801d11fd5c089dbf0e7b524b6"),
    (4, None, 3, "03ab826f210a01c0962a9cd05cfc9eca9577b1dc230e41ff7d55d1a8305f2d1d"),
    (4, None, 13, "d7b1c92cea127d9bb2bb05601c58b7a0884378764eff60eb66ee855dd86971c5"),
    (4, None, 23, "6bc712c57d59ec58e8bbd7262f90cd4dff4f74e974b625df02e26a4241e79de5"),
    (4, {"clans": "random", "first_player": "2"}, 4,
     "1543c071ebdf90dcd30a179f0e68049c290a862e80b2b6833dbb88192ac75d68"),
]


@pytest.mark.parametrize(("seats", "options", "seed", "digest"), PINS)
def test_seeded_random_game_is_pinned(seats: int, options: dict[str, object] | None, seed: int, digest: str) -> None:
    assert record_digest(load("bloodrage"), seats, options, seed) == digest
