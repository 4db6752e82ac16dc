"""The sequential test of ``ludoteca series --sprt``: its error rates hold on simulated
games, it stops the series once it decides, and bad settings are refused."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from ludoteca.bots.sprt import ACCEPT_H0, ACCEPT_H1, UNDECIDED, ScoreSprt, Sprt, deal_means, parse_hypotheses
from ludoteca.cli import app


def _decide(test: Sprt, share: float, players: int, rng: random.Random, cap: int = 3000) -> str:
    deals: list[float] = []
    while len(deals) < cap:
        deals.append(sum(rng.random() < share for _ in range(players)) / players)
        verdict = test.verdict(deals, players)
        if verdict != UNDECIDED:
            return verdict
    return UNDECIDED


@pytest.mark.parametrize(("players", "p0", "p1"), [(2, 0.55, 0.65), (4, 0.45, 0.55), (2, 0.9, 0.95)])
def test_error_rates_hold_on_simulated_deals(players: int, p0: float, p1: float) -> None:
    # alpha = beta = 0.05; 300 tests per truth: a true rate of 0.05 exceeds 0.09 by chance
    # about once in a thousand runs, and the seed is fixed anyway.
    test, rng, runs = Sprt(p0, p1), random.Random(7), 300
    false_h1 = sum(_decide(test, p0, players, rng) == ACCEPT_H1 for _ in range(runs)) / runs
    false_h0 = sum(_decide(test, p1, players, rng) == ACCEPT_H0 for _ in range(runs)) / runs
    assert false_h1 <= 0.09 and false_h0 <= 0.09


def test_clear_evidence_decides_and_mixed_evidence_waits() -> None:
    test = Sprt(0.4, 0.6)
    assert test.verdict([1.0] * 40, 2) == ACCEPT_H1
    assert test.verdict([0.0] * 40, 2) == ACCEPT_H0
    assert test.verdict([1.0, 0.0, 0.5, 0.5], 2) == UNDECIDED
    # One deal says nothing about the spread, so it never decides.
    assert test.verdict([1.0], 2) == UNDECIDED and test.llr([1.0]) == 0.0
    assert test.lower < 0 < test.upper


def test_deals_are_blocks_of_rotated_games() -> None:
    assert deal_means([1, 0, 1, 1, 0.5], 2) == [0.5, 1.0]
    assert deal_means([1, 0], 3) == []


@pytest.mark.parametrize(("settings", "message"), [
    ({"p0": 0.0, "p1": 0.5}, "p0 must lie strictly between 0 and 1"),
    ({"p0": 0.5, "p1": 0.5}, "must differ"),
    ({"p0": 0.4, "p1": 0.6, "alpha": 0.7}, "alpha must lie"),
])
def test_bad_settings_are_refused(settings: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Sprt(**settings)


def test_hypotheses_are_parsed_from_the_command_line_form() -> None:
    assert parse_hypotheses("0.55, 0.65") == (0.55, 0.65)
    for bad in ("0.5", "a,b", "0.1,0.2,0.3"):
        with pytest.raises(ValueError, match="--sprt takes P0,P1"):
            parse_hypotheses(bad)


runner = CliRunner()


def test_series_stops_when_the_test_decides() -> None:
    # Sealed Bids between a searching bot and a random one: the searcher wins nearly
    # every deal, so H1 (share 0.7) is accepted long before the 200-game cap.
    out = runner.invoke(app, ["series", "sealedbids", "-p", "2", "--bots", "ismcts-200,random", "-n", "200",
                              "--iterations", "60", "--sprt", "0.5,0.7", "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)
    sprt = result["sprt"]
    assert sprt["verdict"] == ACCEPT_H1 and sprt["llr"] >= sprt["bounds"][1]
    assert result["games"] < 200 and result["games"] % 2 == 0 and sprt["deals"] == result["games"] // 2
    table = runner.invoke(app, ["series", "sealedbids", "-p", "2", "--bots", "ismcts-200,random", "-n", "200",
                                "--iterations", "60", "--sprt", "0.5,0.7"])
    assert table.exit_code == 0 and "H1 accepted (share 0.7)" in table.stdout, table.stdout


def test_series_refuses_bad_sprt_settings() -> None:
    for bad, message in [(["--sprt", "0.5"], "--sprt takes P0,P1"), (["--sprt", "0.5,0.6", "--alpha", "0.9"],
                                                                       "alpha must lie")]:
        out = runner.invoke(app, ["series", "sealedbids", "-p", "2", *bad])
        assert out.exit_code == 2 and message in out.output, out.output


def _decide_scores(test: ScoreSprt, mean: float, sd: float, rng: random.Random, cap: int = 2000) -> str:
    scores: list[float] = []
    while len(scores) < cap:
        scores.append(round(rng.gauss(mean, sd)))
        verdict = test.verdict(scores)
        if verdict != UNDECIDED:
            return verdict
    return UNDECIDED


def test_the_score_test_keeps_its_error_rates_on_simulated_solo_games() -> None:
    # Solo Hadrian's Wall: scores spread by about 8 points around the bot's mean.
    test, rng, runs = ScoreSprt(35, 40), random.Random(11), 300
    false_h1 = sum(_decide_scores(test, 35, 8, rng) == ACCEPT_H1 for _ in range(runs)) / runs
    false_h0 = sum(_decide_scores(test, 40, 8, rng) == ACCEPT_H0 for _ in range(runs)) / runs
    assert false_h1 <= 0.09 and false_h0 <= 0.09


def test_the_score_test_waits_for_ten_games_and_then_follows_the_mean() -> None:
    test = ScoreSprt(35, 40)
    assert test.verdict([60, 61, 59, 62, 60, 58, 61, 60, 59]) == UNDECIDED
    assert test.verdict([60, 61, 59, 62, 60, 58, 61, 60, 59, 60]) == ACCEPT_H1
    assert test.verdict([10, 12, 9, 11, 10, 13, 12, 10, 11, 9]) == ACCEPT_H0
    # Identical scores do not make the ratio infinite: the variance is at least one point squared.
    assert test.llr([40] * 10) == pytest.approx(5 * (400 - 375))
    with pytest.raises(ValueError, match="differ"):
        ScoreSprt(40, 40)
    with pytest.raises(ValueError, match="beta"):
        ScoreSprt(35, 40, beta=0.5)
