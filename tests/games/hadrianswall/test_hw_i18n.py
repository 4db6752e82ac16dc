"""Every prompt and event key the game emits is translated in en, ja and vi."""

from __future__ import annotations

import json
from pathlib import Path

from ludoteca.bots import RandomBot
from ludoteca.bots.playout import play_match

from .hw_helpers import G

I18N = Path(__file__).parents[3] / "src" / "ludoteca" / "games" / "hadrianswall" / "i18n"


def test_hw_i18n_keys_cover_prompts_and_events() -> None:
    tables = {lang: json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "ja", "vi")}
    assert set(tables["en"]) == set(tables["ja"]) == set(tables["vi"])
    keys = {f"hw.prompt.{k}" for k in ("choose", "act", "cohort", "attribute", "forum", "diplomat", "trade", "scout",
                                        "place", "fight", "favour")}
    for seats in (1, 3):
        match = play_match(G, seats, None, 5, [RandomBot()] * seats)
        keys |= {event.key for _, event in match.events}
    missing = {lang: sorted(keys - set(table)) for lang, table in tables.items()}
    assert missing == {"en": [], "ja": [], "vi": []}
