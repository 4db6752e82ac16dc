"""The ``ludoteca`` command: list games, simulate, play in the terminal, replay, bench, serve,
admin."""

from __future__ import annotations

import functools
import json
import statistics
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ludoteca.admin import admin_app
from ludoteca.bots import make_bot
from ludoteca.bots.base import bot_names
from ludoteca.bots.playout import play_match
from ludoteca.engine import Game, LudotecaError, Match, MatchRecord
from ludoteca.games import available, load

app = typer.Typer(help="Ludoteca: modern board games, their engines, and an arena to play them.",
                  no_args_is_help=True, add_completion=False)
app.add_typer(admin_app, name="admin")  # ludoteca admin ...: accounts and moderation (admin.py)
console = Console()
err = Console(stderr=True)


def _fail(message: str) -> typer.Exit:
    err.print(f"[red]error:[/red] {message}")
    return typer.Exit(2)


def _game(game_id: str) -> Game[Any]:
    try:
        return load(game_id)
    except LudotecaError as error:
        raise _fail(error.message) from None


def _options(game: Game[Any], pairs: list[str] | None) -> dict[str, object]:
    declared = {option.name: option for option in game.options}
    result: dict[str, object] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep:
            raise _fail(f"an option is KEY=VALUE, not {pair!r}")
        if key not in declared:
            raise _fail(f"unknown option {key!r}; {game.id} has: {', '.join(declared) or 'none'}")
        try:
            result[key] = declared[key].parse(value)
        except LudotecaError as error:
            raise _fail(error.message) from None
    return result


def _bots(spec: str, players: int) -> list[Any]:
    names = [name.strip() for name in spec.split(",") if name.strip()]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise _fail(f"--bots names {len(names)} bots for {players} players")
    try:
        return [make_bot(name) for name in names]
    except ValueError as error:
        raise _fail(str(error)) from None


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err, transient=True)


@app.command()
def games(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List the games this installation can play."""
    infos = [load(game_id).info() for game_id in available()]
    if as_json:
        print(json.dumps(infos, ensure_ascii=False, indent=1))
        return
    table = Table(title="Games")
    for column in ("id", "name", "players", "options (default)"):
        table.add_column(column)
    for info in infos:
        options = ", ".join(f"{o['name']}={json.dumps(o['default'])}" for o in info["options"]) or "-"
        table.add_row(info["id"], info["name"], f"{info['min_seats']}-{info['max_seats']}", options)
    console.print(table)


@app.command()
def simulate(
    game_id: Annotated[str, typer.Argument(metavar="GAME")],
    players: Annotated[int, typer.Option("--players", "-p")] = 2,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="KEY=VALUE, repeatable.")] = None,
    count: Annotated[int, typer.Option("--games", "-n", min=1)] = 10,
    seed: Annotated[int, typer.Option("--seed", "-s")] = 0,
    bots: Annotated[str, typer.Option("--bots", help="Comma-separated bot names, one per seat.")] = "random",
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per game.")] = False,
    records: Annotated[Path | None, typer.Option("--records", help="Save each game's record here.")] = None,
) -> None:
    """Play complete games between bots. Game i uses seed S+i."""
    game = _game(game_id)
    options = _options(game, option)
    seat_bots = _bots(bots, players)
    if records:
        records.mkdir(parents=True, exist_ok=True)
    wins = [0.0] * players
    scores: list[list[int]] = [[] for _ in range(players)]
    lengths: list[int] = []
    started = time.perf_counter()
    with _progress() as progress:
        task = progress.add_task(f"{game.id}, {players} players", total=count, visible=not as_json)
        for i in range(count):
            game_seed = seed + i
            t0 = time.perf_counter()
            try:
                match = play_match(game, players, options, game_seed, seat_bots)
            except LudotecaError as error:
                raise _fail(error.message) from None
            seconds = time.perf_counter() - t0
            result = match.result()
            assert result is not None
            if records:
                (records / f"{game.id}-{players}p-{game_seed}.json").write_text(
                    match.record([b.name for b in seat_bots]).dumps())
            if as_json:
                print(json.dumps({"game": game.id, "seed": game_seed, "players": players,
                                  "bots": [b.name for b in seat_bots], "options": match.options,
                                  "scores": list(result.scores), "ranks": list(result.ranks),
                                  "moves": match.version, "seconds": round(seconds, 4)}, ensure_ascii=False))
            winners = result.winners
            for seat in winners:
                wins[seat] += 1 / len(winners)
            for seat in range(players):
                scores[seat].append(result.scores[seat])
            lengths.append(match.version)
            progress.advance(task)
    if as_json:
        return
    elapsed = time.perf_counter() - started
    table = Table(title=f"{game.name}: {count} games, {players} players, seeds {seed}..{seed + count - 1}")
    for column in ("seat", "bot", "wins", "win share", "mean score"):
        table.add_column(column, justify="right")
    for seat in range(players):
        table.add_row(str(seat), seat_bots[seat].name, f"{wins[seat]:g}", f"{wins[seat] / count:.1%}",
                      f"{statistics.fmean(scores[seat]):.1f}")
    console.print(table)
    console.print(f"moves per game: mean {statistics.fmean(lengths):.1f}, min {min(lengths)}, max {max(lengths)}; "
                  f"{elapsed:.2f} s ({elapsed / count * 1000:.1f} ms per game)")


@app.command()
def play(
    game_id: Annotated[str, typer.Argument(metavar="GAME")],
    players: Annotated[int, typer.Option("--players", "-p")] = 2,
    seat: Annotated[int, typer.Option("--seat", help="Your seat (0 is first).")] = 0,
    seed: Annotated[int, typer.Option("--seed", "-s")] = 0,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="KEY=VALUE, repeatable.")] = None,
    bots: Annotated[str, typer.Option("--bots", help="The bot for the other seats.")] = "random",
    lang: Annotated[str | None, typer.Option("--lang", help="en, ja or vi (default: the terminal's locale).")] = None,
) -> None:
    """Play in the terminal against bots."""
    import sys

    from ludoteca.bots.base import BotContext
    from ludoteca.bots.playout import bot_rng
    from ludoteca.i18n import LANGUAGES, Strings, locale_language

    game = _game(game_id)
    if not 0 <= seat < players:
        raise _fail(f"--seat must be between 0 and {players - 1}")
    if lang is not None and lang not in LANGUAGES:
        raise _fail(f"--lang takes one of {', '.join(LANGUAGES)}, not {lang!r}")
    # Prompts and log lines through the game's string tables, as the browser shows them.
    module = sys.modules[type(game).__module__]
    strings = Strings(module.__name__ if hasattr(module, "__path__") else (module.__package__ or ""),
                      lang or locale_language())
    try:
        match = Match.new(game.id, players, _options(game, option), seed, game=game)
    except LudotecaError as error:
        raise _fail(error.message) from None
    bot = _bots(bots, 1)[0]
    rngs = [bot_rng(seed, s) for s in range(players)]
    seen = 0
    while not match.over:
        for version, event in match.events_for(seat, seen):
            console.print(f"[dim]{version:>4}[/dim] {escape(strings.line(event.key, event.args, players, seat))}")
        seen = match.version
        pending = match.pending()
        if seat not in pending:
            other = pending[0]
            match.play(other, bot.choose(BotContext(game, match.state, other, rngs[other])))
            continue
        name = strings.get("game.name") or game.name
        console.rule(escape(strings.t("terminal.heading", {"game": name, "n": match.version + 1,
                                                           "seat": strings.seat_name(seat)})))
        console.print(game.view_text(match.view(seat)))
        decision = next(d for d in game.pending(match.state) if d.seat == seat)
        console.print(f"[bold]{escape(strings.line(decision.prompt.key, decision.prompt.args, players, seat))}[/bold]")
        legal = match.legal(seat)
        for number, move in enumerate(legal, 1):
            said = strings.move(move, players, seat) or game.move_text(match.state, seat, move)
            console.print(f"  [cyan]{number:>3}[/cyan]  {escape(said)}")
        while True:
            answer = typer.prompt(strings.t("terminal.your_move")).strip()
            if answer.lower() in ("q", "quit"):
                raise typer.Exit(0)
            try:
                by_number = answer.isdigit() and 1 <= int(answer) <= len(legal)
                move = legal[int(answer) - 1] if by_number else json.loads(answer)
                match.play(seat, move)
                break
            except json.JSONDecodeError:
                err.print(f"[red]Not a move:[/red] type a number from 1 to {len(legal)} or a JSON object.")
            except LudotecaError as error:
                err.print(f"[red]Refused ({error.code}):[/red] {error.message}")
    result = match.result()
    assert result is not None
    _print_result(game, result.to_json(), players, strings, seat)


def _print_result(game: Game[Any], result: dict[str, Any], players: int, strings: Any = None,
                  you: int | None = None) -> None:
    if strings is None:  # `replay`: the engine's words, seats by number
        table = Table(title=f"{game.name}: result")
        for column in ("seat", "score", "rank"):
            table.add_column(column, justify="right")
        for s in range(players):
            table.add_row(str(s), str(result["scores"][s]), str(result["ranks"][s]))
    else:  # `play`: the browser's final scores, in the reader's language
        table = Table(title=escape(strings.t("score.title")))
        for column in ("score.player", "score.score", "score.rank"):
            table.add_column(escape(strings.t(column)), justify="right")
        for s in range(players):
            table.add_row(escape(strings.seat_name(s, you)), str(result["scores"][s]), str(result["ranks"][s]))
    console.print(table)


@app.command()
def replay(
    path: Annotated[Path, typer.Argument(metavar="FILE", exists=True, dir_okay=False)],
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Replay a match record, verify that every move is legal, and print the result."""
    try:
        record = MatchRecord.loads(path.read_text())
        game = _game(record.game)
        match = record.replay(game)
    except LudotecaError as error:
        raise _fail(error.message) from None
    result = match.result()
    if as_json:
        print(json.dumps({"game": record.game, "moves": match.version, "over": result is not None,
                          "result": result.to_json() if result else None}, ensure_ascii=False))
        return
    console.print(f"[green]verified[/green]: {len(record.moves)} moves of {game.name} replay cleanly")
    if result:
        _print_result(game, result.to_json(), record.seats)
    else:
        console.print("the game is not over")


@app.command()
def review(
    path: Annotated[Path, typer.Argument(metavar="RECORD", exists=True, dir_okay=False)],
    seat: Annotated[int, typer.Option("--seat", help="The seat whose decisions are judged (0 is first).")],
    budget: Annotated[str | None, typer.Option(
        "--budget", help="SEARCH[,EVALUATE] iterations per decision (default: the game's, docs/bots.md).")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    lang: Annotated[str | None, typer.Option("--lang", help="en, ja or vi (default: the terminal's locale).")] = None,
) -> None:
    """Review a finished game: every decision of one seat judged by the search bot."""
    from ludoteca.cli_review import review_command

    review_command(path, seat, budget, seed, as_json, lang)


@app.command()
def bench(
    game_id: Annotated[str, typer.Argument(metavar="GAME")],
    players: Annotated[int, typer.Option("--players", "-p")] = 2,
    seconds: Annotated[float, typer.Option("--seconds", "-t", min=0.1)] = 5.0,
    seed: Annotated[int, typer.Option("--seed", "-s")] = 0,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Random playouts on one core: games/s, decisions/s, legal moves per decision, clone time."""
    from ludoteca.playouts import measure

    game = _game(game_id)
    try:
        figures = measure(game, players, seconds, seed, progress=None if as_json else err)
    except LudotecaError as error:
        raise _fail(error.message) from None
    if as_json:
        print(json.dumps(figures))
        return
    table = Table(title=f"{game.name}, {players} players: random playouts, one core")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for key, value in figures.items():
        table.add_row(key, f"{value:,.3f}" if isinstance(value, float) else str(value))
    console.print(table)


@app.command()
def series(
    game_id: Annotated[str, typer.Argument(metavar="GAME")],
    players: Annotated[int, typer.Option("--players", "-p")] = 2,
    bots: Annotated[str, typer.Option("--bots", help="Comma-separated lineup; the last name fills the "
                                                       "remaining seats. openspiel-ismcts and openspiel-mcts "
                                                       "(OpenSpiel's bots) need the rl extra.")] = "normal,random",
    count: Annotated[int, typer.Option("--games", "-n", min=1)] = 20,
    seed: Annotated[int, typer.Option("--seed", "-s")] = 0,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="KEY=VALUE, repeatable.")] = None,
    seconds: Annotated[float | None, typer.Option("--seconds", min=0.001,
                                                  help="Cap every bot's thinking per decision.")] = None,
    iterations: Annotated[int | None, typer.Option("--iterations", min=1,
                                                   help="Cap every search bot's iterations per decision.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    sprt: Annotated[str | None, typer.Option("--sprt", metavar="P0,P1",
                                             help="Stop as soon as a sequential test decides between H0: the "
                                                  "first bot's win share is P0 and H1: it is P1; --games is "
                                                  "then the most to play.")] = None,
    alpha: Annotated[float, typer.Option("--alpha", help="SPRT: the chance of accepting H1 when H0 holds.")] = 0.05,
    beta: Annotated[float, typer.Option("--beta", help="SPRT: the chance of accepting H0 when H1 holds.")] = 0.05,
) -> None:
    """Seat-rotated games between bots: win share against 1/N with 95% intervals, mean
    scores, time per decision. Game i deals seed S + i // N, the lineup rotated i % N seats."""
    from ludoteca.bots.base import Budget
    from ludoteca.bots.series import lineup, opponent, run_series
    from ludoteca.bots.sprt import Sprt, parse_hypotheses

    game = _game(game_id)
    options = _options(game, option)
    if not game.min_seats <= players <= game.max_seats:
        raise _fail(f"{game.name} is for {game.min_seats} to {game.max_seats} players, not {players}")
    try:
        names = lineup(bots.split(","), players)
        seat_bots = [opponent(name) for name in names]
        test = Sprt(*parse_hypotheses(sprt), alpha=alpha, beta=beta) if sprt is not None else None
    except ValueError as error:
        raise _fail(str(error)) from None
    budget = Budget(iterations, seconds) if seconds is not None or iterations is not None else None
    with _progress() as progress:
        task = progress.add_task(f"{game.id}, {players} players: {', '.join(names)}", total=count,
                                 visible=not as_json)
        try:
            outcome = run_series(game, players, seat_bots, count, seed, options, budget,
                                 on_game=lambda _i, _r: progress.advance(task), sprt=test)
        except LudotecaError as error:
            raise _fail(error.message) from None
    if as_json:
        print(json.dumps(outcome.to_json(), ensure_ascii=False))
        return
    last_seed = seed + (outcome.games - 1) // players
    table = Table(title=f"{game.name}: {outcome.games} games, {players} players, rotated, seeds {seed}..{last_seed}")
    for column in ("entry", "bot", "win share", "95% interval", "vs 1/N", "mean score", "ms/decision", "iter/s"):
        table.add_column(column, justify="right")
    for number, entry in enumerate(outcome.entries):
        low, high = entry.interval
        score_low, score_high = entry.score_interval
        ips = entry.iterations_per_second
        table.add_row(str(number), entry.name, f"{entry.win_share:.1%}", f"{low:.1%}-{high:.1%}",
                      f"{entry.win_share / outcome.baseline:.2f}x",
                      f"{entry.mean_score:.1f} ± {(score_high - score_low) / 2:.1f}",
                      f"{entry.ms_per_decision:.1f}", f"{ips:,.0f}" if ips else "-")
    console.print(table)
    console.print(f"baseline 1/N = {outcome.baseline:.1%}; moves per game: mean "
                  f"{statistics.fmean(outcome.moves):.1f}; {outcome.seconds:.1f} s")
    if test is not None:
        report = outcome.sprt_json()
        assert report is not None
        accepted = {"H0": f"H0 accepted (share {test.p0:g})", "H1": f"H1 accepted (share {test.p1:g})"}
        console.print(f"SPRT on {names[0]}: {test.describe()}; {report['deals']} deals, "
                      f"LLR {report['llr']:.2f} in [{test.lower:.2f}, {test.upper:.2f}]: "
                      f"{accepted.get(report['verdict'], 'undecided after ' + str(outcome.games) + ' games')}")


# The former name of ``series``, kept so that scripts keep working: the same options
# (its signature is series'), a note on stderr, then the series.
@app.command("tournament", hidden=True)
@functools.wraps(series)
def tournament(**kwargs: Any) -> None:
    err.print("note: `ludoteca tournament` is now `ludoteca series`; running it.")
    series(**kwargs)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
    db: Annotated[str | None, typer.Option("--db", help="Database URL (else LUDOTECA_DATABASE_URL, "
                                                        "else ./ludoteca.db).")] = None,
    redis: Annotated[str | None, typer.Option("--redis", help="Redis URL for several processes.")] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Server processes.")] = 1,
) -> None:
    """Serve the arena (HTTP API, WebSockets and the browser client)."""
    try:
        from ludoteca.server.main import run
    except ImportError:
        raise _fail("the server needs its extra: pip install 'ludoteca[server]'") from None
    run(host=host, port=port, db=db, redis=redis, workers=workers)


@app.command("bots")
def list_bots() -> None:
    """List the bots."""
    for name in bot_names():
        console.print(name)


if __name__ == "__main__":
    app()
