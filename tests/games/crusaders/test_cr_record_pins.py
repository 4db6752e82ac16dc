"""Seeded random-bot games of Crusaders replay move for move: the digests were taken
before any of the engine's speed work and must not change (see tests/engine/record_pins.py)."""

from __future__ import annotations

import pytest
from tests.engine.record_pins import record_digest

from ludoteca.games import load

PINS = [
    (2, None, 1, "c06f93808d67c3f9be276d38940c9c58ede3ff7db75f58a639dc4f3b5f5a5e1e"),
    (2, None, 11, "bc33d28625575a60fa1f452983f403f57858e8c3b0016fcfbb99563449726dbc"),
    (2, {"wheel": "learning"}, 21, "4a3bcd3ee73ce79b03e0e42cef0441d079c94b5c67380b74c86618c0d7d0996c"),
    (2, {"wheel": "tournament", "knight_orders": False}, 41,
     "53306fae36bf09f30faf012a477748a303545fa50db1d3f092e20da9f4d4df72"),
    (3, None, 2, "927216b4bae8be160d7b1c0c3e52f2883e1b3539a1bb56ca87bd44aedc5952e1"),
    (3, {"wheel": "individual"}, 12, "80852282803ae0c353093385460bf3d7b67a396f32f240e168141617a48c14e0"),
    (3, {"knight_orders": False, "wheel": "first_game"}, 22,
     "e9bf52fd77fef89809ea60145475272177eb7fe8f029b0898fa5df5e3ddd1d57"),
    (3, {"wheel": "tournament"}, 32, "e1dc092d3c0e3e00f36717950c003c21360ea24f88ce9f953a5532ed6e470054"),
    (4, None, 3, "a0d200c7b4fdb7cd3a94093bcd770777d1e77bd7917fb7d4bd0dec804b3523eb"),
    (4, {"wheel": "individual"}, 13, "e789e7a2aaa40241efbc75c4ed8369236939d9dff53338bb35b01a1fb5a5ac7a"),
    (5, None, 5, "0a9f7f4adc7340a48cf4803f7235e60d0108a3ed571ce234a678782cd3bffab7"),
]


@pytest.mark.parametrize(("seats", "options", "seed", "digest"), PINS)
def test_seeded_random_game_is_pinned(seats: int, options: dict[str, object] | None, seed: int, digest: str) -> None:
    assert record_digest(load("crusaders"), seats, options, seed) == digest
