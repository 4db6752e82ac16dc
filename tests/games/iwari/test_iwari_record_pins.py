"""Seeded random-bot games of Iwari replay move for move: the digests were taken
before any of the engine's speed work and must not change (see tests/engine/record_pins.py)."""

from __future__ import annotations

import pytest
from tests.engine.record_pins import record_digest

from ludoteca.games import load

PINS = [
    (2, None, 1, "c17c79e3de554fa7449dbcc7208da02cbd8059f9dad8b2ed8a75d375e9ba39d7"),
    (2, {"map": "floating-lands"}, 11, "4c01ad96117c5e51abf1e1324beff6dc508bf23e2ddb29546bcbb9eaebdb152f"),
    (3, None, 2, "2b3c3e2200e8451e7993a925c9dbbb2a7641c522d10f26083632ce8f036bbb25"),
    (3, {"feats": True, "expeditions": True}, 12, "d97b78bbfc990bc06bff5ff7bb7a5d5fee48ab9fec4ba90ca37a764e55511a1d"),
    (3, {"map": "glacial-mass", "feats": True}, 22, "31d99a261d64bd2ea3fa6f65952ff53328b69e8e9307c75c27705b58664a6ddc"),
    (4, None, 3, "e3ba0dd4ee5fec026b289252948afa38ce40fb492b92cfbd884ab76827464df2"),
    (4, {"map": "long-road", "expeditions": True}, 13,
     "b704208ec4d985787b4ebbd654a0ee6a3fa53ac12d17a20af9d6cf2410dbd907"),
    (5, None, 5, "4219687b10ce875475fdae9f71991ae564417384f4835cc0b89bccea7f032717"),
    (5, {"feats": True, "expeditions": True, "map": "floating-lands"}, 15,
     "43899a6e544a5e1a2e31fe22792eb454da5dcdd7c863cf731ef983862bacc544"),
]


@pytest.mark.parametrize(("seats", "options", "seed", "digest"), PINS)
def test_seeded_random_game_is_pinned(seats: int, options: dict[str, object] | None, seed: int, digest: str) -> None:
    assert record_digest(load("iwari"), seats, options, seed) == digest
