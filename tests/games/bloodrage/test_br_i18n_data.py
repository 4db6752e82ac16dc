"""Every prompt and event key has a text in en, ja and vi; every card has a title and a text;
every data file says where its facts come from."""

from __future__ import annotations

import json
import string
from pathlib import Path

from ludoteca.engine import Rng
from ludoteca.games.bloodrage.components import CARD_NAMES

from .br_helpers import GAME

PACKAGE = Path(__file__).resolve().parents[3] / "src" / "ludoteca" / "games" / "bloodrage"


def _texts() -> dict[str, dict[str, str]]:
    return {lang: json.loads((PACKAGE / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
            for lang in ("en", "ja", "vi")}


def test_i18n_covers_prompts_events_and_cards() -> None:
    texts = _texts()
    assert set(texts["en"]) == set(texts["ja"]) == set(texts["vi"])
    seen: dict[str, set[str]] = {}
    for seed in range(12):
        s = GAME.setup(2 + seed % 3, None, seed)
        rng = Rng(seed)
        while GAME.result(s) is None:
            decision = GAME.pending(s)[0]
            seen.setdefault(decision.prompt.key, set()).update(decision.prompt.args)
            for e in GAME.perform(s, decision.seat, rng.choice(GAME.legal(s, decision.seat))):
                seen.setdefault(e.key, set()).update(e.args)
    for key, args in seen.items():
        for lang, table in texts.items():
            assert key in table, (lang, key)
            fields = {f for _, f, _, _ in string.Formatter().parse(table[key]) if f}
            assert fields <= args, (lang, key, fields - args)
    for name in CARD_NAMES:
        for table in texts.values():
            assert table[f"card.{name}.title"] and table[f"card.{name}.text"]


def test_data_files_have_provenance() -> None:
    for path in (PACKAGE / "data").glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert len(data["_provenance"]) > 80, path.name


def test_rollout_policy_plays_legal_moves_to_the_end() -> None:
    from ludoteca.games.bloodrage.ai import rollout_policy
    for seats in (2, 4):
        s = GAME.setup(seats, None, seats)
        rng = Rng(1)
        while GAME.result(s) is None:
            seat = GAME.pending(s)[0].seat
            legal = GAME.legal(s, seat)
            move = rollout_policy(GAME, s, seat, legal, rng)
            assert move in legal
            GAME.perform(s, seat, move)
