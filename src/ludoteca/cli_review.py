"""``ludoteca review RECORD --seat N``: the post-game review in the terminal.

The judging is ``ludoteca.bots.review`` (pure); this module reads the record, shows a
progress bar on stderr, and prints the decisions and the summary in the terminal's
language (the browser's "review" strings, web/i18n/<lang>.json) or as JSON.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ludoteca.bots.review import LABELS, ReviewBudget, budget_for, review
from ludoteca.engine import LudotecaError, MatchRecord
from ludoteca.games import load
from ludoteca.i18n import LANGUAGES, Strings, locale_language

console = Console()
err = Console(stderr=True)
MAX_BUDGET = 100_000
"""Iterations per decision the command accepts (a typo should not start a week-long run)."""


def _fail(message: str) -> typer.Exit:
    err.print(f"[red]error:[/red] {escape(message)}")
    return typer.Exit(2)


def parse_budget(text: str | None, game_id: str) -> ReviewBudget:
    """``SEARCH`` or ``SEARCH,EVALUATE`` (evaluate defaults to a quarter of search)."""
    if text is None:
        return budget_for(game_id)
    parts = text.split(",")
    if len(parts) > 2 or not all(p.strip().isdigit() for p in parts):
        raise _fail(f"--budget is SEARCH or SEARCH,EVALUATE (whole numbers), not {text!r}")
    search = int(parts[0])
    evaluate = int(parts[1]) if len(parts) == 2 else max(1, search // 4)
    if not (1 <= search <= MAX_BUDGET and 1 <= evaluate <= MAX_BUDGET):
        raise _fail(f"--budget takes 1 to {MAX_BUDGET} iterations each")
    return ReviewBudget(search, evaluate)


def review_command(path: Path, seat: int, budget_text: str | None, seed: int, as_json: bool,
                   lang: str | None) -> None:
    if lang is not None and lang not in LANGUAGES:
        raise _fail(f"--lang takes one of {', '.join(LANGUAGES)}, not {lang!r}")
    try:
        record = MatchRecord.loads(path.read_text(encoding="utf-8"))
        game = load(record.game)
    except (LudotecaError, UnicodeDecodeError) as error:
        raise _fail(getattr(error, "message", str(error))) from None
    if not 0 <= seat < record.seats:
        raise _fail(f"--seat must be between 0 and {record.seats - 1}")
    budget = parse_budget(budget_text, record.game)
    module = sys.modules[type(game).__module__]
    strings = Strings(module.__name__ if hasattr(module, "__path__") else (module.__package__ or ""),
                      lang or locale_language())
    name = strings.seat_name(seat)
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TimeRemainingColumn(), console=err, transient=True, disable=as_json)
    with progress:
        task = progress.add_task(escape(strings.t("review.progress", {"name": name})), total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        try:
            result = review(record, seat, budget, seed, advance)
        except LudotecaError as error:
            raise _fail(error.message) from None
    data = result.to_json()
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
        return
    table = Table(title=escape(f"{strings.t('review.title')}: {name}"))
    for key in ("review.move", "review.played", "review.best", "review.loss", "review.verdict"):
        table.add_column(escape(strings.t(key)))
    for decision in data["decisions"]:
        if decision["label"] == "good":
            continue  # the table lists what went wrong; the summary counts the rest
        loss = strings.t("review.loss_value", {"points": f"{decision['loss_points']:.1f}",
                                               "rank": f"{decision['loss_rank']:.2f}"})
        played = strings.move(decision["played"], record.seats, seat) or decision["played_text"]
        best = strings.move(decision["best"], record.seats, seat) or decision["best_text"]
        table.add_row(str(decision["index"] + 1), escape(played), escape(best), escape(loss),
                      escape(strings.t(f"review.label.{decision['label']}")))
    if table.row_count:
        console.print(table)
    else:
        console.print(escape(strings.t("review.no_mistakes")))
    summary = data["summary"]
    console.print(escape(strings.t("review.decisions", {"n": summary["decisions"]})))
    console.print(escape(strings.t("review.summary", {**{f"{label}s" if label != "inaccuracy" else "inaccuracies":
                                                         summary[label] for label in LABELS[1:]},
                                                      "accuracy": f"{summary['accuracy']:.0f}"})))
