"""The bot levels rated against each other, per game, with openskill as people are rated.
Prints figures; asserts nothing.

    .venv/bin/python bench/bot_levels.py [GAME ...] [--players 4] [--deals 2] [--seed 0]
        [--journal bench/results/levels.jsonl] [--jobs 1] [--write] [--report]

Every game seats all the levels at once (random, easy, normal, hard: four seats), seat-
rotated as the series rotates them (one deal is N games, each level playing the deal
from every seat), at the levels' own budgets (hard thinks 1 s per decision, so a game of a
long title takes a minute or two). One four-seat game ranks every level against every
other, which is what makes a Plackett-Luce rating cheap to estimate. The journal keeps
every finished game, so runs add up and resume; ``--write`` stores each game's ratings from
the whole journal in its own package (src/ludoteca/games/<id>/level_ratings.json), which
the server shows where a player picks a bot. ``--report`` plays nothing.
"""

from __future__ import annotations

import argparse
import datetime
import json
from concurrent.futures import ProcessPoolExecutor
from importlib.resources import files
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from ludoteca.bots import level_names, make_bot
from ludoteca.bots.ratings import RATINGS_FILE, rate
from ludoteca.bots.series import play_rotated
from ludoteca.games import available, load, package

LEVELS = ["random", *level_names()]
console = Console()


def ratings_file(game_id: str) -> Path:
    """Where the game's ratings go: its own package's folder (the checkout's, for a
    development install), beside its rules."""
    return Path(str(files(package.packages(load(game_id))[0]))) / RATINGS_FILE


def play_one(task: dict[str, Any]) -> dict[str, Any]:
    game = load(task["game"])
    bots = [make_bot(name) for name in task["lineup"]]
    played = play_rotated(game, task["players"], bots, task["index"], task["seed"])
    return {"game": task["game"], "players": task["players"], "seed": task["seed"], "index": task["index"],
            "lineup": task["lineup"], "ranks": played.ranks, "scores": played.scores, "moves": played.moves}


def read_journal(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def ratings(journal: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for game_id in sorted({row["game"] for row in journal}):
        games = [(row["lineup"], row["ranks"]) for row in journal if row["game"] == game_id]
        out[game_id] = [r.to_json() for r in sorted(rate(LEVELS, games), key=lambda r: r.ordinal)]
    return out


def show(by_game: dict[str, list[dict[str, Any]]]) -> None:
    table = Table(title="Bot levels, openskill (Plackett-Luce); rating = mu - 3 sigma")
    for column in ("game", "level", "rating", "mu", "sigma", "games"):
        table.add_column(column, justify="right")
    for game_id, entries in by_game.items():
        for entry in entries:
            table.add_row(game_id, entry["level"], f"{entry['rating']:.1f}", f"{entry['mu']:.2f}",
                          f"{entry['sigma']:.2f}", str(entry["games"]))
    console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=None)
    parser.add_argument("--players", type=int, default=len(LEVELS))
    parser.add_argument("--deals", type=int, default=2, help="deals per game (each is PLAYERS games)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--journal", type=Path, default=Path("bench/results/levels.jsonl"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--write", action="store_true", help=f"store each game's ratings in its {RATINGS_FILE}")
    parser.add_argument("--report", action="store_true", help="play nothing; rate the journal")
    args = parser.parse_args()

    journal = read_journal(args.journal)
    if not args.report:
        lineup = (LEVELS * args.players)[:args.players]
        done = {(row["game"], row["players"], row["seed"], row["index"]) for row in journal}
        tasks = [{"game": game_id, "players": args.players, "seed": args.seed, "index": index, "lineup": lineup}
                 for index in range(args.deals * args.players) for game_id in (args.games or available())
                 if game_id in available() and load(game_id).min_seats <= args.players <= load(game_id).max_seats
                 and (game_id, args.players, args.seed, index) not in done]
        args.journal.parent.mkdir(parents=True, exist_ok=True)
        with Progress(console=console) as progress, ProcessPoolExecutor(args.jobs) as pool:
            bar = progress.add_task(f"{len(tasks)} games, lineup {', '.join(lineup)}", total=len(tasks))
            for row in pool.map(play_one, tasks):
                with args.journal.open("a") as out:
                    out.write(json.dumps(row) + "\n")
                journal.append(row)
                progress.advance(bar)
    by_game = ratings(journal)
    show(by_game)
    if args.write:
        for game_id, entries in by_game.items():
            games = sum(1 for row in journal if row["game"] == game_id)
            out = ratings_file(game_id)
            out.write_text(json.dumps({
                "_provenance": f"bench/bot_levels.py over {args.journal} ({games} bot-only games of this title), "
                               f"written {datetime.date.today().isoformat()}; openskill Plackett-Luce from its "
                               "default prior (mu 25, sigma 25/3), as people's ratings start.",
                "levels": entries,
            }, indent=1, ensure_ascii=False) + "\n")
            console.print(f"wrote {out}")


if __name__ == "__main__":
    main()
