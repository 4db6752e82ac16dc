"""The ``ludoteca`` command, driven through Typer's runner on the test game."""

import json
import re

from typer.testing import CliRunner

from ludoteca.cli import app

runner = CliRunner()


def test_games_lists_every_registered_game_as_json() -> None:
    out = runner.invoke(app, ["games", "--json"])
    assert out.exit_code == 0
    games = {g["id"]: g for g in json.loads(out.stdout)}
    assert games["sealedbids"]["min_seats"] == 2
    assert {o["name"] for o in games["sealedbids"]["options"]} == {"rounds", "may_pass"}


def _simulate(*extra: str) -> list[dict]:
    out = runner.invoke(app, ["simulate", "sealedbids", "--players", "3", "--games", "5", "--seed", "7",
                              "--json", *extra])
    assert out.exit_code == 0, out.output
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_simulate_json_is_reproducible_but_for_the_seconds() -> None:
    first, second = _simulate(), _simulate()
    assert [g["seed"] for g in first] == [7, 8, 9, 10, 11]
    for a, b in zip(first, second, strict=True):
        a.pop("seconds"), b.pop("seconds")
        assert a == b
    assert all(len(g["scores"]) == 3 and min(g["ranks"]) == 1 for g in first)


def test_simulate_options_and_errors() -> None:
    games = _simulate("--option", "rounds=5")
    assert all(g["options"]["rounds"] == 5 for g in games)
    for bad, message in [
        (["--option", "rounds=9"], "between 1 and 5"),
        (["--option", "speed=2"], "unknown option"),
        (["--option", "rounds"], "KEY=VALUE"),
        (["--bots", "random,random"], "2 bots for 3 players"),
        (["--bots", "genius"], "unknown bot"),
    ]:
        out = runner.invoke(app, ["simulate", "sealedbids", "--players", "3", *bad])
        assert out.exit_code == 2 and message in out.output, out.output
    out = runner.invoke(app, ["simulate", "nosuchgame"])
    assert out.exit_code == 2 and "no game 'nosuchgame'" in out.output


def test_simulate_table_and_records_replay(tmp_path) -> None:
    out = runner.invoke(app, ["simulate", "sealedbids", "-p", "2", "-n", "3", "--records", str(tmp_path)])
    assert out.exit_code == 0 and "win share" in out.stdout
    files = sorted(tmp_path.iterdir())
    assert len(files) == 3
    out = runner.invoke(app, ["replay", str(files[0]), "--json"])
    assert out.exit_code == 0
    assert json.loads(out.stdout)["over"] is True
    files[0].write_text(files[0].read_text().replace('"seed": 0', '"seed": 1'))
    out = runner.invoke(app, ["replay", str(files[0])])
    # A different seed deals other prizes; either the replay fails loudly or it verifies a different game.
    assert out.exit_code in (0, 2)
    files[1].write_text("{not json")
    out = runner.invoke(app, ["replay", str(files[1])])
    assert out.exit_code == 2 and "record" in out.output


def test_bench_prints_figures() -> None:
    out = runner.invoke(app, ["bench", "sealedbids", "--players", "2", "--seconds", "0.3", "--json"])
    assert out.exit_code == 0
    figures = json.loads(out.stdout)
    assert figures["games"] > 0 and figures["clone_microseconds"] > 0
    assert figures["clone_speedup_over_deepcopy"] > 1


def test_play_in_the_terminal_answers_bad_input_and_finishes() -> None:
    # Seat 0 always plays its first listed move; garbage first, then good moves.
    answers = "abc\n99\n{\"type\": \"fly\"}\n" + "1\n" * 20
    out = runner.invoke(app, ["play", "sealedbids", "--players", "2", "--seed", "3", "--option", "rounds=2",
                              "--lang", "en"], input=answers)
    assert out.exit_code == 0, out.output
    assert "Not a move" in out.output
    assert "Refused (bad_move_type)" in out.output
    assert re.search(r"Final scores", out.output)
