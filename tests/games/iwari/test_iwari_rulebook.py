"""The rules page and the tests agree: every numbered rule IW-n has a test named test_iw_n_..."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
DOC = HERE.parents[2] / "docs" / "rules" / "iwari.md"


def test_every_numbered_rule_has_a_test_and_the_credits_are_there() -> None:
    text = DOC.read_text(encoding="utf-8")
    numbered = {int(n) for n in re.findall(r"\*\*IW-(\d+) ", text)}
    assert numbered == set(range(1, max(numbered) + 1))  # IW-1 .. IW-n without gaps
    tested = set()
    for path in HERE.glob("test_*.py"):
        tested |= {int(n) for n in re.findall(r"^def test_iw_(\d+)_", path.read_text(encoding="utf-8"), re.M)}
    assert numbered - tested == set(), f"rules without a test: {sorted(numbered - tested)}"
    assert tested <= numbered
    assert "Michael Schacht" in text and "ThunderGryph Games" in text and "2020" in text
    assert "## Decisions" in text


def test_every_prompt_and_event_key_is_translated() -> None:
    import json

    from ludoteca.games.iwari import rules

    package = HERE.parents[2] / "src" / "ludoteca" / "games" / "iwari"
    source = "".join(path.read_text(encoding="utf-8") for path in package.glob("*.py"))
    keys = set(re.findall(r'Event\("([a-z_.]+)"', source)) | set(rules.PROMPTS.values())
    assert {"iwari.feat", "iwari.expedition", "iwari.half_journey"} <= keys
    assert len(keys) > 15
    i18n = package / "i18n"
    tables = {lang: json.loads((i18n / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "ja", "vi")}
    for lang, table in tables.items():
        assert keys <= set(table), f"{lang} lacks {sorted(keys - set(table))}"
        assert set(table) == set(tables["en"])
