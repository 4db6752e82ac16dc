"""Soak: the server under play and crashes for a set time, then the books checked.

N tables of the four games, each with two people-like clients (a WebSocket each, to
either server process, a little time to think, now and then a dropped connection or a
chat line) and a server bot in the third seat, on PostgreSQL + Redis with two server
processes. Every few minutes one process is killed with SIGKILL and started again; the
clients reconnect to whichever answers and send a move whose answer they did not get
again, with the same id. A finished game is followed by a new one at the same slot.

At the end, read straight from the database: every move a client had acknowledged is
stored with the number it was acknowledged with, every table's moves are numbered
without a gap, and every table replays from its seed with the open engine to the stored
status (and result, when over). Prints the figures; not a test.

    .venv/bin/python bench/soak.py --minutes 30 --tables 8 --kill-every 180
    .venv/bin/python bench/soak.py --minutes 2 --tables 4 --kill-every 40    # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from ludoteca.server.launch import ServerProcess, free_port

GAMES = ("bloodrage", "crusaders", "iwari", "hadrianswall")
BOTS = ("random", "greedy")
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


@dataclass
class Figures:
    tables: int = 0
    finished: int = 0
    acked: dict[str, dict[str, int]] = field(default_factory=dict)  # table -> move id -> number
    sent: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    kills: int = 0
    chats: int = 0


class Soak:
    def __init__(self, args: argparse.Namespace, servers: list[ServerProcess]) -> None:
        self.args = args
        self.servers = servers
        self.figures = Figures()
        self.stop = False
        self.created: list[str] = []

    # -- HTTP set-up, through whichever process answers --------------------------------

    async def call(self, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        for attempt in range(60):
            server = random.choice(self.servers)
            try:
                async with httpx.AsyncClient(base_url=server.url, timeout=20, trust_env=False) as http:
                    r = await http.request(method, path, json=body, headers=headers)
                if r.status_code < 500:
                    r.raise_for_status()
                    return r.json()
            except (httpx.TransportError, httpx.HTTPStatusError) as error:
                if isinstance(error, httpx.HTTPStatusError) and error.response.status_code < 500:
                    raise
            await asyncio.sleep(0.5 + attempt * 0.1)
        raise RuntimeError(f"{method} {path}: no process answered")

    async def open_table(self, slot: int, tokens: list[str]) -> str:
        game = GAMES[slot % len(GAMES)]
        body = {"game": game, "seats": 3, "clock": {"initial_seconds": 86_400}}
        table = (await self.call("POST", "/api/tables", tokens[0], body))["id"]
        await self.call("POST", f"/api/tables/{table}/join", tokens[1])
        await self.call("POST", f"/api/tables/{table}/bots", tokens[0], {"bot": BOTS[slot % len(BOTS)]})
        await self.call("POST", f"/api/tables/{table}/start", tokens[0])
        self.created.append(table)
        self.figures.tables += 1
        self.figures.acked[table] = {}
        return table

    async def slot(self, index: int) -> None:
        tokens = [(await self.call("POST", "/api/sessions/guest"))["token"] for _ in range(2)]
        rng = random.Random(index)
        while not self.stop:
            table = await self.open_table(index, tokens)
            done = asyncio.Event()
            await asyncio.gather(*(self.person(table, token, rng, done) for token in tokens))
            if done.is_set():
                self.figures.finished += 1

    # -- a person: a socket, a little thought, a retry with the same id ---------------

    async def person(self, table: str, token: str, rng: random.Random, done: asyncio.Event) -> None:
        pending: dict[str, Any] | None = None  # the move sent and not yet answered
        while not self.stop and not done.is_set():
            server = rng.choice(self.servers)
            url = server.url.replace("http", "ws", 1) + f"/api/tables/{table}/live"
            try:
                async with websockets.connect(url, additional_headers={"Authorization": f"Bearer {token}"},
                                              open_timeout=5, max_size=1 << 24) as ws:
                    if pending is not None:  # its answer was lost with the connection: ask again
                        await ws.send(json.dumps(pending))
                    pending = await self.play(ws, table, rng, pending, done)
            except (OSError, websockets.WebSocketException, TimeoutError):
                pass
            if not self.stop and not done.is_set():
                self.figures.reconnects += 1
                await asyncio.sleep(rng.uniform(0.2, 1.0))

    async def play(self, ws: Any, table: str, rng: random.Random, pending: dict[str, Any] | None,
                   done: asyncio.Event) -> dict[str, Any] | None:
        while not self.stop and not done.is_set():
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 20))
            except TimeoutError:
                await ws.send(json.dumps({"type": "hello"}))  # quiet for long: ask for the table again
                continue
            kind = message.get("type")
            if kind == "ack" and pending is not None and message.get("id") == pending["id"]:
                self.figures.acked[table][pending["id"]] = message["number"]
                pending = None
            elif kind == "error" and pending is not None and message.get("id") == pending["id"]:
                self.figures.refused[message.get("code", "?")] += 1
                pending = None
                await ws.send(json.dumps({"type": "hello"}))  # a fresh update to decide on
            elif kind == "update":
                if message["table"]["status"] != "playing":
                    done.set()
                    return None
                if pending is None and message["legal"]:
                    await asyncio.sleep(rng.uniform(0.05, 0.6))  # thinking
                    pending = {"type": "move", "version": message["version"], "move": rng.choice(message["legal"]),
                               "id": uuid.uuid4().hex}
                    self.figures.sent += 1
                    await ws.send(json.dumps(pending))
                    if rng.random() < 0.02:
                        return pending  # a dropped connection, the answer unread
                    if rng.random() < 0.02:
                        self.figures.chats += 1
                        await ws.send(json.dumps({"type": "chat", "text": "gl"}))
        return pending

    # -- the crashes ---------------------------------------------------------------------

    async def killer(self) -> None:
        turn = 0
        while not self.stop:
            await asyncio.sleep(self.args.kill_every)
            if self.stop:
                return
            index = turn % len(self.servers)
            victim = self.servers[index]
            turn += 1
            victim.kill()
            self.figures.kills += 1
            print(f"{time.strftime('%H:%M:%S')} killed process {index} (kill {self.figures.kills}); "
                  f"{sum(len(a) for a in self.figures.acked.values())} moves acknowledged so far", file=sys.stderr)
            await asyncio.sleep(self.args.down)
            await asyncio.to_thread(victim.start)


def check(url: str, figures: Figures, tables: list[str]) -> dict[str, Any]:
    """The books, read from the database itself (the API hides unfinished records)."""
    from sqlalchemy import create_engine, text

    from ludoteca.engine import Match
    from ludoteca.games import load

    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    lost, misnumbered, gaps, bad_replays, stored, bot_moves = [], [], [], [], 0, 0
    with engine.connect() as db:
        for table in tables:
            row = db.execute(text("SELECT game, seats, options, seed, status, result, moves_count FROM tables "
                                  "WHERE id = :id"), {"id": table}).one()
            moves = db.execute(text("SELECT number, seat, move, move_id, by_bot FROM moves WHERE table_id = :id "
                                    "ORDER BY number"), {"id": table}).all()
            stored += len(moves)
            bot_moves += sum(1 for m in moves if m.by_bot)
            if [m.number for m in moves] != list(range(1, len(moves) + 1)) or len(moves) != row.moves_count:
                gaps.append(table)
            by_id = {m.move_id: m.number for m in moves}
            for move_id, number in figures.acked.get(table, {}).items():
                if move_id not in by_id:
                    lost.append((table, move_id))
                elif by_id[move_id] != number:
                    misnumbered.append((table, move_id))
            try:
                match = Match.new(row.game, row.seats, row.options, row.seed, game=load(row.game))
                for m in moves:
                    match.play(m.seat, m.move)
                result = match.result()
                if (row.status == "over") != (result is not None) or (
                        result is not None and json.dumps(result.to_json(), sort_keys=True)
                        != json.dumps(row.result, sort_keys=True)):
                    bad_replays.append(table)
            except Exception as error:
                bad_replays.append(f"{table}: {type(error).__name__}: {error}")
    engine.dispose()
    return {"moves stored": stored, "bot moves": bot_moves, "lost (acknowledged, not stored)": len(lost),
            "acknowledged with another number": len(misnumbered), "tables with a gap": len(gaps),
            "tables that do not replay": len(bad_replays), "_details": (lost, misnumbered, gaps, bad_replays)}


async def run(args: argparse.Namespace, servers: list[ServerProcess]) -> Figures:
    soak = Soak(args, servers)
    slots = [asyncio.create_task(soak.slot(i)) for i in range(args.tables)]
    killer = asyncio.create_task(soak.killer())
    started = time.monotonic()
    while time.monotonic() - started < args.minutes * 60:
        await asyncio.sleep(1)
        for task in slots:
            if task.done() and task.exception():
                raise task.exception()  # type: ignore[misc]
    soak.stop = True
    killer.cancel()
    await asyncio.sleep(3)  # answers in flight arrive
    for task in slots:
        task.cancel()
    await asyncio.gather(*slots, killer, return_exceptions=True)
    soak.figures.tables_ids = soak.created  # type: ignore[attr-defined]
    return soak.figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--kill-every", type=float, default=180, help="seconds between two kills")
    parser.add_argument("--down", type=float, default=3, help="seconds a killed process stays down")
    parser.add_argument("--db", default="", help="a PostgreSQL URL (default: a throwaway database, dropped after)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    args = parser.parse_args()
    import psycopg

    name = ""
    url = args.db
    if not url:
        name = f"ludoteca_soak_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        url = PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    workdir = Path(tempfile.mkdtemp(prefix="ludoteca-soak-"))
    env = {**os.environ, "LUDOTECA_DATABASE_URL": url, "LUDOTECA_REDIS_URL": args.redis,
           "LUDOTECA_REDIS_PREFIX": f"soak-{uuid.uuid4().hex[:6]}:", "LUDOTECA_SECRET": "soak",
           "LUDOTECA_LOGIN_ATTEMPTS_PER_MINUTE": "1000000", "LUDOTECA_BOT_SECONDS": "0.3",
           "LUDOTECA_PASSWORD_TIME_COST": "1", "LUDOTECA_PASSWORD_MEMORY_KIB": "8192"}
    servers = []
    for i in range(2):
        port = free_port()
        servers.append(ServerProcess([sys.executable, "-c", f"from ludoteca.server.main import run; run(port={port})"],
                                     port=port, env=env, cwd=workdir, log=workdir / f"server-{i}.log", seconds=60))
    started = time.monotonic()
    try:
        for server in servers:
            server.start()
        figures = asyncio.run(run(args, servers))
    finally:
        for server in servers:
            server.stop()
    books = check(url, figures, figures.tables_ids)  # type: ignore[attr-defined]
    details = books.pop("_details")
    report = {"minutes": round((time.monotonic() - started) / 60, 1), "tables": figures.tables,
              "games finished": figures.finished, "server processes": len(servers), "kills (SIGKILL)": figures.kills,
              "moves sent by people": figures.sent,
              "moves acknowledged to people": sum(len(a) for a in figures.acked.values()),
              "moves refused (lost races)": dict(figures.refused), "reconnects": figures.reconnects,
              "chat lines": figures.chats, **books, "server logs": str(workdir)}
    width = max(len(k) for k in report)
    for key, value in report.items():
        print(f"{key:<{width}}  {value}")
    if any(details):
        print("details:", json.dumps([list(map(str, d))[:20] for d in details]), file=sys.stderr)
    if name:
        with contextlib.suppress(Exception), psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
