"""``ludoteca admin``: roles, bans, passwords, deletions and reports from the command line,
on the database a server uses (a real server app on the same SQLite file)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ludoteca.cli import app
from ludoteca.server.app import create_app
from tests.server.conftest import Api, make_settings

runner = CliRunner()


@pytest.fixture
def served(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    with TestClient(create_app(make_settings(url))) as http:
        yield http, url


def admin(url: str, *args: str, input: str | None = None):
    return runner.invoke(app, ["admin", *args, "--db", url], input=input,
                         env={"LUDOTECA_PASSWORD_TIME_COST": "1", "LUDOTECA_PASSWORD_MEMORY_KIB": "1024"})


def test_roles_are_given_and_taken_back(served):
    http, url = served
    a = Api(http)
    done = admin(url, "role", a.name, "admin")
    assert done.exit_code == 0, done.output
    assert "admin" in done.stdout
    assert a.get("/api/moderation/reports").status_code == 200
    assert admin(url, "role", a.name, "none").exit_code == 0
    assert a.get("/api/moderation/reports").status_code == 403
    refused = admin(url, "role", a.name, "owner")
    assert refused.exit_code == 1 and "bad_role" in refused.output
    missing = admin(url, "role", "nobody-at-all", "admin")
    assert missing.exit_code == 1 and "no_user" in missing.output


def test_ban_and_unban_with_an_expiry(served):
    http, url = served
    b = Api(http)
    done = admin(url, "ban", b.name, "--minutes", "90", "--reason", "cheating")
    assert done.exit_code == 0, done.output
    assert "banned until 20" in done.stdout
    assert b.get("/api/sessions").status_code == 401
    login = http.post("/api/sessions", json={"username": b.name, "password": "correct horse"})
    assert login.status_code == 403 and login.json()["code"] == "banned"
    assert admin(url, "ban", b.name, "--minutes", "0").exit_code == 2  # refused by the option's bound
    assert admin(url, "unban", b.name).exit_code == 0
    assert http.post("/api/sessions", json={"username": b.name, "password": "correct horse"}).status_code == 200
    forever = admin(url, "ban", b.name)
    assert forever.exit_code == 0 and "forever" in forever.stdout


def test_reset_password_prints_a_one_time_password_or_takes_one(served):
    http, url = served
    b = Api(http)
    done = admin(url, "reset-password", b.name)
    assert done.exit_code == 0, done.output
    password = done.stdout.split(": ", 1)[1].split()[0]
    assert b.get("/api/sessions").status_code == 401  # the old sessions ended
    assert http.post("/api/sessions", json={"username": b.name, "password": password}).status_code == 200
    assert admin(url, "reset-password", b.name, "--password", "a brand new one").exit_code == 0
    assert http.post("/api/sessions", json={"username": b.name, "password": "a brand new one"}).status_code == 200
    short = admin(url, "reset-password", b.name, "--password", "short")
    assert short.exit_code == 1 and "bad_password" in short.output


def test_delete_asks_then_anonymises(served):
    http, url = served
    b = Api(http)
    kept = admin(url, "delete", b.name, input="n\n")
    assert kept.exit_code == 1
    assert http.get(f"/api/players/{b.name}").status_code == 200
    done = admin(url, "delete", b.name, "--yes")
    assert done.exit_code == 0, done.output
    assert "deleted-" in done.stdout
    assert http.get(f"/api/players/{b.name}").status_code == 404
    assert http.post("/api/sessions", json={"username": b.name, "password": "correct horse"}).status_code == 401


def test_reports_are_listed(served):
    http, url = served
    a, b = Api(http), Api(http)
    filed = a.post("/api/reports", {"kind": "player", "username": b.name, "reason": "insults in chat"})
    assert filed.status_code == 201
    listed = admin(url, "reports")
    assert listed.exit_code == 0, listed.output
    assert "insults in chat" in listed.stdout and b.name in listed.stdout and "open reports (1)" in listed.stdout
    assert "(0)" in admin(url, "reports", "--status", "resolved").stdout
    assert admin(url, "reports", "--status", "bogus").exit_code == 1
    audit = http.app.state.server.moderation.audit(10)
    assert audit == []  # listing changes nothing
