"""The same app under different ASGI servers, side by side: bench/server_load.py's load
(N live tables, every seat a WebSocket client) against each server in turn, alternating,
and one table of the figures (moves/s, p99, and the server's CPU time per move, the
figure that holds on a shared machine).

    .venv/bin/pip install granian
    nice -n 5 .venv/bin/python bench/asgi_servers.py --rounds 3 --tables 100 500 --seconds 12 \\
        -- --game counter --plugin /work/shared/anchors/counter/counter_plugin.py

Servers (``--servers``, default all):

- ``uvicorn-edge``: what ``ludoteca serve`` runs: uvicorn with server/http/edge.py's protocols
  (connection limits, request buckets, timeouts) and proxy headers, permessage-deflate
  off (``LUDOTECA_WS_COMPRESSION``, the default);
- ``uvicorn-edge-deflate``: the same with permessage-deflate on (the bench's client, like
  browsers, offers it; granian does not take it up, so this separates the two);
- ``uvicorn``: uvicorn's own protocols (bench/server_load.py's launcher as it is);
- ``granian``: granian's ASGI interface (lifespan on), one worker, WebSockets on (it does
  not negotiate permessage-deflate);
- ``granian-rusttask``: the same with ``task_impl="rust"``.

Not a test: it prints figures and asserts nothing. Each run is one server_load.py process.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

_PRELUDE = """
import os, sys
os.environ["LUDOTECA_BENCH_PLUGINS"] = os.pathsep.join(sys.argv[3:])
sys.path.insert(0, os.environ["LUDOTECA_BENCH_DIR"])
port, workers = int(sys.argv[1]), int(sys.argv[2])
"""

LAUNCHERS = {
    "uvicorn-edge": _PRELUDE + """
import uvicorn
from ludoteca.server.kernel.config import Settings
from ludoteca.server.http.edge import launch_options
uvicorn.run("server_load:plugin_app", factory=True, host="127.0.0.1", port=port, workers=workers,
            log_level="warning", proxy_headers=True, **launch_options(Settings.from_env()))
""",
    "uvicorn-edge-deflate": _PRELUDE + """
import uvicorn
from ludoteca.server.kernel.config import Settings
from ludoteca.server.http.edge import launch_options
uvicorn.run("server_load:plugin_app", factory=True, host="127.0.0.1", port=port, workers=workers,
            log_level="warning", proxy_headers=True, **launch_options(Settings.from_env(ws_compression=True)))
""",
    "granian": _PRELUDE + """
from granian import Granian
from granian.constants import Interfaces
# backpressure: requests (a socket is one for its whole life) served at once; the default,
# 1,024, would queue the sockets of 500 tables beyond it.
Granian("server_load:plugin_app", factory=True, address="127.0.0.1", port=port, workers=workers,
        interface=Interfaces.ASGI, websockets=True, log_level="warning", backpressure=8192).serve()
""",
}
# granian's own task implementation (Rust futures driving the app's coroutines; Python < 3.12).
LAUNCHERS["granian-rusttask"] = LAUNCHERS["granian"].replace("backpressure=8192)",
                                                             "backpressure=8192, task_impl='rust')")


def run_once(server: str, tables: int, seconds: float, load_args: list[str]) -> dict[str, object]:
    # server_load.py itself, its launcher (a module global read when the server starts) swapped.
    script = (f"import sys; sys.path.insert(0, {str(HERE)!r}); import server_load; "
              f"server_load.LAUNCHER = {LAUNCHERS.get(server)!r} or server_load.LAUNCHER; server_load.main()")
    command = [sys.executable, "-c", script, "--tables", str(tables), "--seconds", str(seconds), *load_args]
    before = os.getloadavg()[0]
    started = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 600)
    row: dict[str, object] = {"server": server, "tables": tables, "load_before": before,
                              "wall_s": round(time.perf_counter() - started, 1)}
    figures = {}
    for line in out.stdout.splitlines():
        parts = line.split(None, 1)
        if len(parts) == 2:
            figures[parts[0]] = parts[1].strip()
    try:
        row.update(moves_per_s=float(figures["moves_per_s"]), p50=float(figures["p50_ms"]),
                   p99=float(figures["p99_ms"]), cpu=float(figures["server_cpu_ms_per_move"]),
                   client_cpu=float(figures["client_cpu_ms_per_move"]), rss=float(figures["server_rss_mb_max"]),
                   moves=int(figures["moves"]), load=float(figures["load_average"]))
    except (KeyError, ValueError):
        row["error"] = (out.stdout + out.stderr)[-600:]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--servers", nargs="+", default=["uvicorn-edge", "granian", "uvicorn-edge-deflate"],
                        choices=["uvicorn", *LAUNCHERS])
    parser.add_argument("--tables", nargs="+", type=int, default=[100])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=12)
    parser.add_argument("--out", default="", help="append each run's row here (JSON lines)")
    parser.add_argument("load_args", nargs="*", help="after --: bench/server_load.py's arguments")
    args = parser.parse_args()
    rows = []
    for rnd in range(1, args.rounds + 1):
        for tables in args.tables:
            # Each round starts with a different server, so none always follows the same neighbour.
            shift = (rnd - 1) % len(args.servers)
            for server in args.servers[shift:] + args.servers[:shift]:
                row = run_once(server, tables, args.seconds, args.load_args) | {"round": rnd}
                rows.append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
                if args.out:
                    with open(args.out, "a") as out:
                        out.write(json.dumps(row) + "\n")
    print("\n| tables | server | moves/s (each run) | p50 ms | p99 ms (each run) | server CPU ms/move (each run) "
          "| CPU ÷ uvicorn-edge | RSS MB | load |")
    print("|---|---|---|---|---|---|---|---|---|")
    for tables in args.tables:
        base = [r for r in rows if r["tables"] == tables and r["server"] == "uvicorn-edge" and "error" not in r]
        for server in args.servers:
            rs = [r for r in rows if r["tables"] == tables and r["server"] == server and "error" not in r]
            failed = sum(1 for r in rows if r["tables"] == tables and r["server"] == server and "error" in r)
            if not rs:
                print(f"| {tables} | {server} | failed ({failed}) | | | | | | |")
                continue
            mean = lambda key, rs=rs: statistics.fmean(float(r[key]) for r in rs)  # noqa: E731
            each = lambda key, fmt, rs=rs: "/".join(format(float(r[key]), fmt) for r in rs)  # noqa: E731
            ratio = f"{mean('cpu') / statistics.fmean(float(r['cpu']) for r in base):.2f}" if base else ""
            print(f"| {tables} | {server}{f' ({failed} failed)' if failed else ''} | {mean('moves_per_s'):,.0f} "
                  f"({each('moves_per_s', '.0f')}) | {mean('p50'):.1f} | {mean('p99'):.0f} ({each('p99', '.0f')}) "
                  f"| {mean('cpu'):.3f} ({each('cpu', '.2f')}) | {ratio} | {mean('rss'):.0f} "
                  f"| {each('load_before', '.1f')} |")


if __name__ == "__main__":
    main()
