"""bench/bots_strength.py: a long protocol runs in pieces through its journal, and the
journal alone prints the table."""

from __future__ import annotations

import json
import subprocess
import sys
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
