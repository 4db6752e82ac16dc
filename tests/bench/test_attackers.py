"""bench/attackers.py, the soak's attackers, for a few seconds against a real server process
with the real limits (the timeouts and the connection count shortened so that seconds
suffice): each is answered as docs/ops.md says (429, 431, 408, 422 ``too_deep``, a
dropped connection), never with a 500, and the server answers a health check promptly
all the while. A correctness check, not a timed benchmark."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import ServerProcess, server_env

ROOT = Path(__file__).resolve().parents[2]
REAL_LIMITS = {  # docs/ops.md's defaults (server_env lifts them for other tests)
    "LUDOTECA_LOGIN_ATTEMPTS_PER_MINUTE": "10", "LUDOTECA_LOGINS_PER_MINUTE_PER_ADDRESS": "10",
    "LUDOTECA_LOGINS_PER_MINUTE": "600", "LUDOTECA_SIGNUPS_PER_HOUR_PER_ADDRESS": "5",
    "LUDOTECA_SIGNUPS_PER_HOUR": "300", "LUDOTECA_CHAT_LINES_PER_10_SECONDS": "10",
    "LUDOTECA_WS_MESSAGES_PER_10_SECONDS": "100",
    # shortened so that a few seconds show them
    "LUDOTECA_HEAD_TIMEOUT_SECONDS": "1", "LUDOTECA_BODY_TIMEOUT_SECONDS": "1",
    "LUDOTECA_MAX_CONNECTIONS_PER_ADDRESS": "8",
}
# Too slow to show in seconds (a kernel's socket buffers fill first): the stall is tested
# in tests/server/http/test_connection_bounds.py.
ATTACKERS = ["login flood", "deep JSON", "slow headers", "slow body", "chat spam", "big headers", "undo loop",
             "many connections"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    url = f"sqlite:///{tmp_path_factory.mktemp('attackers') / 'db.sqlite'}"
    process = ServerProcess(server_env(url, **REAL_LIMITS))
    try:
        yield process
    finally:
        process.kill()


def players_table(url: str) -> str:
    """A table in play, as the soak's players have: a guest and a bot at Iwari."""
    with httpx.Client(base_url=url, trust_env=False, timeout=20) as http:
        token = http.post("/api/sessions/guest").json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        table: str = http.post("/api/tables", json={"game": "iwari", "seats": 2}, headers=auth).json()["id"]
        http.post(f"/api/tables/{table}/bots", json={"bot": "random"}, headers=auth).raise_for_status()
        http.post(f"/api/tables/{table}/start", headers=auth).raise_for_status()
    return table


def attack_and_watch(url: str, table: str, seconds: float) -> tuple[dict[str, Counter[str]], list[float]]:
    """The attack, as the soak runs it (bench/attackers.py in a process of its own, which
    ends itself without waiting for half-closed sockets: an event loop's own ending may
    wait on them for good), and meanwhile a health check every quarter second from
    127.0.0.1."""
    waits: list[float] = []
    done = threading.Event()

    def watch() -> None:
        with httpx.Client(base_url=url, trust_env=False, timeout=30) as http:
            while not done.is_set():
                began = time.monotonic()
                if http.get("/api/health").status_code == 200:
                    waits.append(time.monotonic() - began)
                time.sleep(0.25)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        run = subprocess.run([sys.executable, str(ROOT / "bench" / "attackers.py"), "--server", url, "--table", table,
                              "--seconds", str(seconds), "--only", ",".join(ATTACKERS)],
                             capture_output=True, text=True, timeout=seconds + 60, check=True)
    finally:
        done.set()
        watcher.join(timeout=35)
    told = json.loads(run.stdout.strip().splitlines()[-1])
    return {name: Counter(answers) for name, answers in told.items()}, waits


def test_the_attackers_meet_the_limits_and_the_server_keeps_answering(server: ServerProcess) -> None:
    counts, waits = attack_and_watch(server.url, players_table(server.url), 6)

    assert counts["login flood"]["429 too_many_attempts"] > 0
    assert counts["login flood"]["201"] <= 5  # sign-ups per hour and address
    assert counts["deep JSON"]["422 too_deep"] > 0 and counts["deep JSON"]["ws too_deep"] > 0
    assert any(answer.startswith("408") for answer in counts["slow headers"])
    assert any(answer.startswith("closed") for answer in counts["slow body"])  # no answer, the connection dropped
    assert counts["chat spam"]["429 too_many_messages"] > 0 and counts["chat spam"]["ws too_many_messages"] > 0
    assert counts["chat spam"]["200"] <= 10  # lines per account in ten seconds
    assert counts["big headers"]["8 MB header: 431"] + counts["big headers"]["20,000 headers: 431"] > 0
    assert counts["undo loop"]["ws undo ack"] > 0
    assert counts["many connections"]["429"] > 0
    for name, answers in counts.items():
        assert not any(answer.startswith("5") or "internal" in answer for answer in answers), (name, answers)

    assert len(waits) >= 5, waits  # the health check kept being answered
    assert sorted(waits)[len(waits) // 2] < 1.0, waits  # promptly: these are generous on shared cores
    with httpx.Client(trust_env=False, timeout=5) as http:
        assert http.get(f"{server.url}/api/health").status_code == 200
