"""``ludoteca review RECORD --seat N``: reviews a saved record, as JSON or as a table in
the terminal's language; refuses what it cannot review."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ludoteca.bots import RandomBot
from ludoteca.bots.playout import play_match
from ludoteca.cli import app
from ludoteca.engine import MatchRecord
from ludoteca.games import load

runner = CliRunner()
NO_LOCALE = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": None}
FRAME = Path(__file__).resolve().parents[2] / "src" / "ludoteca" / "web" / "i18n"


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    match = play_match(load("iwari"), 2, None, 5, [RandomBot(), RandomBot()])
    path = tmp_path_factory.mktemp("records") / "iwari.json"
    path.write_text(match.record(["ana", "bo"]).dumps())
    return path


def test_reviews_a_saved_record_as_json(saved: Path) -> None:
    out = runner.invoke(app, ["review", str(saved), "--seat", "1", "--budget", "3,2", "--seed", "2", "--json"],
                        env=NO_LOCALE)
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["game"] == "iwari" and data["seat"] == 1 and data["budget"] == {"search": 3, "evaluate": 2}
    assert data["summary"]["decisions"] == len(data["decisions"]) > 10
    assert all(d["seat"] == 1 and d["label"] in ("good", "inaccuracy", "mistake", "blunder")
               for d in data["decisions"])
    again = runner.invoke(app, ["review", str(saved), "--seat", "1", "--budget", "3,2", "--seed", "2", "--json"],
                          env=NO_LOCALE)
    assert json.loads(again.stdout) == data


@pytest.mark.parametrize("lang", ["en", "ja", "vi"])
def test_the_table_and_summary_are_in_the_chosen_language(saved: Path, lang: str) -> None:
    out = runner.invoke(app, ["review", str(saved), "--seat", "0", "--budget", "2,1", "--lang", lang], env=NO_LOCALE)
    assert out.exit_code == 0, out.output
    strings = json.loads((FRAME / f"{lang}.json").read_text(encoding="utf-8"))["review"]
    assert strings["title"] in out.output
    head = strings["summary"].split("{")[0] or strings["summary"].split("}")[1].split("{")[0]
    assert head.strip() in out.output


def test_refuses_what_it_cannot_review(saved: Path, tmp_path: Path) -> None:
    record = MatchRecord.loads(saved.read_text())
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(MatchRecord(record.game, record.seats, record.options, record.seed,
                                      record.moves[:20]).dumps())
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "ludoteca.record/1", "game": "iwari"}')
    cases = [
        (["review", str(unfinished), "--seat", "0"], "not over"),
        (["review", str(broken), "--seat", "0"], "malformed"),
        (["review", str(saved), "--seat", "2"], "--seat"),
        (["review", str(saved), "--seat", "0", "--budget", "1e9"], "--budget"),
    ]
    for args, said in cases:
        out = runner.invoke(app, args, env=NO_LOCALE)
        assert out.exit_code == 2, (args, out.output)
        assert said in out.output, (args, out.output)
