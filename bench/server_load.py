"""Server load: N live tables, every seat a simulated client on its own WebSocket that
plays a random legal move whenever it may; prints moves per second, the time from a move
to every client of its table having the update (p50, p99), and the server's memory.

    .venv/bin/python bench/server_load.py --game drawbid --tables 100 --seconds 20
    .venv/bin/python bench/server_load.py --game iwari --seats 3 --db postgresql://postgres@127.0.0.1/bench

The game is any registered game id; ``--plugin FILE.py`` imports a file that registers
one (in the server and here), as a separately installed package would. The server runs in
its own process (``ludoteca serve``'s app under uvicorn); the clients in this one. Not a
test: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from ludoteca.testing.launch import ONE_ADDRESS_LOAD, ServerProcess, free_port

ROOT = Path(__file__).resolve().parent.parent
TEST_GAME = ROOT / "tests" / "server" / "drawbid.py"

LAUNCHER = """
import os, sys, uvicorn
# The plugin files are registered by the app factory below, in every server process
# (uvicorn's workers are spawned: they import the factory by name, not this script).
os.environ["LUDOTECA_BENCH_PLUGINS"] = os.pathsep.join(sys.argv[3:])
sys.path.insert(0, os.environ["LUDOTECA_BENCH_DIR"])
# The WebSocket options `ludoteca serve` gives (permessage-deflate as LUDOTECA_WS_COMPRESSION says).
from ludoteca.server.kernel.config import Settings
uvicorn.run("server_load:plugin_app", factory=True, host="127.0.0.1", port=int(sys.argv[1]),
            workers=int(sys.argv[2]), log_level="warning", ws_max_size=1 << 20,
            ws_per_message_deflate=Settings.from_env().ws_compression)
"""


def plugin_app() -> Any:
    """In a server process: register the plugin files' games, then the app."""
    import importlib

    from ludoteca.games import register
    from ludoteca.server.app import create_app

    for path in filter(None, os.environ.get("LUDOTECA_BENCH_PLUGINS", "").split(os.pathsep)):
        sys.path.insert(0, os.path.dirname(path))
        register(importlib.import_module(os.path.basename(path).removesuffix(".py")).GAME)
    return create_app()


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def family(pid: int) -> list[int]:
    """The process and its children (uvicorn's workers)."""
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int(_stat(int(entry.name))[1]) == pid:
                    children.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return [pid, *children]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children (all their threads)."""
    total = 0
    for member in family(pid):
        try:
            fields = _stat(member)
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    total = 0.0
    for member in family(pid):
        try:
            lines = Path(f"/proc/{member}/status").read_text().splitlines()
        except OSError:
            continue
        total += sum(int(line.split()[1]) / 1024 for line in lines if line.startswith("VmRSS:"))
    return total


class Table:
    def __init__(self, table_id: str, seats: int) -> None:
        self.id = table_id
        self.seats = seats
        self.sent: dict[int, float] = {}  # version -> when the move making it was sent
        self.seen: dict[int, int] = {}  # version -> clients that have it
        self.newest = 0
        self.over = False


class Load:
    def __init__(self, base: str, game: str, seats: int, options: dict[str, Any], bots: int = 0) -> None:
        self.base = base
        self.bots = bots
        self.game = game
        self.seats = seats
        self.options = options
        self.latencies: list[float] = []
        self.moves = 0
        self.errors = 0
        self.games = 0
        self.measuring = False
        self.stop = False
        self.ready = 0
        self.connected = 0  # clients that have had their first update

    async def guest(self, http: httpx.AsyncClient) -> str:
        r = await http.post("/api/sessions/guest")
        r.raise_for_status()
        return r.json()["token"]

    async def open_table(self, http: httpx.AsyncClient, tokens: list[str]) -> Table:
        headers = [{"Authorization": f"Bearer {t}"} for t in tokens]
        r = await http.post("/api/tables", json={"game": self.game, "seats": self.seats, "options": self.options,
                                                 "clock": {"initial_seconds": 86_400}}, headers=headers[0])
        r.raise_for_status()
        table = Table(r.json()["id"], self.seats - self.bots)
        for h in headers[1:self.seats - self.bots]:
            (await http.post(f"/api/tables/{table.id}/join", headers=h)).raise_for_status()
        for _ in range(self.bots):
            (await http.post(f"/api/tables/{table.id}/bots", json={"bot": "random"}, headers=headers[0])
             ).raise_for_status()
        (await http.post(f"/api/tables/{table.id}/start", headers=headers[0])).raise_for_status()
        return table

    async def slot(self, index: int, http: httpx.AsyncClient, ready: asyncio.Event, gate: asyncio.Semaphore,
                   ) -> None:
        """One live table at a time in this slot; a new one when a game ends. Every slot
        sets up its first table before any plays, so the setup does not count."""
        async with gate:
            tokens = [await self.guest(http) for _ in range(self.seats - self.bots)]
            table = await self.open_table(http, tokens)
        self.ready += 1
        await ready.wait()
        rng = random.Random(index)
        while not self.stop:
            await asyncio.gather(*(self.client(table, token, rng) for token in tokens))
            self.games += 1
            if not self.stop:
                table = await self.open_table(http, tokens)

    async def client(self, table: Table, token: str, rng: random.Random) -> None:
        url = self.base.replace("http", "ws", 1) + f"/api/tables/{table.id}/live?token={token}"
        async with websockets.connect(url, max_size=1 << 22) as ws:
            while not self.stop and not table.over:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                except TimeoutError:
                    continue
                kind = message["type"]
                if kind == "update" and not getattr(ws, "counted", False):
                    ws.counted = True  # type: ignore[attr-defined]
                    self.connected += 1
                if kind == "update":
                    version = message["version"]
                    if version > table.newest:  # moves by anyone, bots included, counted once
                        if self.measuring:
                            self.moves += version - table.newest
                        table.newest = version
                    count = table.seen[version] = table.seen.get(version, 0) + 1
                    if count == table.seats and version in table.sent:
                        if self.measuring:
                            self.latencies.append(time.perf_counter() - table.sent.pop(version))
                        else:
                            table.sent.pop(version)
                    if message["table"]["status"] != "playing":
                        table.over = True
                        break
                    if message["legal"]:
                        move = rng.choice(message["legal"])
                        table.sent.setdefault(version + 1, time.perf_counter())
                        await ws.send(json.dumps({"type": "move", "version": version, "move": move}))
                elif kind == "error" and self.measuring:
                    self.errors += 1  # a simultaneous decision lost its race: it plays on the next update


async def run(args: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    load = Load(base, args.game, args.seats, json.loads(args.options), args.bots)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        ready, gate = asyncio.Event(), asyncio.Semaphore(20)
        slots = [asyncio.create_task(load.slot(i, http, ready, gate)) for i in range(args.tables)]
        setup = time.perf_counter()
        while load.ready < args.tables:
            await asyncio.sleep(0.2)
        print(f"{args.tables} tables set up in {time.perf_counter() - setup:.1f} s", file=sys.stderr)
        ready.set()
        # Every client connected and served before the clock starts: 1,000 sockets
        # opening at once are a different load (sign-in, snapshot, chat) from play.
        clients = args.tables * (args.seats - args.bots)
        while load.connected < clients:
            await asyncio.sleep(0.2)
        print(f"{clients} clients connected in {time.perf_counter() - setup:.1f} s", file=sys.stderr)
        await asyncio.sleep(args.warmup)
        load.measuring = True
        started = time.perf_counter()
        server_cpu, client_cpu = cpu_seconds(pid), time.process_time()
        memory = []
        while time.perf_counter() - started < args.seconds:
            await asyncio.sleep(1)
            memory.append(rss_mb(pid))
        elapsed = time.perf_counter() - started
        server_cpu, client_cpu = cpu_seconds(pid) - server_cpu, time.process_time() - client_cpu
        load.measuring = False
        load.stop = True
        for task in slots:
            task.cancel()
        await asyncio.gather(*slots, return_exceptions=True)
    lat = sorted(load.latencies) or [0.0]
    return {
        "game": args.game, "tables": args.tables, "server_processes": args.workers,
        "seats": args.seats, "bot_seats": args.bots,
        "storage": args.db.split(":")[0],
        "seconds": round(elapsed, 1), "moves": load.moves, "moves_per_s": round(load.moves / elapsed, 1),
        "refused (lost races)": load.errors, "games_finished": load.games,
        "p50_ms": round(statistics.median(lat) * 1000, 1), "p99_ms": round(lat[int(len(lat) * 0.99) - 1] * 1000, 1)
        if len(lat) > 1 else round(lat[0] * 1000, 1), "server_rss_mb_max": round(max(memory or [0]), 1),
        # CPU per move does not depend on what else the machine runs, unlike the rates.
        "server_cpu_ms_per_move": round(server_cpu / max(1, load.moves) * 1000, 2),
        "client_cpu_ms_per_move": round(client_cpu / max(1, load.moves) * 1000, 2),
        "load_average": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="drawbid")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--options", default="{}", help="the game's options as JSON")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--bots", type=int, default=0, help="seats per table played by the server's bots")
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--db", default="", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--redis", default="")
    parser.add_argument("--workers", type=int, default=1, help="server processes (needs --redis)")
    parser.add_argument("--plugin", action="append", default=[], help="a .py file registering GAME")
    args = parser.parse_args()
    plugins = list(args.plugin)
    if args.game == "drawbid" and not plugins:
        plugins.append(str(TEST_GAME))
    for path in plugins:
        if not Path(path).is_file():
            parser.error(f"no such plugin file: {path}")
    workdir = tempfile.mkdtemp(prefix="ludoteca-bench-")
    args.db = args.db or f"sqlite:///{workdir}/bench.db"
    port = free_port()
    env = {**os.environ, "LUDOTECA_BENCH_DIR": str(Path(__file__).resolve().parent),
           "LUDOTECA_DATABASE_URL": args.db, "LUDOTECA_SECRET": "bench",
           "LUDOTECA_LOGIN_ATTEMPTS_PER_MINUTE": "1000000", "LUDOTECA_ALLOW_GUESTS": "1", **ONE_ADDRESS_LOAD}
    if args.redis:
        env["LUDOTECA_REDIS_URL"] = args.redis
    if args.workers > 1 and not args.redis:
        parser.error("--workers needs --redis: the processes tell each other's clients through it")
    server = ServerProcess([sys.executable, "-c", LAUNCHER, str(port), str(args.workers), *plugins], port=port,
                           env=env, cwd=Path(workdir))
    try:
        server.start()
        assert server.proc is not None
        figures = asyncio.run(run(args, server.url, server.proc.pid))
    finally:
        server.stop()
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main()
