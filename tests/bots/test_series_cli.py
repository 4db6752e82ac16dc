"""The ``series`` command (and ``tournament``, its former name), and the levels through ``simulate``."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from ludoteca.cli import app

runner = CliRunner()


def _series(*args: str) -> dict:
    out = runner.invoke(app, ["series", "sealedbids", *args, "--json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


def test_series_json_rotates_seats_and_is_reproducible() -> None:
    args = ("--players", "3", "--bots", "ismcts-200,random", "--games", "6", "--seed", "4", "--iterations", "30")
    first, second = _series(*args), _series(*args)
    assert first["games"] == 6 and first["baseline"] == 1 / 3
    assert [e["bot"] for e in first["entries"]] == ["ismcts-200", "random", "random"]
    for entry in first["entries"]:
        assert entry["games"] == 6
        low, high = entry["win_share_95"]
        assert 0 <= low <= entry["win_share"] <= high <= 1
    # Every game has a winner share to give out, and all of it is given.
    assert sum(e["wins"] for e in first["entries"]) == 6
    assert first["entries"][0]["iterations_per_second"] > 0 and first["entries"][1]["iterations_per_second"] is None

    def stable(result: dict) -> list:
        return [(e["wins"], e["mean_score"], e["decisions"]) for e in result["entries"]]

    assert stable(first) == stable(second)


def test_series_table_and_errors() -> None:
    out = runner.invoke(app, ["series", "sealedbids", "-p", "2", "--bots", "easy,random", "-n", "2"])
    assert out.exit_code == 0, out.output
    assert "easy" in out.stdout and "baseline 1/N = 50.0%" in out.stdout
    for bad, message in [
        (["--bots", "random,random,random"], "3 bots for 2 players"),
        (["--bots", "genius"], "unknown bot"),
        (["--players", "9"], "for 2 to 4 players"),
        (["--option", "speed=2"], "unknown option"),
    ]:
        out = runner.invoke(app, ["series", "sealedbids", *bad])
        assert out.exit_code == 2 and message in out.output, out.output
    out = runner.invoke(app, ["series", "nosuchgame"])
    assert out.exit_code == 2


def test_tournament_is_a_hidden_alias_of_series_with_a_note() -> None:
    args = ["sealedbids", "-p", "2", "--bots", "ismcts-200,random", "-n", "4", "--seed", "3", "--iterations", "30",
            "--json"]
    old, new = runner.invoke(app, ["tournament", *args]), runner.invoke(app, ["series", *args])
    assert old.exit_code == 0, old.output
    assert old.stderr.strip() == "note: `ludoteca tournament` is now `ludoteca series`; running it."
    assert "note:" not in new.output

    def stable(result: dict) -> list:
        return [(e["bot"], e["wins"], e["mean_score"], e["decisions"]) for e in result["entries"]]

    assert stable(json.loads(old.stdout)) == stable(json.loads(new.stdout))
    listed = runner.invoke(app, ["--help"]).stdout
    assert "series" in listed and "tournament" not in listed


def test_simulate_accepts_levels() -> None:
    # One game of three decisions each: "hard" thinks 1 s per decision, so this takes seconds.
    out = runner.invoke(app, ["simulate", "sealedbids", "-p", "3", "-n", "1", "--bots", "hard,normal,easy", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["bots"] == ["hard", "normal", "easy"]
