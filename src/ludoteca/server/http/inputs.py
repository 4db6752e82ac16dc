"""What every request must be before a route sees it: a body within the limit (declared
or streamed), UTF-8, JSON nested no deeper than a limit, and no NUL character anywhere
(path, query, body). PostgreSQL
refuses NUL in text, so without this check a chat line, a username, a move id or a
table id holding one became a 500 there; no part of the API has a use for it."""

from __future__ import annotations

import json
from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ludoteca.server.kernel.bounds import MAX_JSON_DEPTH, has_nul, json_too_deep


def _nul_in_json_text(text: str) -> bool:
    if "\x00" in text:
        return True
    if "\\u0000" not in text:  # the only way JSON spells a NUL besides the raw byte
        return False
    try:
        return has_nul(json.loads(text))
    except ValueError:
        return False  # not JSON: the route's own validation says so


def nul_in_target(scope: Scope) -> bool:
    path = scope.get("path", "")
    query = scope.get("query_string", b"")
    return "\x00" in path or b"\x00" in unquote_to_bytes(query.replace(b"+", b" "))


async def refuse(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"code": code, "message": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class InputGuard:
    """Reads the whole body first (it is small: the limit is tens of KiB), so that one
    over the limit is a 413 ``too_large`` whether or not Content-Length said so, then
    checks it and hands it on as it came."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and nul_in_target(scope):
            # Before the handshake: the client sees the upgrade refused (403).
            await send({"type": "websocket.close", "code": 1008, "reason": "NUL character in the address"})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if nul_in_target(scope):
            await refuse(send, 422, "invalid_request", "the address holds a NUL character")
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await refuse(send, 413, "too_large", "the request body is too large")
            return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await refuse(send, 413, "too_large", "the request body is too large")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body:
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError:
                await refuse(send, 422, "invalid_request", "the request body is not UTF-8")
                return
            if json_too_deep(text):
                await refuse(send, 422, "too_deep", f"the request body nests deeper than {MAX_JSON_DEPTH} levels")
                return
            if _nul_in_json_text(text):
                await refuse(send, 422, "invalid_request", "the request body holds a NUL character")
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: only a disconnect comes

        await self.app(scope, replay, send)
