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

With ``--attackers``, the run alternates phases of ``--phase-seconds``: without attackers,
then with them (bench/attackers.py, in a process of its own: login floods, deep JSON,
slow headers and bodies, sockets that never read, chat spam, 8 MB and 20,000-line heads,
undo loops, a hundred connections from one address), and so on. The players' move
latency (sent until acknowledged, on one connection) is kept per phase, so its p99 with
attackers is set against the p99 without them measured in the same minutes of a shared,
noisy machine: per pair of phases and over the whole run. Nothing is lifted for anyone:
the players come through 127.0.0.1, which the server trusts as a proxy, each slot with an
address of its own in ``X-Forwarded-For`` (as people behind a reverse proxy), and meet
the per-address and per-account limits under that address; each attacker connects from
its own address, 127.0.0.2 and up, which is no proxy, so every limit applies to it in
full, connections per address included, and its forged ``X-Forwarded-For`` is ignored.

    .venv/bin/python bench/soak.py --minutes 30 --tables 8 --kill-every 180
    .venv/bin/python bench/soak.py --minutes 2 --tables 4 --kill-every 40    # a quick look
    .venv/bin/python bench/soak.py --minutes 30 --attackers all --phase-seconds 60 --kill-every 150
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

from ludoteca.testing.launch import ServerProcess, free_port

sys.path.insert(0, str(Path(__file__).resolve().parent))
from attackers import ATTACKERS  # beside this file, not in a package

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
    latency: dict[int, list[float]] = field(default_factory=dict)  # phase -> move latencies (ms)
    kill_phases: list[int] = field(default_factory=list)
    answers: dict[str, Counter[str]] = field(default_factory=dict)  # attacker -> answer -> count
    attack_failures: list[str] = field(default_factory=list)
    server_cpu: dict[int, float] = field(default_factory=dict)  # phase -> CPU seconds of the server processes
    phase_wall: dict[int, float] = field(default_factory=dict)  # phase -> seconds sampled


def process_cpu_seconds(pid: int) -> float | None:
    """User and system CPU time of ``pid`` and its threads (Linux's /proc), or None."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Soak:
    def __init__(self, args: argparse.Namespace, servers: list[ServerProcess]) -> None:
        self.args = args
        self.servers = servers
        self.figures = Figures()
        self.stop = False
        self.created: list[str] = []
        self.playing: set[str] = set()  # tables in play now: the attackers' targets
        self.phase = 0  # odd phases have attackers (when there are any)
        self.phase_count = max(2, 2 * round(args.minutes * 60 / args.phase_seconds / 2))

    @staticmethod
    def address(slot: int) -> dict[str, str]:
        """The slot's own address, given by the trusted proxy (127.0.0.1) the players come through."""
        return {"X-Forwarded-For": f"10.9.{slot // 250}.{slot % 250 + 1}"}

    # -- HTTP set-up, through whichever process answers --------------------------------

    async def call(self, method: str, path: str, token: str | None = None, body: Any = None,
                   slot: int = 0) -> Any:
        headers = {**self.address(slot), **({"Authorization": f"Bearer {token}"} if token else {})}
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
        table = (await self.call("POST", "/api/tables", tokens[0], body, slot))["id"]
        await self.call("POST", f"/api/tables/{table}/join", tokens[1], slot=slot)
        await self.call("POST", f"/api/tables/{table}/bots", tokens[0], {"bot": BOTS[slot % len(BOTS)]}, slot)
        await self.call("POST", f"/api/tables/{table}/start", tokens[0], slot=slot)
        self.created.append(table)
        self.figures.tables += 1
        self.figures.acked[table] = {}
        return table

    async def slot(self, index: int) -> None:
        tokens = [(await self.call("POST", "/api/sessions/guest", slot=index))["token"] for _ in range(2)]
        rng = random.Random(index)
        while not self.stop:
            table = await self.open_table(index, tokens)
            done = asyncio.Event()
            self.playing.add(table)
            await asyncio.gather(*(self.person(table, token, rng, done, index) for token in tokens))
            self.playing.discard(table)
            if done.is_set():
                self.figures.finished += 1

    # -- a person: a socket, a little thought, a retry with the same id ---------------

    async def person(self, table: str, token: str, rng: random.Random, done: asyncio.Event, slot: int) -> None:
        pending: dict[str, Any] | None = None  # the move sent and not yet answered
        while not self.stop and not done.is_set():
            server = rng.choice(self.servers)
            url = server.url.replace("http", "ws", 1) + f"/api/tables/{table}/live"
            try:
                async with websockets.connect(url, additional_headers={"Authorization": f"Bearer {token}",
                                                                       **self.address(slot)},
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
        # A move sent again after a reconnect is not timed: its time holds the outage.
        sent_at: tuple[float, int] | None = None  # when the pending move was sent here, in which phase
        while not self.stop and not done.is_set():
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 20))
            except TimeoutError:
                await ws.send(json.dumps({"type": "hello"}))  # quiet for long: ask for the table again
                continue
            kind = message.get("type")
            if kind == "ack" and pending is not None and message.get("id") == pending["id"]:
                self.figures.acked[table][pending["id"]] = message["number"]
                if sent_at is not None and sent_at[1] < self.phase_count:
                    self.figures.latency.setdefault(sent_at[1], []).append(1000 * (time.monotonic() - sent_at[0]))
                pending, sent_at = None, None
            elif kind == "error" and pending is not None and message.get("id") == pending["id"]:
                self.figures.refused[message.get("code", "?")] += 1
                pending, sent_at = None, None
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
                    sent_at = (time.monotonic(), self.phase)
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
            self.figures.kill_phases.append(self.phase)
            print(f"{time.strftime('%H:%M:%S')} killed process {index} (kill {self.figures.kills}); "
                  f"{sum(len(a) for a in self.figures.acked.values())} moves acknowledged so far", file=sys.stderr)
            await asyncio.sleep(self.args.down)
            await asyncio.to_thread(victim.start)

    # -- the server's CPU per phase: a figure that load on the machine hardly moves ------

    async def cpu_sampler(self) -> None:
        """Every second, the CPU time the server processes used since the last look,
        counted to the phase under way. A killed process's last second is lost, a
        restarted one's start-up counted: both fall as often in calm as in loud phases."""
        last: dict[int, float] = {}
        while not self.stop:
            started = time.monotonic()
            await asyncio.sleep(1)
            phase = self.phase
            for server in self.servers:
                pid = server.proc.pid if server.proc is not None else None
                seconds = process_cpu_seconds(pid) if pid is not None else None
                if pid is None or seconds is None:
                    continue
                self.figures.server_cpu[phase] = self.figures.server_cpu.get(phase, 0.0) + seconds - last.get(pid, 0.0)
                last[pid] = seconds
            self.figures.phase_wall[phase] = self.figures.phase_wall.get(phase, 0.0) + time.monotonic() - started

    # -- the attackers, every other phase ------------------------------------------------

    async def phases(self) -> None:
        """Phase 0 without attackers, phase 1 with, and so on, each ``--phase-seconds``, as
        many as the run's minutes hold (at least one pair)."""
        while not self.stop and self.phase < self.phase_count:
            if self.phase % 2 == 0:
                await asyncio.sleep(self.args.phase_seconds)
            else:
                await self.attack(self.args.phase_seconds)
            self.phase += 1

    async def attack(self, seconds: float) -> None:
        # At the lowest CPU priority: they stand for attackers on other machines, whose own
        # work is not the server's; what they send is still answered at the server's priority.
        command = [sys.executable, str(Path(__file__).resolve().parent / "attackers.py"), "--seconds", str(seconds),
                   "--only", ",".join(self.args.attacker_names), "--nice", "19"]
        for server in self.servers:
            command += ["--server", server.url]
        for table in sorted(self.playing):
            command += ["--table", table]
        process = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE,
                                                       stderr=asyncio.subprocess.PIPE)
        try:
            out, err = await asyncio.wait_for(process.communicate(), seconds + 60)
        except TimeoutError:
            self.figures.attack_failures.append("the attackers did not stop in time")
            return
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        try:
            counts = json.loads(out.decode().strip().splitlines()[-1])
        except (ValueError, IndexError):
            self.figures.attack_failures.append(err.decode(errors="replace")[-500:])
            return
        for name, answers in counts.items():
            self.figures.answers.setdefault(name, Counter()).update(answers)


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
    phases = asyncio.create_task(soak.phases()) if args.attacker_names else None
    sampler = asyncio.create_task(soak.cpu_sampler())
    started = time.monotonic()
    while (not phases.done()) if phases is not None else time.monotonic() - started < args.minutes * 60:
        await asyncio.sleep(1)
        for task in slots:
            if task.done() and task.exception():
                raise task.exception()  # type: ignore[misc]
    soak.stop = True
    killer.cancel()
    if phases is not None:
        phases.cancel()
        await asyncio.gather(phases, return_exceptions=True)
    await asyncio.sleep(3)  # answers in flight arrive
    for task in slots:
        task.cancel()
    await asyncio.gather(*slots, killer, sampler, return_exceptions=True)
    soak.figures.tables_ids = soak.created  # type: ignore[attr-defined]
    return soak.figures


def p99(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def latency_pairs(figures: Figures) -> list[dict[str, Any]]:
    """Each pair of phases (without, with attackers): moves timed, p99s and their ratio."""
    pairs = []
    for quiet in range(0, max(figures.latency, default=-1) + 1, 2):
        calm, loud = figures.latency.get(quiet, []), figures.latency.get(quiet + 1, [])
        a, b = p99(calm), p99(loud)
        pairs.append({"phases": [quiet, quiet + 1], "moves": [len(calm), len(loud)],
                      "p99 ms": [None if a is None else round(a, 1), None if b is None else round(b, 1)],
                      "ratio": round(b / a, 2) if a and b is not None else None,
                      "kills": [figures.kill_phases.count(quiet), figures.kill_phases.count(quiet + 1)],
                      "server CPU s/min": [cpu_per_minute(figures, quiet), cpu_per_minute(figures, quiet + 1)]})
    return pairs


def cpu_per_minute(figures: Figures, *phases: int) -> float | None:
    """The server processes' CPU seconds per minute of the given phases."""
    wall = sum(figures.phase_wall.get(p, 0.0) for p in phases)
    return round(60 * sum(figures.server_cpu.get(p, 0.0) for p in phases) / wall, 1) if wall else None


def show(report: dict[str, Any], pairs: list[dict[str, Any]], answers: dict[str, dict[str, int]]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    books = Table(title="Soak", show_header=False)
    for key, value in report.items():
        books.add_row(key, str(value))
    console.print(books)
    if pairs:
        phases = Table(title="Players' move p99 (sent until acknowledged), without and with attackers")
        for column in ("phases", "moves", "p99 without", "p99 with", "ratio", "kills", "server CPU s/min"):
            phases.add_column(column, justify="right")
        for pair in pairs:
            phases.add_row(f"{pair['phases'][0]}-{pair['phases'][1]}", f"{pair['moves'][0]} / {pair['moves'][1]}",
                           f"{pair['p99 ms'][0]} ms", f"{pair['p99 ms'][1]} ms", str(pair["ratio"]),
                           f"{pair['kills'][0]} / {pair['kills'][1]}",
                           " / ".join(str(v) for v in pair["server CPU s/min"]))
        console.print(phases)
    if answers:
        attackers = Table(title="How the attackers were answered (over every attack phase)")
        attackers.add_column("attacker")
        attackers.add_column("answers")
        for name, counts in answers.items():
            attackers.add_row(name, ", ".join(f"{answer}: {n:,}" for answer, n in
                                              sorted(counts.items(), key=lambda item: -item[1])))
        console.print(attackers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--kill-every", type=float, default=180, help="seconds between two kills")
    parser.add_argument("--down", type=float, default=3, help="seconds a killed process stays down")
    parser.add_argument("--attackers", default="", help=f"'all' or comma-separated, of: {', '.join(ATTACKERS)} "
                                                        "(default: none, no phases)")
    parser.add_argument("--phase-seconds", type=float, default=60, help="length of a phase with or without attackers")
    parser.add_argument("--db", default="", help="a PostgreSQL URL (default: a throwaway database, dropped after)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--journal", default=str(Path(__file__).resolve().parent / "results" / "soak.jsonl"),
                        help="a JSON line per run is added here ('' for none)")
    args = parser.parse_args()
    args.attacker_names = (list(ATTACKERS) if args.attackers == "all"
                           else [n.strip() for n in args.attackers.split(",") if n.strip()])
    if unknown := set(args.attacker_names) - set(ATTACKERS):
        parser.error(f"no such attacker: {', '.join(sorted(unknown))}")
    import psycopg

    name = ""
    url = args.db
    if not url:
        name = f"ludoteca_soak_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        url = PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    workdir = Path(tempfile.mkdtemp(prefix="ludoteca-soak-"))
    # The server's own limits, none lifted: the players each have an address of their own
    # (see the module's doc), the attackers meet every limit. FORWARDED_ALLOW_IPS is
    # uvicorn's default, said here because the design rests on it.
    env = {**os.environ, "LUDOTECA_DATABASE_URL": url, "LUDOTECA_REDIS_URL": args.redis,
           "LUDOTECA_REDIS_PREFIX": f"soak-{uuid.uuid4().hex[:6]}:", "LUDOTECA_SECRET": "soak",
           "LUDOTECA_BOT_SECONDS": "0.3", "FORWARDED_ALLOW_IPS": "127.0.0.1"}
    servers = []
    for i in range(2):
        port = free_port()
        servers.append(ServerProcess([sys.executable, "-c", f"from ludoteca.server.main import run; run(port={port})"],
                                     port=port, env=env, cwd=workdir, log=workdir / f"server-{i}.log", seconds=60))
    started = time.monotonic()
    load_before = os.getloadavg()[0]
    try:
        for server in servers:
            server.start()
        figures = asyncio.run(run(args, servers))
    finally:
        for server in servers:
            server.stop()
    books = check(url, figures, figures.tables_ids)  # type: ignore[attr-defined]
    details = books.pop("_details")
    pairs = latency_pairs(figures)
    calm = [v for phase, values in figures.latency.items() if phase % 2 == 0 for v in values]
    loud = [v for phase, values in figures.latency.items() if phase % 2 == 1 for v in values]
    calm_p99, loud_p99 = p99(calm), p99(loud)
    overall: dict[str, Any] = {"p99 without attackers (ms)": round(calm_p99 or 0, 1),
               "p99 with attackers (ms)": round(loud_p99 or 0, 1),
               "p99 ratio, whole run": round(loud_p99 / calm_p99, 2) if calm_p99 and loud_p99 else None,
               "server CPU s/min without, with attackers": [
                   cpu_per_minute(figures, *[p for p in figures.phase_wall if p % 2 == 0]),
                   cpu_per_minute(figures, *[p for p in figures.phase_wall if p % 2 == 1])]}
    report = {"minutes": round((time.monotonic() - started) / 60, 1), "tables": figures.tables,
              "games finished": figures.finished, "server processes": len(servers), "kills (SIGKILL)": figures.kills,
              "moves sent by people": figures.sent,
              "moves acknowledged to people": sum(len(a) for a in figures.acked.values()),
              "moves refused (lost races)": dict(figures.refused), "reconnects": figures.reconnects,
              "chat lines": figures.chats, **books,
              **({**overall, "attack phases that failed": len(figures.attack_failures)} if args.attacker_names else
                 {"p99 (ms)": round(p99(calm) or 0, 1)}),
              "load average (1 min) at start, end": f"{load_before:.1f}, {os.getloadavg()[0]:.1f}",
              "server logs": str(workdir)}
    lost = books["lost (acknowledged, not stored)"] + books["acknowledged with another number"] + \
        books["tables with a gap"] + books["tables that do not replay"]
    verdicts = {"nothing acknowledged lost, books whole": lost == 0}
    if args.attacker_names:
        ratio = overall["p99 ratio, whole run"]
        verdicts["move p99 with attackers within 2x without"] = ratio is not None and ratio <= 2
    report.update({f"verdict: {k}": "yes" if v else "NO" for k, v in verdicts.items()})
    answers = {n: dict(c) for n, c in figures.answers.items()}
    show(report, pairs, answers)
    if any(details):
        print("details:", json.dumps([list(map(str, d))[:20] for d in details]), file=sys.stderr)
    for failure in figures.attack_failures[:3]:
        print("an attack phase failed:", failure, file=sys.stderr)
    if args.journal:
        line = {"at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "command": " ".join(sys.argv[1:]),
                "commit": _commit(), **{k: v for k, v in report.items() if k != "server logs"},
                "phase pairs": pairs, "attackers": answers}
        with open(args.journal, "a") as journal:
            journal.write(json.dumps(line) + "\n")
    if name:
        with contextlib.suppress(Exception), psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _commit() -> str:
    import subprocess

    with contextlib.suppress(OSError, subprocess.SubprocessError):
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10,
                              cwd=Path(__file__).resolve().parent)
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "src", "bench"], capture_output=True, text=True,
                               timeout=30, cwd=Path(__file__).resolve().parent.parent).stdout.strip()
        return done.stdout.strip() + ("+uncommitted" if dirty else "")
    return "?"


if __name__ == "__main__":
    main()
