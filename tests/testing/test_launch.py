"""ludoteca.testing.launch with real processes: a free port, waiting for a real server, and the
error (with the server's output) when a process exits before it serves or never answers."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from ludoteca.testing.launch import ServerProcess, free_port, wait_until_healthy

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp_path: Path) -> dict[str, str]:
    env = {**os.environ, "LUDOTECA_DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"}
    env.pop("LUDOTECA_REDIS_URL", None)
    return env


def test_free_port_can_be_bound() -> None:
    port = free_port()
    assert 0 < port < 65536
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))


def test_wait_until_healthy_returns_once_a_real_server_serves(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("ab") as out:
        process = subprocess.Popen([sys.executable, "-m", "ludoteca.cli", "serve", "--port", str(port)], cwd=ROOT,
                                   env=_env(tmp_path), stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_until_healthy(f"http://127.0.0.1:{port}", process, log=log)
        assert process.poll() is None
    finally:
        process.terminate()
        process.wait(10)


def test_a_server_process_restarts_on_the_same_port(tmp_path: Path) -> None:
    port = free_port()
    server = ServerProcess([sys.executable, "-m", "ludoteca.cli", "serve", "--port", str(port)], port=port,
                           env=_env(tmp_path), cwd=ROOT, log=tmp_path / "server.log")
    try:
        server.start()
        first = server.proc
        server.kill()
        assert first is not None and first.returncode == -9
        server.start()
        assert server.proc is not first and server.proc is not None and server.proc.poll() is None
    finally:
        server.stop()
    assert server.proc.poll() is not None


EXITS = [sys.executable, "-c", "import sys; print('marker: no database here'); sys.exit(1)"]


def test_an_early_exit_raises_with_the_log(tmp_path: Path) -> None:
    log = tmp_path / "exits.log"
    with log.open("ab") as out:
        process = subprocess.Popen(EXITS, stdout=out, stderr=subprocess.STDOUT)
    with pytest.raises(RuntimeError, match="exited with code 1: marker: no database here"):
        wait_until_healthy(f"http://127.0.0.1:{free_port()}", process, log=log)


def test_an_early_exit_raises_with_the_stderr_pipe_when_there_is_no_log() -> None:
    process = subprocess.Popen([sys.executable, "-c", "import sys; sys.exit('marker: no database here')"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    with pytest.raises(RuntimeError, match="marker: no database here"):
        wait_until_healthy(f"http://127.0.0.1:{free_port()}", process)


def test_a_server_that_never_answers_is_given_up_and_killed(tmp_path: Path) -> None:
    port = free_port()
    server = ServerProcess([sys.executable, "-c", "import time; print('marker: asleep', flush=True); time.sleep(60)"],
                           port=port, log=tmp_path / "asleep.log", seconds=1)
    with pytest.raises(RuntimeError, match="did not answer within 1 s: marker: asleep"):
        server.start()
    assert server.proc is not None and server.proc.poll() is not None
