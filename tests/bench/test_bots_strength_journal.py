"""bench/bots_strength.py: a long protocol runs in pieces through its journal, and the
journal alone prints the table."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CELL = ["iwari", "--players", "2", "--against", "random", "--iterations", "2"]


def bench(*args: str) -> str:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bots_strength.py"), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    return done.stdout


def test_a_journal_resumes_and_reports(tmp_path: Path) -> None:
    journal = tmp_path / "games.jsonl"
    bench(*CELL, "--games", "2", "--journal", str(journal))
    first = [json.loads(line) for line in journal.read_text().splitlines()]
    assert [g["index"] for g in first] == [0, 1]
    assert all(g["cell"].startswith("iwari/2/random/ismcts 2 it/") for g in first)

    # A larger count plays only the games the journal lacks.
    bench(*CELL, "--games", "3", "--journal", str(journal))
    lines = journal.read_text().splitlines()
    assert len(lines) == 3 and [json.loads(line)["index"] for line in lines] == [0, 1, 2]
    assert [json.loads(line) for line in lines[:2]] == first

    # The report plays nothing and counts every recorded game.
    rows = json.loads(bench("--iterations", "2", "--journal", str(journal), "--report", "--json"))
    assert [(r["game"], r["players"], r["against"], r["games"]) for r in rows] == [("iwari", 2, "random", 3)]
    assert len(journal.read_text().splitlines()) == 3
    table = bench("--iterations", "2", "--journal", str(journal), "--report", "--markdown").splitlines()
    assert table[0].startswith("| game | seats | against | games |")
    assert table[2].startswith("| Iwari | 2 | random | 3 | ")


def test_rounds_go_breadth_first(tmp_path: Path) -> None:
    journal = tmp_path / "games.jsonl"
    bench("iwari", "--players", "2", "--against", "random", "greedy", "--iterations", "2",
          "--games", "2", "--round", "1", "--journal", str(journal))
    order = [(json.loads(line)["cell"].split("/")[2], json.loads(line)["index"])
             for line in journal.read_text().splitlines()]
    assert order == [("random", 0), ("greedy", 0), ("random", 1), ("greedy", 1)]


def _fake_game(index: int, hero_share: float, players: int) -> dict[str, object]:
    rest = (1.0 - hero_share) / (players - 1)
    return {"index": index, "shares": [hero_share] + [rest] * (players - 1), "scores": [50] + [20] * (players - 1),
            "moves": 100, "decisions": [40] * players, "seconds": [1.0] * players,
            "iterations": [100] + [0] * (players - 1), "search_seconds": [1.0] + [0.0] * (players - 1)}


def test_the_sequential_verdict_stops_where_the_test_first_decides(tmp_path: Path) -> None:
    # 24 won games of Iwari at 4 seats against random: the test (H0 0.4, H1 0.5) decides after
    # 4 deals; the games after them do not count, as a run playing deal by deal never played them.
    journal = tmp_path / "games.jsonl"
    cell = "iwari/4/random/ismcts 2 it/ludoteca.games.iwari.ai/seed=0"
    journal.write_text("".join(json.dumps({"cell": cell, **_fake_game(i, 1.0, 4)}) + "\n" for i in range(24)))
    rows = json.loads(bench("iwari", "--players", "4", "--against", "random", "--iterations", "2",
                            "--journal", str(journal), "--report", "--sprt", "--json"))
    assert len(rows) == 1
    row = rows[0]
    assert row["sprt"]["verdict"] == "H1" and row["sprt"]["games"] == 16 and row["games"] == 16
    assert row["target"] == 0.5 and row["sprt"]["test"].startswith("H0: share = 0.4, H1: share = 0.5")
    assert len(journal.read_text().splitlines()) == 24
    table = bench("iwari", "--players", "4", "--against", "random", "--iterations", "2",
                  "--journal", str(journal), "--report", "--sprt", "--markdown").splitlines()
    assert table[2].startswith("| Iwari | 4 | random | share >= 50% | H0: share = 0.4, H1: share = 0.5 | 16 | 16 of 16")
    assert table[2].endswith("| met |")


def test_a_sequential_run_plays_whole_deals_until_the_test_decides_or_the_cap(tmp_path: Path) -> None:
    # Two drawn deals already in the journal leave the test (H0 0.85, H1 0.95) undecided; the
    # run goes on one deal at a time from there.
    journal = tmp_path / "games.jsonl"
    cell = "iwari/2/random/ismcts 2 it/ludoteca.games.iwari.ai/seed=0"
    journal.write_text("".join(json.dumps({"cell": cell, **_fake_game(i, 0.5, 2)}) + "\n" for i in range(4)))
    rows = json.loads(bench("iwari", "--players", "2", "--against", "random", "--iterations", "2",
                            "--games", "8", "--journal", str(journal), "--sprt", "--json"))
    indices = [json.loads(line)["index"] for line in journal.read_text().splitlines()]
    assert indices[:4] == [0, 1, 2, 3] and indices == list(range(len(indices)))
    assert len(indices) % 2 == 0 and 6 <= len(indices) <= 8
    verdict = rows[0]["sprt"]
    if verdict["verdict"] == "undecided":
        assert len(indices) == 8
    else:
        assert verdict["games"] == len(indices)


def test_a_sequential_run_with_two_jobs_at_three_seats_plays_two_deals_at_once(tmp_path: Path) -> None:
    # One deal is three games: two processes would idle a third of the time, so two deals
    # (six games) go at once, and the journal still fills indices 0..5 with no gap.
    journal = tmp_path / "games.jsonl"
    bench("iwari", "--players", "3", "--against", "random", "--iterations", "2", "--games", "6",
          "--jobs", "2", "--journal", str(journal), "--sprt", "--json")
    indices = sorted(json.loads(line)["index"] for line in journal.read_text().splitlines())
    assert indices == list(range(6))


def test_the_plot_draws_each_cells_walk_up_to_its_verdict(tmp_path: Path) -> None:
    # The same 24 won games as above: the walk has one point per deal up to the verdict
    # (4 deals) after the origin, and ends above the upper bound.
    journal = tmp_path / "games.jsonl"
    cell = "iwari/4/random/ismcts 2 it/ludoteca.games.iwari.ai/seed=0"
    journal.write_text("".join(json.dumps({"cell": cell, **_fake_game(i, 1.0, 4)}) + "\n" for i in range(24)))
    plot = tmp_path / "walk.svg"
    bench("iwari", "--players", "4", "--against", "random", "--iterations", "2", "--journal", str(journal),
          "--report", "--sprt", "--json", "--plot", str(plot))
    svg = ET.parse(plot).getroot()
    ns = {"svg": "http://www.w3.org/2000/svg"}
    (walk,) = svg.findall(".//svg:polyline", ns)
    points = [tuple(map(float, p.split(","))) for p in walk.get("points", "").split()]
    assert len(points) == 1 + 4
    assert [x for x, _ in points] == sorted(x for x, _ in points)
    met = [line for line in svg.findall(".//svg:line", ns) if line.get("stroke") == "#2a7d2a"]
    assert len(met) == 1 and points[-1][1] <= float(met[0].get("y1", "0"))  # SVG's y grows downwards
    assert "Iwari, 4 seats, against random: met" in "".join(svg.itertext())
