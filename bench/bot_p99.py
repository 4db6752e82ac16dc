"""People's moves while bots think: N tables of bots searching (each decision a full
budget, e.g. one second of ISMCTS) beside M tables of people (two simulated clients each,
moving a short pause after each update), in one server process; prints the p50 and p99
of the time from a person's move being sent to every client of its table holding the
update, the people's moves per second and the bots' moves.

    .venv/bin/python bench/bot_p99.py --bot-tables 20 --people-tables 20 --seconds 30
    LUDOTECA_BOT_PROCESSES=0 .venv/bin/python bench/bot_p99.py   # bots think in threads

Bots think where the server puts them (worker processes unless LUDOTECA_BOT_PROCESSES=0).
The people play the counter game (the plug-in file of the boardgame.io anchor harness,
docs/ops.md "Measuring", given with ``--plugin``; found by itself when the harness is kept
beside the project) or any installed game given with ``--game``. Not a test: it prints
figures and asserts nothing.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import LAUNCHER

from ludoteca.testing.launch import ONE_ADDRESS_LOAD, ServerProcess, free_port


class People:
    def __init__(self, base: str, pause: float) -> None:
        self.base = base
        self.pause = pause
        self.latencies: list[float] = []
        self.moves = 0
        self.measuring = False
        self.stop = False

    async def table(self, http: httpx.AsyncClient, game: str) -> tuple[str, list[str]]:
        tokens = []
        for _ in range(2):
            r = await http.post("/api/sessions/guest")
            r.raise_for_status()
            tokens.append(r.json()["token"])
        headers = [{"Authorization": f"Bearer {t}"} for t in tokens]
        r = await http.post("/api/tables", json={"game": game, "seats": 2, "clock": {"initial_seconds": 86_400}},
                            headers=headers[0])
        r.raise_for_status()
        table_id = r.json()["id"]
        (await http.post(f"/api/tables/{table_id}/join", headers=headers[1])).raise_for_status()
        (await http.post(f"/api/tables/{table_id}/start", headers=headers[0])).raise_for_status()
        return table_id, tokens

    async def play(self, http: httpx.AsyncClient, game: str, index: int) -> None:
        rng = random.Random(index)
        while not self.stop:
            table_id, tokens = await self.table(http, game)
            sent: dict[int, float] = {}
            seen: dict[int, int] = {}
            await asyncio.gather(*(self.client(table_id, token, rng, sent, seen) for token in tokens))

    async def client(self, table_id: str, token: str, rng: random.Random, sent: dict[int, float],
                     seen: dict[int, int]) -> None:
        url = self.base.replace("http", "ws", 1) + f"/api/tables/{table_id}/live?token={token}"
        async with websockets.connect(url, max_size=1 << 22) as ws:
            while not self.stop:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 5))
                except TimeoutError:
                    continue
                if message["type"] != "update":
                    continue
                version = message["version"]
                seen[version] = seen.get(version, 0) + 1
                if seen[version] == 2 and version in sent:
                    elapsed = time.perf_counter() - sent.pop(version)
                    if self.measuring:
                        self.latencies.append(elapsed)
                        self.moves += 1
                if message["table"]["status"] != "playing":
                    return
                if message["legal"]:
                    await asyncio.sleep(self.pause * rng.uniform(0.5, 1.5))
                    sent.setdefault(version + 1, time.perf_counter())
                    move = rng.choice(message["legal"])
                    await ws.send(json.dumps({"type": "move", "version": version, "move": move}))


async def bot_tables(http: httpx.AsyncClient, count: int, game: str, bot: str) -> list[str]:
    r = await http.post("/api/sessions/guest")
    r.raise_for_status()
    headers = {"Authorization": f"Bearer {r.json()['token']}"}
    ids = []
    for _ in range(count):
        # The creator's seat stays the random bot it was measured with (zombie_level).
        r = await http.post("/api/tables", json={"game": game, "seats": 2, "clock": {"initial_seconds": 86_400},
                                                 "zombie_level": "random"}, headers=headers)
        r.raise_for_status()
        table_id = r.json()["id"]
        # The creator sits at seat 0 and leaves once the bots are seated: both seats think.
        (await http.post(f"/api/tables/{table_id}/bots", json={"bot": bot}, headers=headers)).raise_for_status()
        (await http.post(f"/api/tables/{table_id}/start", headers=headers)).raise_for_status()
        (await http.post(f"/api/tables/{table_id}/leave", headers=headers)).raise_for_status()
        ids.append(table_id)
    return ids


async def versions(http: httpx.AsyncClient, ids: list[str]) -> int:
    total = 0
    for table_id in ids:
        r = await http.get(f"/api/tables/{table_id}")
        total += r.json()["version"] if r.status_code == 200 else 0
    return total


async def run(args: argparse.Namespace, base: str) -> dict[str, Any]:
    people = People(base, args.pause)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        ids = await bot_tables(http, args.bot_tables, args.bot_game, args.bot)
        players = [asyncio.create_task(people.play(http, args.game, i)) for i in range(args.people_tables)]
        await asyncio.sleep(args.warmup)
        bot_before = await versions(http, ids)
        people.measuring = True
        started = time.perf_counter()
        await asyncio.sleep(args.seconds)
        people.measuring = False
        elapsed = time.perf_counter() - started
        bot_moves = await versions(http, ids) - bot_before
        people.stop = True
        await asyncio.gather(*players, return_exceptions=True)
    lat = sorted(people.latencies) or [0.0]
    return {
        "bot_tables": args.bot_tables, "bot": args.bot, "bot_game": args.bot_game,
        "bot_processes": os.environ.get("LUDOTECA_BOT_PROCESSES", "default"),
        "people_tables": args.people_tables, "game": args.game, "seconds": round(elapsed, 1),
        "people_moves_per_s": round(people.moves / elapsed, 1),
        "p50_ms": round(statistics.median(lat) * 1000, 1),
        "p99_ms": round(lat[max(0, int(len(lat) * 0.99) - 1)] * 1000, 1),
        "bot_moves": bot_moves,
        "load_average": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="counter")
    parser.add_argument("--plugin", action="append", default=[], help="a .py file registering GAME")
    parser.add_argument("--bot-game", default="bloodrage")
    parser.add_argument("--bot", default="ismcts")
    parser.add_argument("--bot-tables", type=int, default=20)
    parser.add_argument("--bot-seconds", type=float, default=1.0)
    parser.add_argument("--people-tables", type=int, default=20)
    parser.add_argument("--pause", type=float, default=0.2, help="seconds a person takes to move, on average")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--db", default="")
    args = parser.parse_args()
    plugins = list(args.plugin)
    if args.game == "counter" and not plugins:
        # The counter game's plugin file, from the anchor harness kept beside the project.
        found = [p / "shared" / "anchors" / "counter" / "counter_plugin.py" for p in Path(__file__).resolve().parents]
        found = [p for p in found if p.is_file()]
        if not found:
            parser.error("the counter game: give --plugin .../counter_plugin.py")
        plugins.append(str(found[0]))
    workdir = tempfile.mkdtemp(prefix="ludoteca-bench-")
    db = args.db or f"sqlite:///{workdir}/bench.db"
    port = free_port()
    env = {**os.environ, "LUDOTECA_BENCH_DIR": str(Path(__file__).resolve().parent),
           "LUDOTECA_DATABASE_URL": db, "LUDOTECA_SECRET": "bench",
           "LUDOTECA_LOGIN_ATTEMPTS_PER_MINUTE": "1000000", "LUDOTECA_ALLOW_GUESTS": "1",
           "LUDOTECA_BOT_SECONDS": str(args.bot_seconds), **ONE_ADDRESS_LOAD}
    server = ServerProcess([sys.executable, "-c", LAUNCHER, str(port), "1", *plugins], port=port, env=env,
                           cwd=Path(workdir))
    try:
        server.start()
        figures = asyncio.run(run(args, server.url))
    finally:
        server.stop()
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main()
