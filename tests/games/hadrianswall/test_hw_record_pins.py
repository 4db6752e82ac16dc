"""Seeded random-bot games of Hadrian's Wall replay move for move: the digests were taken
before any of the engine's speed work and must not change (see tests/engine/record_pins.py)."""

from __future__ import annotations

import pytest
from tests.engine.record_pins import record_digest

from ludoteca.games import load

PINS = [
    (1, None, 1, "1abf6c0ef0ca336e1b6b7089e84f8df4eb53ca558aa9e6ead3be26800b712f04"),
    (1, {"difficulty": "hard"}, 11, "c78fa4b52ce99e45c876a6a65e15d5fffee4024b5439e881628b597d8a0f76ed"),
    (2, None, 2, "58873362e4d201ed2b11b1e3e642e12ad93d933fff4ad6b6474be36c79d4a12e"),
    (2, {"resource_passing": False}, 12, "5676708c4fd289bb842a333464429eb3f3b8956e741fc1d40e9e93429db6f148"),
    (3, None, 3, "c7b8630cafd9a2433d3b30c05e98f32b791b36d5f78e297117a7bb8f2b341d4f"),
    (3, {"difficulty": "easy"}, 13, "61d33bde8f7df5adcb1acbb4944109bd8023b083bcdf7fb630761c219a796d1e"),
    (4, None, 4, "4fde31ed83f3d122aa1d31532549963c1c1fbc32a6ef330bacf9f25b3fa72095"),
    (6, {"resource_passing": False, "difficulty": "hard"}, 6,
     "0b3e0460f4517c2d356a6876c9f498f06fd87dedf83c654bf36cb287ccb83080"),
]


@pytest.mark.parametrize(("seats", "options", "seed", "digest"), PINS)
def test_seeded_random_game_is_pinned(seats: int, options: dict[str, object] | None, seed: int, digest: str) -> None:
    assert record_digest(load("hadrianswall"), seats, options, seed) == digest
