"""A bearer token passed as ``?token=`` (WebSockets, where browsers cannot set headers)
never reaches a log line."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import httpx
import websockets

from ludoteca.testing.launch import ServerProcess, free_port
from tests.server.conftest import server_env

ROOT = Path(__file__).resolve().parents[3]


def test_token_in_a_socket_url_stays_out_of_the_access_log(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "server.log"
    # The real `ludoteca serve` path: uvicorn's logging at info, access log on.
    command = [sys.executable, "-c", f"from ludoteca.server.main import run; run(port={port})"]
    env = {**server_env(f"sqlite:///{tmp_path / 'db.sqlite'}"), "PATH": "/usr/bin:/bin"}
    server = ServerProcess(command, port=port, env=env, cwd=ROOT, log=log)
    server.start()
    try:
        with httpx.Client(base_url=server.url, trust_env=False) as http:
            token = http.post("/api/sessions/guest").json()["token"]
            csrf_like = "csrf-" + token[:8]
            table = http.post("/api/tables", json={"game": "iwari", "seats": 2},
                              headers={"Authorization": f"Bearer {token}"}).json()["id"]
            http.get(f"/api/tables/{table}", params={"token": token, "csrf": csrf_like})

        async def socket() -> None:
            url = server.url.replace("http", "ws", 1) + f"/api/tables/{table}/live?version=0&token={token}"
            async with websockets.connect(url) as ws:
                assert json.loads(await ws.recv())["type"] in ("update", "chat")

        asyncio.run(socket())
    finally:
        server.stop()
    text = log.read_text()
    assert "WebSocket /api/tables" in text, text[-2000:]  # the line is there, without the secret
    assert f"/api/tables/{table}" in text
    assert token not in text
    assert csrf_like not in text
    assert "token=[redacted]" in text
