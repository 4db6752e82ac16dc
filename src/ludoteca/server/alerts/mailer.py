"""Email: one thread per process sends what the services queue, over SMTP
(``LUDOTECA_SMTP_URL``: ``smtp://[user:pass@]host[:port][?starttls=1]`` or
``smtps://...``). Nothing here runs on the event loop or a request's thread: a queued
message is sent when the thread gets to it, so a slow or absent SMTP server slows no
answer. Without a URL, email is off and ``enabled`` says so."""

from __future__ import annotations

import logging
import queue
import smtplib
import ssl
import threading
from collections.abc import Callable
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

log = logging.getLogger("ludoteca.server.alerts.mailer")

QUEUE = 10_000
"""Jobs waiting for a background thread at most: past it, the newest are dropped (an
alert is a courtesy; a flood must not take the memory)."""
SMTP_TIMEOUT = 20.0


class Worker:
    """A daemon thread that runs queued jobs in order; ``put`` never blocks."""

    def __init__(self, name: str, size: int = QUEUE) -> None:
        self.name = name
        self._queue: queue.Queue[Callable[[], Any] | None] = queue.Queue(size)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def put(self, job: Callable[[], Any]) -> bool:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
        try:
            self._queue.put_nowait(job)
        except queue.Full:
            log.warning("%s: the queue is full; a job was dropped", self.name)
            return False
        return True

    def _run(self) -> None:
        while True:
            job = self._queue.get()
            try:
                if job is None:
                    return
                job()
            except Exception:
                log.exception("%s: a job failed", self.name)
            finally:
                self._queue.task_done()

    def join(self, timeout: float = 10.0) -> None:
        """Wait until what is queued now has run (tests, and a tidy stop)."""
        done = threading.Event()
        if not self.put(done.set):
            return
        done.wait(timeout)

    def stop(self) -> None:
        with self._lock:
            thread = self._thread
            self._thread = None
        if thread is not None:
            try:
                self._queue.put_nowait(None)
            except queue.Full:
                return
            thread.join(timeout=5)


class SmtpConfig:
    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.tls = parts.scheme == "smtps"
        self.host = parts.hostname or "localhost"
        self.port = parts.port or (465 if self.tls else 25)
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        query = parse_qs(parts.query)
        self.starttls = query.get("starttls", ["0"])[0].lower() in ("1", "true", "yes", "on")


class Mailer:
    def __init__(self, smtp_url: str | None, sender: str) -> None:
        self.config = SmtpConfig(smtp_url) if smtp_url else None
        self.sender = sender
        self.worker = Worker("mailer")

    @property
    def enabled(self) -> bool:
        return self.config is not None

    def message(self, to: str, subject: str, body: str, headers: dict[str, str] | None = None) -> EmailMessage:
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = to
        message["Subject"] = subject
        message["Date"] = formatdate(localtime=False)
        message["Message-ID"] = make_msgid(domain=self.sender.rsplit("@", 1)[-1].strip("> ") or "localhost")
        message["Auto-Submitted"] = "auto-generated"  # no vacation replies to a robot
        for name, value in (headers or {}).items():
            message[name] = value
        message.set_content(body)  # UTF-8, encoded as the text needs (Japanese, Vietnamese)
        return message

    def send(self, message: EmailMessage) -> bool:
        """Queue ``message``; False when email is off or the queue is full."""
        if self.config is None:
            return False
        return self.worker.put(lambda: self.deliver(message))

    def deliver(self, message: EmailMessage) -> None:
        """Send now, in the caller's thread (the worker's)."""
        config = self.config
        if config is None:
            return
        if config.tls:
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(config.host, config.port, timeout=SMTP_TIMEOUT,
                                                  context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(config.host, config.port, timeout=SMTP_TIMEOUT)
        with smtp:
            if config.starttls and not config.tls:
                smtp.starttls(context=ssl.create_default_context())
            if config.user:
                smtp.login(config.user, config.password or "")
            smtp.send_message(message)

    def stop(self) -> None:
        self.worker.stop()
