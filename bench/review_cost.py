"""What a post-game review costs: whole reviews of one seat, per game and seat count, at
the game's default budget (its REVIEW_ITERATIONS hook, ludoteca.bots.review.budget_for) or
a given one, on one core.

    .venv/bin/python bench/review_cost.py [GAME ...] [--players 2 3 4] [--seed 1] [--budget S,E] [--every K] [--json]

Each game is first played by greedy bots (seed given), then seat 0's review is timed in
CPU seconds of this process (one core; a loaded machine's wall clock would mislead).
Printed per game and seat count: the seat's decisions judged, iterations per decision
(the search's, plus the evaluation's for the move played and, when it differs, the
preferred one), CPU milliseconds per iteration, seconds per decision and the whole
review's seconds. Machines differ in speed: the iterations and decisions are the figures
to carry over, the milliseconds per iteration the one to measure again.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from ludoteca.bots import make_bot
from ludoteca.bots.playout import play_match
from ludoteca.bots.review import ReviewBudget, budget_for, decisions, judge
from ludoteca.engine import canonical
from ludoteca.games import load

SEATS = {"iwari": (2, 3, 4), "bloodrage": (2, 3, 4), "crusaders": (2, 3, 4), "hadrianswall": (1, 2, 3)}


def measure(game_id: str, players: int, seed: int, budget: ReviewBudget | None, every: int = 1) -> dict[str, Any]:
    game = load(game_id)
    budget = budget or budget_for(game_id)
    record = play_match(game, players, None, seed, [make_bot("greedy") for _ in range(players)]).record()
    judged = iterations = total = 0
    cpu = 0.0
    for number, (index, state, move) in enumerate(decisions(record, 0, game)):
        total += 1
        if number % every:
            continue
        started = time.process_time()
        verdict = judge(game, state, 0, move, budget, 0, index)
        cpu += time.process_time() - started
        judged += 1
        same = canonical(verdict.best) == canonical(verdict.played)
        iterations += budget.search + budget.evaluate * (1 if same else 2)
    return {"game": game_id, "players": players, "seed": seed, "budget": budget.to_json(),
            "moves": len(record.moves), "decisions": total, "judged": judged,
            "iterations_per_decision": round(iterations / max(1, judged), 1),
            "ms_per_iteration": round(1000 * cpu / max(1, iterations), 3),
            "seconds_per_decision": round(cpu / max(1, judged), 3),
            # With --every K, the whole review's time is the decisions judged scaled up.
            "review_seconds": round(cpu / max(1, judged) * total, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=list(SEATS))
    parser.add_argument("--players", type=int, nargs="*")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", help="SEARCH,EVALUATE for every game (default: each game's)")
    parser.add_argument("--every", type=int, default=1, help="judge every K-th decision only (and scale up)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    budget = ReviewBudget(*map(int, args.budget.split(","))) if args.budget else None
    if not args.json:
        print("| game | seats | budget (search, evaluate) | decisions | iterations / decision | ms / iteration "
              "| s / decision | review s |")
        print("|---|---|---|---|---|---|---|---|")
    for game_id in args.games:
        for players in args.players or SEATS[game_id]:
            row = measure(game_id, players, args.seed, budget, args.every)
            if args.json:
                print(json.dumps(row))
            else:
                b = row["budget"]
                print(f"| {game_id} | {players} | {b['search']}, {b['evaluate']} | {row['decisions']} "
                      f"| {row['iterations_per_decision']} | {row['ms_per_iteration']} "
                      f"| {row['seconds_per_decision']} | {row['review_seconds']} |", flush=True)


if __name__ == "__main__":
    main()
