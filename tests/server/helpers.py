"""Shared steps of the server tests."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ludoteca.engine import Match, MatchRecord
from tests.server.drawbid import GAME

ROOT = Path(__file__).resolve().parents[2]


def play_out(players: dict[int, Any], table_id: str, rng: random.Random, seen: list[tuple[int, int | None, str]]
             | None = None, limit: int = 200) -> dict[str, Any]:
    """Play random legal moves as people until the game is over. ``players`` maps a seat
    to its Api. Every answer each seat (and a spectator) got is kept in ``seen`` as
    (version, seat, JSON text) for the hidden-information checks."""
    any_api = next(iter(players.values()))
    for _ in range(limit):
        snapshots = {seat: api.table(table_id) for seat, api in players.items()}
        if seen is not None:
            for seat, snap in snapshots.items():
                seen.append((snap["version"], seat, json.dumps(snap)))
                log = players[seat].get(f"/api/tables/{table_id}/log").json()
                seen.append((log["version"], seat, json.dumps(log)))
        first = snapshots[next(iter(snapshots))]
        if first["table"]["status"] == "over":
            return first
        movers = [seat for seat, snap in snapshots.items() if snap["legal"]]
        if not movers:
            continue  # a bot's turn: look again
        seat = rng.choice(movers)
        snap = snapshots[seat]
        r = players[seat].move(table_id, snap["version"], rng.choice(snap["legal"]))
        if r.status_code == 409:
            continue
        assert r.status_code == 200, r.text
        if seen is not None:
            seen.append((r.json()["version"], seat, r.text))
    raise AssertionError(f"table {table_id} did not finish: {any_api.table(table_id)}")


def states_by_version(record: dict[str, Any], versions: list[int]) -> dict[int, Match]:
    """The true match at each table version, replayed from the record (versions count
    moves when nothing was undone)."""
    rec = MatchRecord.from_json(record)
    match = Match.new(rec.game, rec.seats, rec.options, rec.seed, game=GAME)
    out = {0: _copy(match)}
    for number, played in enumerate(rec.moves, 1):
        match.play(played.seat, played.move)
        out[number] = _copy(match)
    return {v: out[v] for v in versions if v in out}


def _copy(match: Match) -> Match:
    copy = Match(match.game, match.seats, match.options, match.seed, match.game.clone(match.state))
    copy.moves = list(match.moves)
    return copy


def assert_no_foreign_secrets(seen: list[tuple[int, int | None, str]], record: dict[str, Any]) -> int:
    """No text a seat received holds another seat's secret, or nobody's, as a JSON string
    at the version it was sent (secrets change: a card drawn was in the deck before)."""
    states = states_by_version(record, sorted({v for v, _, _ in seen}))
    checked = 0
    for version, seat, text in seen:
        match = states[version]
        secrets = GAME.secrets(match.state)
        for owner, strings in secrets.items():
            if owner == seat:
                continue
            for secret in strings:
                assert json.dumps(secret) not in text, f"seat {seat} saw {secret} (of {owner}) at version {version}"
                checked += 1
    return checked


def wait_for(predicate: Any, seconds: float = 10.0) -> Any:
    """The first true value of ``predicate()``, asked every 50 ms for up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def receive_until(ws: Any, predicate: Any, limit: int = 50) -> dict[str, Any]:
    """The first message of the socket ``ws`` that ``predicate`` accepts, within ``limit``."""
    for _ in range(limit):
        message = ws.receive_json()
        if predicate(message):
            return message
    raise AssertionError("no such message")


def updated_to(version: int) -> Any:
    """A predicate for ``receive_until``: the update to ``version``."""
    return lambda m: m["type"] == "update" and m.get("version") == version


def race(*calls: Any, errors_as_answers: bool = False) -> list[Any]:
    """Run the calls at the same moment, one thread each; their answers in order (with
    ``errors_as_answers``, a call that raised answers its exception)."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = calls[i]()
        except Exception as error:
            if not errors_as_answers:
                raise
            results[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def alembic(url: str, *args: str) -> str:
    """The ``alembic`` command line of docs/ops.md run on ``url``: its output."""
    env = {**os.environ, "LUDOTECA_DATABASE_URL": url}
    done = subprocess.run([sys.executable, "-m", "alembic", "-c", "src/ludoteca/server/alembic.ini", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr
