"""The client's own strings: the three languages have the same keys and placeholders,
and every key the code asks for exists (no browser needed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "ludoteca" / "web"
LANGS = ("en", "ja", "vi")


def flat(data: dict, prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in data.items():
        name = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            out.update(flat(value, name))
        else:
            out[name] = value
    return out


def strings(lang: str) -> dict[str, str]:
    return flat(json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("lang", LANGS[1:])
def test_every_language_has_every_key_with_the_same_placeholders(lang: str) -> None:
    english, other = strings("en"), strings(lang)
    assert sorted(other) == sorted(english)
    for key, text in english.items():
        assert set(re.findall(r"\{(\w+)\}", other[key])) == set(re.findall(r"\{(\w+)\}", text)), key
        assert other[key].strip(), key


def test_every_key_the_code_uses_exists() -> None:
    english = strings("en")
    code = "\n".join(path.read_text(encoding="utf-8") for path in (WEB / "js").rglob("*.js"))
    used = set(re.findall(r"""\bt\(\s*["']([a-z_]+\.[a-z_.-]+)["']""", code))
    # Keys built from a prefix and a value: every value the code can produce.
    for prefix, values in {"mode": ("realtime", "turn-based"), "link": ("connecting", "live", "reconnecting", "closed"),
                           "status": ("open", "playing", "over", "aborted", "suspended"),
                           "bots": ("random", "easy", "normal", "hard")}.items():
        used |= {f"{prefix}.{value}" for value in values}
    assert used, "the pattern found no key: it is out of date"
    missing = sorted(key for key in used if key not in english)
    assert not missing


GAMES = Path(__file__).resolve().parents[2] / "src" / "ludoteca" / "games"


@pytest.mark.parametrize("game", sorted(p.parent.parent.name for p in GAMES.glob("*/i18n/en.json")))
def test_each_games_name_rules_are_the_same_everywhere_and_point_at_its_keys(game: str) -> None:
    """The "_names" rules (games/README.md) are not translated, and each template
    names a family of keys the game's strings have."""
    tables = {lang: json.loads((GAMES / game / "i18n" / f"{lang}.json").read_text(encoding="utf-8")) for lang in LANGS}
    rules = tables["en"].get("_names", {})
    assert all(table.get("_names", {}) == rules for table in tables.values())
    for arg, rule in rules.items():
        for one in rule if isinstance(rule, list) else [rule]:
            for template in one.values() if isinstance(one, dict) else [one]:
                if template == "@seat":
                    continue  # not a key: a seat number reads as its player
                if template.startswith("@each:"):
                    # A list with an entry per owner: the owner is a seat, or an argument
                    # whose own rules name its numbers.
                    owner = template.removeprefix("@each:")
                    assert owner == "seat" or owner in rules, (arg, template)
                    continue
                prefix = template.split("{")[0]
                assert any(key.startswith(prefix) for key in tables["en"] if key != "_names"), (arg, template)
