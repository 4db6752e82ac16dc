"""The ASGI application: the API, the live sockets, and the browser client at /."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ludoteca import __version__

from . import errors, logs, routes, ws
from .config import Settings
from .inputs import InputGuard
from .state import Server

WEB = Path(__file__).resolve().parent.parent / "web"
log = logging.getLogger("ludoteca.server")


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                            (b"referrer-policy", b"same-origin")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


PLACEHOLDER = ("<!doctype html><meta charset=utf-8><title>Ludoteca</title><h1>Ludoteca</h1>"
               "<p>The browser client is not installed. The API is described at <a href=/docs>/docs</a> "
               "(<a href=/openapi.json>/openapi.json</a>).</p>\n")


def _mount_web(app: FastAPI, settings: Settings) -> None:
    """The browser client (built separately) at /; a placeholder page until it exists."""
    root = Path(settings.web_root) if settings.web_root else WEB
    if (root / "index.html").exists():
        app.mount("/", StaticFiles(directory=root, html=True), name="web")
        return

    @app.get("/", include_in_schema=False)
    def placeholder() -> HTMLResponse:
        return HTMLResponse(PLACEHOLDER)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The app for ``settings`` (default: from the environment). Uvicorn's ``--factory``
    calls this in every worker process."""
    settings = settings or Settings.from_env()
    logs.install()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        logs.install()  # again: a server that made the app before configuring logging
        server = Server(settings)  # migrates the database first
        app.state.server = server
        await server.start()
        log.info("ludoteca %s on %s, hub %s", __version__, server.engine.dialect.name, server.hub.name)
        try:
            yield
        finally:
            await server.stop()

    app = FastAPI(title="Ludoteca", version=__version__, lifespan=lifespan,
                  description="A self-hostable arena for modern board games. Errors are JSON "
                              "`{code, message}`; cookie sessions send `X-CSRF-Token` on unsafe methods.")
    errors.install(app)
    app.include_router(routes.router)
    app.include_router(ws.router)
    _mount_web(app, settings)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(InputGuard, limit=settings.max_body_bytes)
    return app


def app_from_env() -> Any:
    return create_app()
