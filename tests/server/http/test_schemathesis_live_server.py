"""The OpenAPI description is the server. Schemathesis runs against a live server with
every check on, a bounded number of cases per operation, and must find nothing: on
SQLite always, on PostgreSQL too under CI (CI=true)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import CI, ServerProcess, server_env

SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
EXAMPLES = os.environ.get("LUDOTECA_SCHEMATHESIS_EXAMPLES", "5")


def _prepare(url: str) -> tuple[str, dict[str, str]]:
    """A signed-in guest and a started table for the table operations to work on."""
    with httpx.Client(base_url=url, timeout=30, trust_env=False) as http:
        session = http.post("/api/sessions/guest").json()
        auth = {"Authorization": f"Bearer {session['token']}"}
        table = http.post("/api/tables", json={"game": "drawbid", "seats": 2}, headers=auth).json()["id"]
        assert http.post(f"/api/tables/{table}/bots", json={"bot": "random"}, headers=auth).status_code == 200
        assert http.post(f"/api/tables/{table}/start", headers=auth).status_code == 200
    parameters = {"table_id": table, "game": "drawbid", "lang": "en", "username": session["user"]["username"]}
    return session["token"], parameters


# Every check is on. A request the schema allows may still be refused with 422 on its
# meaning, by design and as documented: an illegal move (any object is a move until the
# engine says otherwise), options or a seat count the chosen game does not take, a seat
# number the table does not have. So 422 joins what positive_data_acceptance accepts.
CONFIG = """
[checks.positive_data_acceptance]
expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]

[parameters]
"""


def run_schemathesis(db_url: str, workdir: Path) -> None:
    process = ServerProcess(server_env(db_url))
    try:
        token, parameters = _prepare(process.url)
        config = workdir / "schemathesis.toml"
        config.write_text(CONFIG + "".join(f'{k} = "{v}"\n' for k, v in parameters.items()))
        command = [str(SCHEMATHESIS), "--config-file", str(config), "run", f"{process.url}/openapi.json",
                   "--checks", "all", "--max-examples", EXAMPLES, "--seed", "15", "--workers", "1",
                   "--phases", "examples,coverage,fuzzing,stateful", "--generation-database", "none",
                   "--header", f"Authorization: Bearer {token}", "--no-color",
                   # Signing out would end the one session the run authenticates with.
                   "--exclude-name", "DELETE /api/sessions",
                   # So would logging out everywhere (the account page's button).
                   "--exclude-name", "DELETE /api/account/sessions"]
        done = subprocess.run(command, cwd=workdir, capture_output=True, text=True, timeout=900,
                              env={**os.environ, "NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1"})
        assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    finally:
        process.stop()


@pytest.mark.slow
def test_schemathesis_on_sqlite(sqlite_url, tmp_path):
    run_schemathesis(sqlite_url, tmp_path)


@pytest.mark.postgres
@pytest.mark.skipif(not CI, reason="on PostgreSQL under CI only (CI=true), to keep local runs short")
def test_schemathesis_on_postgres(pg_url, tmp_path):
    run_schemathesis(pg_url, tmp_path)
