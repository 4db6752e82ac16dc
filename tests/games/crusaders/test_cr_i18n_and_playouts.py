"""Every prompt and event key the game emits has a text in English, Japanese and Vietnamese;
whole games end at every seat count (a quick check beside the conformance suite)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ludoteca.games.crusaders as package
from ludoteca.engine import Rng

from .helpers import GAME, C


def _texts() -> dict[str, dict[str, str]]:
    root = Path(package.__file__).parent / "i18n"
    return {lang: json.loads((root / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "ja", "vi")}


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_keys_have_texts_and_games_end(seats: int) -> None:
    texts = _texts()
    assert set(texts["en"]) == set(texts["ja"]) == set(texts["vi"])
    rng = Rng(seats)
    state = GAME.setup(seats, {"knight_orders": True, "wheel": "individual"}, seats)
    seen: set[str] = set()
    moves = 0
    while GAME.result(state) is None:
        decision = GAME.pending(state)[0]
        seen.add(decision.prompt.key)
        for event in GAME.perform(state, decision.seat, rng.choice(GAME.legal(state, decision.seat))):
            seen.add(event.key)
            if "why" in event.args:
                seen.add(f"cr.why.{event.args['why']}")
            if "action" in event.args:
                seen.add(f"cr.action.{event.args['action']}")
        moves += 1
    assert moves <= GAME.max_moves
    missing = sorted(k for k in seen if k not in texts["en"])
    assert not missing, missing
    for order in C.orders:
        assert f"cr.order.{order.id}" in texts["en"] and f"cr.order.{order.id}.text" in texts["en"]
    for option in GAME.options:
        assert f"cr.option.{option.name}" in texts["en"]
