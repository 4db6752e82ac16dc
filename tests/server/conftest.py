"""Fixtures for the server tests: a registered test game, apps on SQLite and PostgreSQL,
Redis, and real server processes on loopback ports."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludoteca.games import register
from ludoteca.server.app import create_app
from ludoteca.server.kernel.config import Settings
from ludoteca.testing import launch
from ludoteca.testing.launch import free_port
from tests.server.drawbid import GAME

register(GAME)

HERE = Path(__file__).resolve().parent
PG_URL = os.environ.get("LUDOTECA_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("LUDOTECA_TEST_REDIS", "redis://127.0.0.1:6379/15")
CI = os.environ.get("CI", "").lower() == "true"


def _unavailable(what: str, error: Exception) -> None:
    message = f"{what} is not reachable: {type(error).__name__}: {error}"
    if CI:
        pytest.fail(message)
    pytest.skip(message)


def make_settings(url: str, **overrides: Any) -> Settings:
    base: dict[str, Any] = {"database_url": url, "secret": "test-secret", "bot_seconds": 0.05,
                            "clock_tick_seconds": 0.1, "engine_seconds": 2.0, "redis_url": None,
                            "login_attempts_per_minute": 1000, "logins_per_minute_per_address": 100_000,
                            "logins_per_minute": 100_000, "signups_per_hour_per_address": 100_000,
                            "signups_per_hour": 100_000, "chat_lines_per_10_seconds": 100_000,
                            "ws_messages_per_10_seconds": 100_000,
                            "password_time_cost": 1, "password_memory_kib": 1024}
    base.update(overrides)
    return Settings.from_env(env={}, **base)


class Api:
    """A signed-in user of a TestClient or an httpx client, with bearer auth."""

    def __init__(self, http: Any, name: str | None = None, password: str = "correct horse") -> None:
        self.http = http
        self.name = name or f"u{uuid.uuid4().hex[:10]}"
        r = http.post("/api/accounts", json={"username": self.name, "password": password})
        assert r.status_code == 201, r.text
        r = http.post("/api/sessions", json={"username": self.name, "password": password})
        assert r.status_code == 200, r.text
        self.token = r.json()["token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}
        http.cookies.clear()  # bearer only: the cookie path has its own tests

    def get(self, path: str, **kw: Any) -> Any:
        return self.http.get(path, headers=self.headers, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> Any:
        return self.http.post(path, json=body, headers=self.headers, **kw)

    def table(self, table_id: str, **params: Any) -> dict[str, Any]:
        r = self.get(f"/api/tables/{table_id}", params=params)
        assert r.status_code == 200, r.text
        return r.json()

    def move(self, table_id: str, version: int, move: dict[str, Any], move_id: str | None = None) -> Any:
        body: dict[str, Any] = {"version": version, "move": move}
        if move_id:
            body["id"] = move_id
        return self.post(f"/api/tables/{table_id}/moves", body)


def new_table(owner: Api, others: list[Api], bots: int = 0, **extra: Any) -> str:
    body = {"game": "drawbid", "seats": 1 + len(others) + bots, **extra}
    r = owner.post("/api/tables", body)
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    for other in others:
        assert other.post(f"/api/tables/{table_id}/join").status_code == 200
    for _ in range(bots):
        assert owner.post(f"/api/tables/{table_id}/bots", {"bot": "random"}).status_code == 200
    r = owner.post(f"/api/tables/{table_id}/start")
    assert r.status_code == 200, r.text
    return table_id


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ludoteca.db'}"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(sqlite_url))) as http:
        yield http


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A throwaway PostgreSQL database for this test, dropped afterwards."""
    import psycopg

    name = f"ludoteca_test_{uuid.uuid4().hex[:12]}"
    try:
        admin = psycopg.connect(PG_URL, autocommit=True, connect_timeout=3)
    except Exception as error:
        try:
            admin = psycopg.connect(PG_URL.replace("postgres@", "root@"), autocommit=True, connect_timeout=3)
        except Exception:
            _unavailable("PostgreSQL", error)
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        base = PG_URL.rsplit("/", 1)[0]
        if admin.info.user != "postgres":
            base = base.replace("postgres@", f"{admin.info.user}@")
        try:
            yield f"{base}/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def redis_url() -> str:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as error:
        _unavailable("Redis", error)
    return REDIS_URL


class ServerProcess(launch.ServerProcess):
    """``ludoteca serve`` in a subprocess with the test game registered, started at once."""

    def __init__(self, env: dict[str, str], port: int | None = None) -> None:
        port = port or free_port()
        super().__init__([sys.executable, "-m", "tests.serve", str(port), "tests.server.drawbid:GAME"], port=port,
                         env={**os.environ, **env, "PYTHONPATH": str(HERE.parent.parent)}, cwd=HERE.parent.parent,
                         # stderr read only if it fails to start: it logs warnings only, far from filling the pipe
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.start()


def server_env(url: str, **extra: str) -> dict[str, str]:
    return {"LUDOTECA_DATABASE_URL": url, "LUDOTECA_SECRET": "test-secret", "LUDOTECA_BOT_SECONDS": "0.05",
            "LUDOTECA_CLOCK_TICK_SECONDS": "0.2", "LUDOTECA_LOGIN_ATTEMPTS_PER_MINUTE": "1000",
            "LUDOTECA_LOGINS_PER_MINUTE_PER_ADDRESS": "100000", "LUDOTECA_LOGINS_PER_MINUTE": "100000",
            "LUDOTECA_SIGNUPS_PER_HOUR_PER_ADDRESS": "100000", "LUDOTECA_SIGNUPS_PER_HOUR": "100000",
            "LUDOTECA_CHAT_LINES_PER_10_SECONDS": "100000", "LUDOTECA_WS_MESSAGES_PER_10_SECONDS": "100000",
            "LUDOTECA_PASSWORD_TIME_COST": "1", "LUDOTECA_PASSWORD_MEMORY_KIB": "1024", **extra}
