"""``ludoteca play`` says its prompts and log lines through the games' string tables (the
browser's), in the terminal locale's language or the one --lang names."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ludoteca.cli import app
from ludoteca.i18n import Strings, locale_language

runner = CliRunner()
IWARI = Path(__file__).resolve().parents[2] / "src" / "ludoteca" / "games" / "iwari" / "i18n"
NO_LOCALE = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": None}


def iwari(lang: str) -> dict[str, str]:
    return json.loads((IWARI / f"{lang}.json").read_text(encoding="utf-8"))


def play(*extra: str, env: dict[str, str | None] | None = None) -> str:
    out = runner.invoke(app, ["play", "iwari", "--players", "2", "--seed", "4", *extra],
                        input="1\n" * 12 + "q\n", env={**NO_LOCALE, **(env or {})})
    assert out.exit_code == 0, out.output
    return out.output


@pytest.mark.parametrize("lang", ["ja", "vi"])
def test_prompts_and_log_lines_are_in_the_chosen_language(lang: str) -> None:
    text = play("--lang", lang)
    strings = iwari(lang)
    assert strings["iwari.prompt.start"] in text
    # Keys never show, nor their JSON arguments; the log lines are the game's own.
    assert not re.search(r"\biwari\.[a-z_]+\.?[a-z_]*", text), text
    assert '{"seat"' not in text and '"tribe":' not in text
    log = [line.strip() for line in text.splitlines() if re.match(r"^\s+\d+ \S", line)]
    assert log, text
    filled = [re.compile(".+".join(re.escape(p) for p in re.split(r"\{\w+\}", v)))
              for k, v in strings.items() if isinstance(v, str) and ".prompt." not in k and not k.startswith("_")]
    for line in log:
        said = line.split(" ", 1)[1]
        assert any(p.fullmatch(said) for p in filled), said
    # The moves the game's strings can say are said in the language too.
    territory = max(re.split(r"\{\w+\}", strings["iwari.move.territory"]), key=len).strip()
    assert territory and territory in text


def test_the_final_scores_are_in_the_chosen_language_too() -> None:
    out = runner.invoke(app, ["play", "sealedbids", "--players", "2", "--seed", "3", "--option", "rounds=2",
                              "--lang", "vi"], input="1\n" * 20, env=NO_LOCALE)
    assert out.exit_code == 0, out.output
    frame = json.loads((IWARI.parents[2] / "web" / "i18n" / "vi.json").read_text(encoding="utf-8"))
    for key in ("title", "player", "score", "rank"):
        assert frame["score"][key] in out.output, key
    assert frame["create"]["you"] in out.output


def test_the_terminal_locale_chooses_the_language_and_english_is_the_default() -> None:
    assert iwari("vi")["iwari.prompt.start"] in play(env={"LANG": "vi_VN.UTF-8"})
    assert iwari("ja")["iwari.prompt.start"] in play(env={"LC_ALL": "ja_JP.UTF-8", "LANG": "en_US.UTF-8"})
    assert iwari("en")["iwari.prompt.start"] in play(env={"LANG": "de_DE.UTF-8"})
    assert iwari("en")["iwari.prompt.start"] in play()
    # --lang wins over the locale.
    assert iwari("ja")["iwari.prompt.start"] in play("--lang", "ja", env={"LANG": "vi_VN.UTF-8"})


def test_an_unknown_language_is_refused_clearly() -> None:
    out = runner.invoke(app, ["play", "iwari", "--lang", "fr"], env=NO_LOCALE)
    assert out.exit_code == 2
    assert "--lang takes one of en, ja, vi, not 'fr'" in out.output


@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "ja_JP.UTF-8"}, "ja"), ({"LC_MESSAGES": "vi_VN"}, "vi"), ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_ALL": "POSIX", "LANG": "ja_JP.UTF-8"}, "en"), ({}, "en"), ({"LANG": "ja"}, "ja")])
def test_locale_language(env: dict[str, str], lang: str) -> None:
    assert locale_language(env) == lang


def test_names_follow_the_games_rules_as_in_the_browser() -> None:
    ja = Strings("ludoteca.games.iwari", "ja")
    strings = iwari("ja")
    # A tribe number reads as its seat, the third tribe by its name; a territory id by its biome.
    line = ja.line("iwari.placed_tent", {"tribe": 2, "territory": "forest-1", "space": 1, "paid": ["forest"]}, 2, you=0)
    assert strings["iwari.tribe.2"] in line and strings["iwari.biome.forest"] in line and "forest-1" not in line
    assert ja.line("iwari.passed", {"seat": 1}, 2, you=0).startswith("席2")
    # A missing key reads as words, never as the key itself.
    assert ja.t("iwari.no_such_line", {"n": 3}) == "no such line (n: 3)"
    with pytest.raises(ValueError, match="no language 'xx'"):
        Strings("ludoteca.games.iwari", "xx")
