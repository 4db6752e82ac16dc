"""Bot strength: ISMCTS against random and against greedy bots, seat-rotated, per game
and seat count; solo Hadrian's Wall by mean score. Prints figures; asserts nothing.

    .venv/bin/python bench/bots_strength.py [GAME ...] [--seconds 1.0 | --iterations N]
        [--games 200] [--players 2 4] [--against random greedy] [--seed 0] [--json]

Defaults follow the strength targets (docs/bots.md, "Measured strength"): 1 s per
decision, 200 games, 2 and 4 seats (1 and 3 for Hadrian's Wall). One game of a long title
takes minutes at 1 s per decision, so pass ``--seconds 0.1 --games 20`` for a quick look.
``--speed`` only measures the search's iterations per second on mid-game states.
``--rollout-depth``, ``--others-by-policy``,
``--prior``, ``--prior-depth``, ``--prior-visits`` and ``--no-hooks`` change the hooks the measured ISMCTS
uses (the opponents keep the game's), to weigh a hook.
``--report`` plays nothing and prints every cell the journal holds games for.
``--round K`` plays breadth first: every cell gets K more games before any gets more.
``--jobs N`` plays N games at once; ``--journal FILE`` records every finished game and
skips those already recorded, so the full protocol can run in pieces, resume after a
stop, or be split across machines (concatenate the journals).

``--sprt`` replaces the fixed game count by a sequential test per cell: each cell's
target (``cell_test``) is H1, a tolerance below it H0, and the cell is played deal by deal,
breadth first over the cells, until its test decides or ``--games`` is reached.
The journal's games count first, in the order of their index, as if played in this run.
"""

from __future__ import annotations

import argparse
import dataclasses
import html
import json
import math
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ludoteca.bots import Budget, GreedyBot, ISMCTSBot, RandomBot
from ludoteca.bots.base import Bot
from ludoteca.bots.hooks import GameHooks, hooks_for
from ludoteca.bots.series import GamePlayed, play_rotated, summarize
from ludoteca.bots.sprt import UNDECIDED, ScoreSprt, Sprt, deal_means
from ludoteca.engine import Game
from ludoteca.games import available, load
from ludoteca.playouts import midgame_contexts

SOLO_GAMES = {"hadrianswall"}
"""Games measured at 1 and 3 seats: solo is scored by points."""

err = Console(stderr=True)


def seat_counts(game: Game[Any], wanted: list[int] | None) -> list[int]:
    counts = wanted or ([1, 3] if game.id in SOLO_GAMES else [2, 4])
    return [n for n in counts if game.min_seats <= n <= game.max_seats]


SHARE_TOLERANCE = 0.10
"""H0 of a cell's test lies this far below its target share."""
SOLO_TARGET = 40.0
"""Solo Hadrian's Wall: a mean score of at least 40 (Centurion)."""
SOLO_TOLERANCE = 5.0


def cell_target(players: int, kind: str) -> float:
    """The strength target for ISMCTS in a cell: a win share, or a mean score when solo."""
    if players == 1:
        return SOLO_TARGET
    if players == 2:
        return 0.95 if kind == "random" else 0.65
    return 2 / players


def cell_test(players: int, kind: str) -> Sprt | ScoreSprt:
    """The target as a sequential test: H1 says the bot is at the target, H0 a tolerance
    below it, so accepting H1 says the target is met (to within the tolerance)."""
    target = cell_target(players, kind)
    if players == 1:
        return ScoreSprt(target - SOLO_TOLERANCE, target)
    return Sprt(target - SHARE_TOLERANCE, target)


def contiguous(games: dict[int, GamePlayed]) -> list[GamePlayed]:
    """The games of indices 0, 1, 2, ... up to the first one missing: the test's sequence."""
    run: list[GamePlayed] = []
    while len(run) in games:
        run.append(games[len(run)])
    return run


def sequential_verdict(test: Sprt | ScoreSprt, games: list[GamePlayed], players: int) -> dict[str, Any]:
    """Walk the cell's games in order and stop where the test first decides, as a run
    that had played them one deal at a time would have stopped."""
    solo = isinstance(test, ScoreSprt)
    units = [g.scores[0] for g in games] if solo else deal_means([g.shares[0] for g in games], players)
    verdict, used, llr = UNDECIDED, len(units), 0.0
    per_unit = 1 if solo else players
    path: list[list[float]] = []  # [games, LLR] after each deal, up to the verdict
    for n in range(1, len(units) + 1):
        llr = test.llr(units[:n]) if isinstance(test, ScoreSprt) else test.llr(units[:n], players)
        path.append([n * per_unit, llr])
        verdict = test.decide(llr)
        if verdict != UNDECIDED:
            used = n
            break
    return {"test": test.describe(), "verdict": verdict, "games": used * per_unit, "llr": llr,
            "bounds": [test.lower, test.upper], "path": path}


def opponent(kind: str) -> Bot:
    return {"random": RandomBot, "greedy": GreedyBot}[kind]()


def own_hooks(game: Game[Any], depth: int | None, none: bool, others: bool | None = None,
              prior: bool | None = None, prior_depth: int | None = None,
              prior_visits: float | None = None) -> GameHooks | None:
    """The hooks the measured ISMCTS uses instead of the game's, if any (to weigh them).
    ``prior`` False drops the game's prior hook (the search's priors are then the
    evaluation after each move, as before the hook); ``prior_depth`` and ``prior_visits``
    replace its depth and weight."""
    if none:
        return GameHooks(source="none")
    if depth is None and others is None and prior is None and prior_depth is None and prior_visits is None:
        return None
    hooks = hooks_for(game)
    if prior is False:
        hooks = dataclasses.replace(hooks, prior=None, prior_depth=None)
    else:
        if prior_depth is not None:
            hooks = dataclasses.replace(hooks, prior_depth=prior_depth)
        if prior_visits is not None:
            hooks = dataclasses.replace(hooks, prior_visits=prior_visits)
    if depth is not None:
        hooks = dataclasses.replace(hooks, rollout_depth=depth, source=f"{hooks.source}, ROLLOUT_DEPTH={depth}")
    if others is not None:
        hooks = dataclasses.replace(hooks, others_by_policy=others)
    return hooks


def cell_bots(game: Game[Any], players: int, kind: str, budget: Budget, label: str,
              hooks: GameHooks | None) -> list[Bot]:
    return [ISMCTSBot(budget, name=label, hooks=hooks)] + [opponent(kind) for _ in range(players - 1)]


def game_task(cell: dict[str, Any], index: int, args: argparse.Namespace, budget: Budget,
              label: str) -> dict[str, Any]:
    """Game ``index`` of a cell as plain values, for a worker process (``play_one``)."""
    return {"cell": cell["key"], "game": cell["game"].id, "players": cell["players"], "kind": cell["kind"],
            "index": index, "seed": args.seed, "iterations": budget.iterations, "seconds": budget.seconds,
            "depth": args.rollout_depth, "no_hooks": args.no_hooks, "others": args.others_by_policy,
            "prior": args.prior, "prior_depth": args.prior_depth, "prior_visits": args.prior_visits,
            "label": label}


def play_one(task: dict[str, Any]) -> dict[str, Any]:
    """One game of a cell, in a worker process (everything rebuilt from plain values)."""
    game = load(task["game"])
    budget = Budget(iterations=task["iterations"], seconds=task["seconds"])
    hooks = own_hooks(game, task["depth"], task["no_hooks"], task["others"], task.get("prior"),
                      task.get("prior_depth"), task.get("prior_visits"))
    bots = cell_bots(game, task["players"], task["kind"], budget, task["label"], hooks)
    played = play_rotated(game, task["players"], bots, task["index"], task["seed"])
    return {"cell": task["cell"], **played.to_json()}


def read_journal(path: Path | None) -> dict[str, dict[int, GamePlayed]]:
    """The games already played, per cell, from a journal of earlier (or parallel) runs."""
    cells: dict[str, dict[int, GamePlayed]] = {}
    if path is None or not path.exists():
        return cells
    for line in path.read_text().splitlines():
        if line.strip():
            data = json.loads(line)
            cells.setdefault(data["cell"], {})[data["index"]] = GamePlayed.from_json(data)
    return cells


def play_cell(tasks: list[dict[str, Any]], jobs: int, journal: Path | None, progress: Any) -> list[GamePlayed]:
    played: list[GamePlayed] = []

    def keep(data: dict[str, Any]) -> None:
        played.append(GamePlayed.from_json(data))
        if journal is not None:
            with journal.open("a") as out:
                out.write(json.dumps(data) + "\n")
        progress(len(played))

    if jobs <= 1:
        for task in tasks:
            keep(play_one(task))
        return played
    with ProcessPoolExecutor(jobs) as pool:
        for data in pool.map(play_one, tasks):
            keep(data)
    return played


def speed(game: Game[Any], players: int, budget: Budget, seed: int, positions: int = 5) -> dict[str, Any]:
    """Iterations per second on a few mid-game states reached by random play."""
    bot = ISMCTSBot(budget)
    for ctx in midgame_contexts(game, players, seed, positions):
        bot.choose(ctx)
    stats = bot.stats
    return {"game": game.id, "players": players, "decisions": stats.decisions,
            "iterations_per_second": stats.iterations_per_second}


TITLES = {"bloodrage": "Blood Rage", "crusaders": "Crusaders", "hadrianswall": "Hadrian's Wall", "iwari": "Iwari"}


def markdown(rows: list[dict[str, Any]]) -> str:
    """The fixed-sample strength table, as bench/results/bots-journal.md shows it."""
    lines = ["| game | seats | against | games | ISMCTS wins (share, 95%) | vs 1/N | ISMCTS mean score "
             "| opponents' mean | ms/decision | iter/s |", "|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        low, high = row["win_share_95"]
        ips = row["iterations_per_second"]
        solo = row["players"] == 1
        wins = "-" if solo else f"{row['wins']:g} ({row['win_share']:.0%}, {low:.0%}-{high:.0%})"
        ratio = "-" if solo else f"{row['win_share'] / row['baseline']:.2f}x"
        mean = f"{row['mean_score']:.1f}" + (f" (min {row['least_score']})" if solo else "")
        opponents = "-" if solo else f"{row['opponent_mean_score']:.1f}"
        lines.append(f"| {TITLES.get(row['game'], row['game'])} | {row['players']} | {row['against']} | {row['games']} "
                     f"| {wins} | {ratio} | {mean} | {opponents} | {row['ms_per_decision']:.0f} "
                     f"| {f'{ips:.0f}' if ips else '-'} |")
    return "\n".join(lines)


VERDICTS = {"H1": "met", "H0": "not met", UNDECIDED: "undecided"}


def hypotheses(test: dict[str, Any]) -> str:
    """A verdict's test described by its two hypotheses (the error rates left out)."""
    return str(test["test"]).split(", alpha")[0]


def sprt_markdown(rows: list[dict[str, Any]]) -> str:
    """The sequential tests' verdicts, one row per cell."""
    lines = ["| game | seats | against | target | test (H0 / H1) | games to verdict | ISMCTS share or mean "
             "| LLR (bounds) | verdict |", "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        test = row["sprt"]
        solo = row["players"] == 1
        low, high = row["win_share_95"]
        target = f"mean >= {row['target']:g}" if solo else f"share >= {row['target']:.0%}"
        figure = (f"{row['mean_score']:.1f} (min {row['least_score']})" if solo
                  else f"{row['wins']:g} of {row['games']} ({row['win_share']:.0%}, {low:.0%}-{high:.0%})")
        lines.append(f"| {TITLES.get(row['game'], row['game'])} | {row['players']} | {row['against']} | {target} "
                     f"| {hypotheses(test)} | {test['games']} | {figure} | {test['llr']:.2f} "
                     f"({test['bounds'][0]:.2f}, {test['bounds'][1]:.2f}) | {VERDICTS[test['verdict']]} |")
    return "\n".join(lines)


def llr_svg(rows: list[dict[str, Any]], width: int = 640, height: int = 220) -> str:
    """The sequential tests' walks as a picture: one panel per cell, the log-likelihood
    ratio after each deal against the number of games, between the two bounds."""
    left, right, top, bottom = 48, 16, 28, 34
    panels = []
    for k, row in enumerate(rows):
        test = row["sprt"]
        lower, upper = test["bounds"]
        path = test["path"] or [[0, 0.0]]
        most = max(10, int(path[-1][0]))
        low = min(lower, *(y for _, y in path)) - 0.5
        high = max(upper, *(y for _, y in path)) + 0.5

        def x(games: float, most: int = most) -> float:
            return left + (width - left - right) * games / most

        def y(llr: float, low: float = low, high: float = high) -> float:
            return top + (height - top - bottom) * (high - llr) / (high - low)

        title = (f"{TITLES.get(row['game'], row['game'])}, {row['players']} "
                 f"{'seat' if row['players'] == 1 else 'seats'}, against {row['against']}: "
                 f"{VERDICTS[test['verdict']]} ({hypotheses(test)})")
        points = " ".join(f"{x(g):.1f},{y(v):.1f}" for g, v in [[0, 0.0], *path])
        step = next(s for s in (1, 2, 5, 10, 20, 50, 100) if most / s <= 10)
        ticks = range(0, most + 1, step)
        parts = [f'<g transform="translate(0,{k * height})">',
                 f'<text x="{left}" y="16" font-size="13" font-weight="bold">{html.escape(title)}</text>',
                 f'<line x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#999"/>',
                 f'<line x1="{left}" x2="{left}" y1="{top}" y2="{height - bottom}" stroke="#999"/>']
        for bound, label, colour in ((upper, "accept H1: met", "#2a7d2a"), (lower, "accept H0: not met", "#b03030")):
            parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(bound):.1f}" y2="{y(bound):.1f}" '
                         f'stroke="{colour}" stroke-dasharray="6 4"/>')
            parts.append(f'<text x="{width - right - 4}" y="{y(bound) - 4:.1f}" font-size="11" text-anchor="end" '
                         f'fill="{colour}">{label} ({bound:+.2f})</text>')
        for g in ticks:
            parts.append(f'<text x="{x(g):.1f}" y="{height - bottom + 14}" font-size="10" '
                         f'text-anchor="middle">{g}</text>')
        parts.append(f'<text x="{left - 4}" y="{y(0) + 4:.1f}" font-size="10" text-anchor="end">0</text>')
        parts.append(f'<text x="{(left + width - right) / 2:.0f}" y="{height - 6}" font-size="11" '
                     f'text-anchor="middle">games</text>')
        parts.append(f'<text x="12" y="{(top + height - bottom) / 2:.0f}" font-size="11" text-anchor="middle" '
                     f'transform="rotate(-90 12 {(top + height - bottom) / 2:.0f})">LLR</text>')
        parts.append(f'<polyline points="{points}" fill="none" stroke="#1f4e9c" stroke-width="2"/>')
        parts.append("</g>")
        panels.append("\n".join(parts))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height * len(rows)}" '
            f'viewBox="0 0 {width} {height * len(rows)}" font-family="sans-serif">\n'
            f'<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(panels) + "\n</svg>\n")


def play_sequentially(cells: list[dict[str, Any]], budget: Budget, label: str, args: argparse.Namespace,
                      journal: dict[str, dict[int, GamePlayed]]) -> None:
    """Breadth first over the cells, one deal at a time, until every cell's test decides
    or reaches ``--games``: a run cut short leaves every cell's test where it stood."""
    while True:
        played_any = False
        for c in cells:
            done = journal.setdefault(c["key"], {})
            run = contiguous(done)
            test = cell_test(c["players"], c["kind"])
            if sequential_verdict(test, run, c["players"])["verdict"] != UNDECIDED or len(run) >= args.count:
                continue
            deal = len(run) // c["players"]
            # With several jobs, enough deals at once that every process stays busy (2 jobs
            # at 3 seats: two deals, six games); the test still reads them in index order.
            deals = args.jobs // math.gcd(args.jobs, c["players"])
            last = min((deal + deals) * c["players"], -(-args.count // c["players"]) * c["players"])
            indices = [i for i in range(deal * c["players"], last) if i not in done]
            tasks = [game_task(c, i, args, budget, label) for i in indices]
            what = f"{c['game'].id} {c['players']}p vs {c['kind']}, deal {deal + 1}" + \
                (f"-{deal + deals}" if deals > 1 else "")
            with err.status(what) as status:
                def progress(n: int, what: str = what, status: Any = status, total: int = len(tasks)) -> None:
                    status.update(f"{what}: {n}/{total}")

                for played in play_cell(tasks, args.jobs, args.journal, progress):
                    done[played.index] = played
            verdict = sequential_verdict(test, contiguous(done), c["players"])
            err.print(f"{what}: LLR {verdict['llr']:.2f}, {VERDICTS[verdict['verdict']]}")
            played_any = True
        if not played_any:
            return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="game ids (default: every registered game)")
    parser.add_argument("--seconds", type=float, default=None, help="ISMCTS seconds per decision (default 1.0)")
    parser.add_argument("--iterations", type=int, default=None, help="ISMCTS iterations per decision instead")
    parser.add_argument("--games", type=int, default=200, dest="count")
    parser.add_argument("--players", type=int, nargs="*", default=None)
    parser.add_argument("--against", nargs="*", default=["random", "greedy"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed", action="store_true", help="only iterations per second")
    parser.add_argument("--rollout-depth", type=int, default=None,
                        help="ISMCTS: replace the game's ROLLOUT_DEPTH (its other hooks kept)")
    parser.add_argument("--no-hooks", action="store_true", help="ISMCTS: ignore the game's hooks")
    parser.add_argument("--others-by-policy", choices=("on", "off"), default=None,
                        help="ISMCTS: force the OTHERS_BY_POLICY hook on or off (its other hooks kept)")
    parser.add_argument("--prior", choices=("on", "off"), default=None,
                        help="ISMCTS: off drops the game's prior hook (its other hooks kept)")
    parser.add_argument("--prior-depth", type=int, default=None,
                        help="ISMCTS: replace the game's PRIOR_DEPTH (its other hooks kept)")
    parser.add_argument("--prior-visits", type=float, default=None,
                        help="ISMCTS: replace the game's PRIOR_VISITS (its other hooks kept)")
    parser.add_argument("--report", action="store_true",
                        help="play nothing: print the cells the journal holds games for, as they stand")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--markdown", action="store_true", help="print the table as docs/bots.md shows it")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, one process each")
    parser.add_argument("--round", type=int, default=None,
                        help="breadth first: bring every cell up by this many games before any gets more")
    parser.add_argument("--sprt", action="store_true",
                        help="play each cell until a sequential test on its target decides (--games caps it)")
    parser.add_argument("--plot", type=Path, default=None,
                        help="with --sprt: draw each cell's walk of the log-likelihood ratio into this SVG file")
    parser.add_argument("--journal", type=Path, default=None,
                        help="append each finished game to this JSON-lines file, and skip the games it "
                             "already holds: a long run can stop, resume, or be split across machines")
    args = parser.parse_args()
    args.others_by_policy = None if args.others_by_policy is None else args.others_by_policy == "on"
    args.prior = None if args.prior is None else args.prior == "on"
    journal = read_journal(args.journal)
    if args.iterations is not None:
        budget = Budget(iterations=args.iterations, seconds=args.seconds)
    else:
        budget = Budget(seconds=args.seconds if args.seconds is not None else 1.0)
    parts = ([f"{budget.iterations} it"] if budget.iterations else []) + \
        ([f"{budget.seconds:g} s"] if budget.seconds else [])
    label = "ismcts " + " ".join(parts)
    rows: list[dict[str, Any]] = []
    cells: list[dict[str, Any]] = []
    for game_id in args.games or available():
        game = load(game_id)
        for players in seat_counts(game, args.players):
            if args.speed:
                rows.append(speed(game, players, budget, args.seed))
                err.print(rows[-1])
                continue
            for kind in (["solo"] if players == 1 else args.against):
                hooks = own_hooks(game, args.rollout_depth, args.no_hooks, args.others_by_policy, args.prior,
                                  args.prior_depth, args.prior_visits)
                source = (hooks or hooks_for(game)).label(players)
                cells.append({"game": game, "players": players, "kind": kind, "hooks": hooks, "source": source,
                              "key": f"{game_id}/{players}/{kind}/{label}/{source}/seed={args.seed}"})
    if args.sprt and not args.report:
        play_sequentially(cells, budget, label, args, journal)
    # Breadth first: every cell gets --round more games before any gets more, so a run cut
    # short (or still going) has balanced samples; the journal makes each round resumable.
    step = args.round or args.count
    for target in ([] if args.report or args.sprt else range(step, args.count + step, step)):
        for c in cells:
            target_here = min(target, args.count)
            done = journal.get(c["key"], {})
            tasks = [game_task(c, i, args, budget, label) for i in range(target_here) if i not in done]
            if not tasks:
                continue
            what = f"{c['game'].id} {c['players']}p vs {c['kind']}"
            with err.status(f"{what}: {target_here - len(tasks)}/{target_here}") as status:
                def progress(n: int, what: str = what, before: int = target_here - len(tasks),
                             goal: int = target_here, status: Any = status) -> None:
                    status.update(f"{what}: {before + n}/{goal}")

                for played in play_cell(tasks, args.jobs, args.journal, progress):
                    journal.setdefault(c["key"], {})[played.index] = played
    for c in cells:
        games = [g for i, g in journal.get(c["key"], {}).items() if args.report or i < args.count]
        test = None
        if args.sprt:
            test = sequential_verdict(cell_test(c["players"], c["kind"]), contiguous(journal.get(c["key"], {})),
                                      c["players"])
            games = contiguous(journal.get(c["key"], {}))[:test["games"]]
        if not games:
            continue
        names = [bot.name for bot in cell_bots(c["game"], c["players"], c["kind"], budget, label, c["hooks"])]
        result = summarize(c["game"].id, c["players"], names, games, args.seed)
        hero = result.entries[0]
        rows.append({"game": c["game"].id, "players": c["players"], "against": c["kind"], "games": result.games,
                     "budget": label, "hooks": c["source"],
                     **{k: v for k, v in hero.to_json().items() if k != "bot"},
                     "opponent_mean_score": (sum(sum(e.scores) for e in result.entries[1:])
                                             / max(1, sum(len(e.scores) for e in result.entries[1:]))),
                     "baseline": result.baseline, "least_score": min(hero.scores, default=0),
                     **({"target": cell_target(c["players"], c["kind"]), "sprt": test} if test else {})})
        err.print(f"[dim]{rows[-1]}[/dim]")
    if args.plot is not None and args.sprt:
        args.plot.write_text(llr_svg(rows))
        err.print(f"wrote {args.plot}")
    if args.json:
        print(json.dumps(rows))
        return
    if args.markdown and not args.speed:
        print(sprt_markdown(rows) if args.sprt else markdown(rows))
        return
    table = Table(title=f"ISMCTS strength ({label} per decision), seat-rotated")
    if args.speed:
        for column in ("game", "players", "decisions", "iterations/s"):
            table.add_column(column, justify="right")
        for row in rows:
            table.add_row(row["game"], str(row["players"]), str(row["decisions"]),
                          f"{row['iterations_per_second']:,.0f}")
    else:
        for column in ("game", "seats", "against", "games", "win share", "95%", "vs 1/N", "mean score",
                       "opp. score", "ms/decision", "iter/s"):
            table.add_column(column, justify="right")
        for row in rows:
            low, high = row["win_share_95"]
            ips = row["iterations_per_second"]
            table.add_row(row["game"], str(row["players"]), row["against"], str(row["games"]),
                          f"{row['win_share']:.1%}", f"{low:.0%}-{high:.0%}",
                          f"{row['win_share'] / row['baseline']:.2f}x", f"{row['mean_score']:.1f}",
                          f"{row['opponent_mean_score']:.1f}", f"{row['ms_per_decision']:.0f}",
                          f"{ips:,.0f}" if ips else "-")
    Console().print(table)


if __name__ == "__main__":
    main()
