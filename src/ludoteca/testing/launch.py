"""A server process that others can start and wait for: the tests that need a real server
(a crash and restart, several processes sharing a database), the load benchmark and the
tools that photograph a live table each start one on a free loopback port and must know
when it serves, or why it never will.

Only the standard library is used here, so a script can use it without the test extras.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import subprocess
import time
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

TAIL = 2000  # characters of the server's log in an error: enough for a traceback's end

ONE_ADDRESS_LOAD = {
    "LUDOTECA_LOGIN_ATTEMPTS_PER_MINUTE": "1000000", "LUDOTECA_LOGINS_PER_MINUTE_PER_ADDRESS": "1000000",
    "LUDOTECA_LOGINS_PER_MINUTE": "1000000", "LUDOTECA_SIGNUPS_PER_HOUR_PER_ADDRESS": "1000000",
    "LUDOTECA_SIGNUPS_PER_HOUR": "1000000", "LUDOTECA_CHAT_LINES_PER_10_SECONDS": "1000000",
    "LUDOTECA_WS_MESSAGES_PER_10_SECONDS": "1000000",
}
"""Settings for benchmarks and browser tests, whose many players all come from one
address: the limits meant for one person (logins, sign-ups, chat and socket message
rates) lifted. (Connections per address need nothing: loopback is a trusted proxy.)"""

# The server is on this machine: an http_proxy set for the outside world must not see the polls.
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on now (another process may still take it before the server does)."""
    with socket.socket() as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def _tail(process: subprocess.Popen[bytes], log: Path | None) -> str:
    if log is not None:
        try:
            return log.read_text(errors="replace")[-TAIL:]
        except OSError:
            return ""
    # A pipe is read to its end only once the process has exited: before, the read would block.
    if process.stderr is not None and process.poll() is not None:
        return process.stderr.read().decode(errors="replace")[-TAIL:]
    return ""


def wait_until_healthy(url: str, process: subprocess.Popen[bytes], seconds: float = 30.0,
                       log: Path | None = None) -> None:
    """Return once GET ``url``/api/health answers 200. Raise RuntimeError, with the end of
    the server's output (``log``, else its stderr pipe if it has one), if the process exits
    first or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with code {process.returncode}: {_tail(process, log)}")
        with contextlib.suppress(OSError, http.client.HTTPException), \
                _opener.open(f"{url}/api/health", timeout=1) as answer:
            if answer.status == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"the server did not answer within {seconds:g} s: {_tail(process, log)}")


class ServerProcess:
    """``command`` serving on ``host``:``port``; it can be killed as a crash would and started
    again on the same port (and so the same database, which lives in ``env``): a restart.

    With ``log``, stdout and stderr are appended to that file (a restart adds to it); without,
    they go to ``stdout`` and ``stderr`` as for Popen (default: this process's own).
    """

    def __init__(self, command: Sequence[str], *, port: int, env: Mapping[str, str] | None = None,
                 cwd: Path | None = None, log: Path | None = None, host: str = "127.0.0.1",
                 stdout: int | IO[Any] | None = None, stderr: int | IO[Any] | None = None,
                 seconds: float = 30.0) -> None:
        self.command = list(command)
        self.port = port
        self.host = host
        self.env = dict(env) if env is not None else None
        self.cwd = cwd
        self.log = log
        self.stdout, self.stderr = stdout, stderr
        self.seconds = seconds
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> None:
        """Start the process and return once it serves (RuntimeError if it does not)."""
        if self.log is not None:
            with self.log.open("ab") as log:
                self.proc = subprocess.Popen(self.command, cwd=self.cwd, env=self.env, stdout=log,
                                             stderr=subprocess.STDOUT)
        else:
            self.proc = subprocess.Popen(self.command, cwd=self.cwd, env=self.env, stdout=self.stdout,
                                         stderr=self.stderr)
        try:
            wait_until_healthy(self.url, self.proc, self.seconds, self.log)
        except RuntimeError:
            self.kill()  # one that never answered must not outlive the failure
            raise

    def kill(self) -> None:
        """As a crash would: SIGKILL, no graceful shutdown."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self, seconds: float = 10.0) -> None:
        """Gracefully (SIGTERM); killed if it has not exited after ``seconds``."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(seconds)
            except subprocess.TimeoutExpired:
                self.kill()
