"""Tournaments across real server processes: two processes sharing PostgreSQL and Redis
never pair a round twice, and kill -9 at any moment loses nothing (SQLite, restarted
again and again until the podium)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import httpx
import pytest
import sqlalchemy as sa

from ludoteca.testing import launch
from ludoteca.testing.launch import free_port
from tests.server.conftest import HERE, Api, server_env
from tests.server.tournaments.helpers import check_standings, create, wait_for


class ServerProcess(launch.ServerProcess):
    """A server process with Quick Pick (and Draw and Bid) registered."""

    def __init__(self, env: dict[str, str]) -> None:
        port = free_port()
        super().__init__([sys.executable, "-m", "tests.serve", str(port), "tests.server.drawbid:GAME",
                          "tests.server.tournaments.quick:GAME"], port=port,
                         env={**os.environ, **env, "PYTHONPATH": str(HERE.parent.parent)}, cwd=HERE.parent.parent,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.start()


def _rounds_once(url: str, tournament_id: str) -> None:
    """Every round row once, and every game's table in one round (from the database)."""
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as db:
        rounds = db.execute(sa.text("SELECT number FROM tournament_rounds WHERE tournament_id = :t ORDER BY number"),
                            {"t": tournament_id}).scalars().all()
        games = db.execute(sa.text("SELECT round, players FROM tournament_games WHERE tournament_id = :t"),
                           {"t": tournament_id}).all()
    engine.dispose()
    assert rounds == list(range(1, len(rounds) + 1))
    for number in rounds:
        seated = [p for r, players in games if r == number
                  for p in (players if isinstance(players, list) else json.loads(players))]
        assert len(seated) == len(set(seated)), number  # nobody at two tables of one round


@pytest.mark.postgres
@pytest.mark.redis
def test_two_processes_never_pair_a_round_twice(pg_url, redis_url):
    env = server_env(pg_url, LUDOTECA_REDIS_URL=redis_url, LUDOTECA_REDIS_PREFIX=f"ludoteca-tour-{os.getpid()}:",
                     LUDOTECA_CLOCK_TICK_SECONDS="0.05")
    one, two = ServerProcess(env), ServerProcess(env)
    try:
        with httpx.Client(base_url=one.url, timeout=10) as h1, httpx.Client(base_url=two.url, timeout=10) as h2:
            organiser = Api(h1)
            t = create(organiser, bots=12, rounds=3)
            done = wait_for(h2, t["id"], seconds=90)
            assert [len(r["tables"]) for r in done["rounds_played"]] == [3, 3, 3]
            check_standings(h1, done)
            assert h1.get(f"/api/tournaments/{t['id']}").json()["standings"] == done["standings"]
        _rounds_once(pg_url, t["id"])
    finally:
        one.stop()
        two.stop()


@pytest.mark.slow
def test_kill_9_at_any_moment_loses_nothing(sqlite_url):
    process = ServerProcess(server_env(sqlite_url, LUDOTECA_CLOCK_TICK_SECONDS="0.05"))
    try:
        with httpx.Client(base_url=process.url, timeout=10) as http:
            organiser = Api(http)
            t = create(organiser, bots=12, rounds=3)
        # Killed at staggered moments while it starts, pairs, plays and records.
        for pause in (0.35, 0.8, 0.25, 0.6):
            time.sleep(pause)
            process.kill()
            process.start()
        with httpx.Client(base_url=process.url, timeout=10) as http:
            done = wait_for(http, t["id"], seconds=90)
            assert [len(r["tables"]) for r in done["rounds_played"]] == [3, 3, 3]
            for rnd in done["rounds_played"]:
                assert sorted(p for table in rnd["tables"] for p in table["players"]) == sorted(
                    e["id"] for e in done["entrants"])
                assert all(table["status"] == "over" and table["ranks"] for table in rnd["tables"])
            check_standings(http, done)
        _rounds_once(sqlite_url, t["id"])
    finally:
        process.stop()
