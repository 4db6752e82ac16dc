"""A push service for the tests: a small HTTP server that takes what the server pushes
(RFC 8030) and decrypts it with the subscription's private keys, as a browser would
(RFC 8291, aes128gcm), with one device's keys made here."""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


class Device:
    """A browser's push subscription: its P-256 key pair and auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self) -> dict[str, Any]:
        point = self.private.public_key().public_bytes(serialization.Encoding.X962,
                                                       serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.private, auth_secret=self.auth, version="aes128gcm")
        result: dict[str, Any] = json.loads(plain)
        return result


class PushService:
    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.status = 201
        self._cond = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # http.server's name
                length = int(self.headers.get("Content-Length", "0"))
                data = self.rfile.read(length)
                with service._cond:
                    service.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, data))
                    service._cond.notify_all()
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def wait(self, count: int, seconds: float = 10.0) -> list[tuple[str, dict[str, str], bytes]]:
        with self._cond:
            ok = self._cond.wait_for(lambda: len(self.received) >= count, seconds)
            assert ok, f"{len(self.received)} pushes arrived, not {count}"
            return list(self.received)

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = PushService()
    try:
        yield service
    finally:
        service.stop()
