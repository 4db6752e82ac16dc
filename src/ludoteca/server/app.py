"""The ASGI application: the API, the live sockets, and the browser client at /."""

from __future__ import annotations

import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ludoteca import __version__
from ludoteca.server.accounts.routes import router as account_router
from ludoteca.server.http import apidocs, gamefiles, openapi, routes
from ludoteca.server.http.inputs import InputGuard
from ludoteca.server.kernel import errors, logs
from ludoteca.server.kernel.config import Settings
from ludoteca.server.moderation import routes as routes_moderation
from ludoteca.server.ratings import routes as routes_ratings
from ludoteca.server.reviews.routes import router as reviews_router
from ludoteca.server.server import Server
from ludoteca.server.social import routes as routes_arena
from ludoteca.server.tables import socket as ws
from ludoteca.server.tournaments.routes import router as tournaments_router

WEB = Path(__file__).resolve().parent.parent / "web"
log = logging.getLogger("ludoteca.server")


# Only the app's own scripts; its own style sheets, plus the <style> elements its board
# drawings add at run time, which carry the page's nonce (web/js/dom.js puts it on every
# <style> it makes). Style attributes stay allowed: they can restyle, never run code,
# and the boards set them on SVG shapes. The API's own pages (/docs, /redoc) run Swagger
# UI and ReDoc from this server (apidocs.py), which style themselves inline: their own
# policy, still with no script from anywhere else and no inline script.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'{nonce}; style-src-attr 'unsafe-inline'; "
       "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
DOCS_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            "font-src 'self' data:; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; "
            "frame-ancestors 'none'")
DOCS_PATHS = ("/docs", "/redoc")
HEADERS = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
           (b"referrer-policy", b"same-origin"), (b"cross-origin-opener-policy", b"same-origin"),
           (b"cross-origin-resource-policy", b"same-origin"),
           (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=(), usb=()")]


class SecurityHeaders:
    def __init__(self, app: ASGIApp, https: bool = False) -> None:
        self.app = app
        # HSTS only where the host said it serves over HTTPS (secure cookies).
        self.extra = [(b"strict-transport-security", b"max-age=31536000")] if https else []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        docs = scope.get("path", "").startswith(DOCS_PATHS)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if not any(name.lower() == b"content-security-policy" for name, _ in headers):
                    headers.append((b"content-security-policy", (DOCS_CSP if docs else CSP.format(nonce="")).encode()))
                headers += HEADERS + self.extra
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


def _page_with_nonce(index: Path) -> HTMLResponse:
    """The client's page with a fresh nonce for the <style> elements its scripts add."""
    nonce = secrets.token_urlsafe(18)
    html = index.read_text(encoding="utf-8").replace(
        '<meta charset="utf-8">', f'<meta charset="utf-8">\n  <meta name="csp-nonce" content="{nonce}">', 1)
    return HTMLResponse(html, headers={"Content-Security-Policy": CSP.format(nonce=f" 'nonce-{nonce}'"),
                                       "Cache-Control": "no-store"})


PLACEHOLDER = ("<!doctype html><meta charset=utf-8><title>Ludoteca</title><h1>Ludoteca</h1>"
               "<p>The browser client is not installed. The API is described at <a href=/docs>/docs</a> "
               "(<a href=/openapi.json>/openapi.json</a>).</p>\n")


def _mount_web(app: FastAPI, settings: Settings) -> None:
    """The browser client (built separately) at /; a placeholder page until it exists."""
    root = Path(settings.web_root) if settings.web_root else WEB
    if (root / "index.html").exists():
        index = root / "index.html"

        @app.get("/", include_in_schema=False)
        @app.get("/index.html", include_in_schema=False)
        def page() -> HTMLResponse:
            return _page_with_nonce(index)

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
                              "`{code, message}`; cookie sessions send `X-CSRF-Token` on unsafe methods.",
                  docs_url=None, redoc_url=None)  # apidocs: the same pages without a CDN
    errors.install(app)
    app.openapi = lambda: openapi.build(app)  # type: ignore[method-assign]
    app.include_router(routes.router)
    app.include_router(routes_moderation.router)
    app.include_router(account_router)
    app.include_router(routes_arena.router)
    app.include_router(routes_ratings.router)
    app.include_router(tournaments_router)
    app.include_router(reviews_router)
    app.include_router(ws.router)
    app.include_router(apidocs.router)
    app.include_router(gamefiles.router)  # before the client's files at /
    _mount_web(app, settings)
    # Innermost: answers of 1 KB and more are gzipped for clients that accept it (a
    # replay, the lobby's lists); smaller ones (a session's CSRF token) are not, so no
    # secret is compressed beside what a request reflects. WebSockets pass through.
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.add_middleware(SecurityHeaders, https=settings.secure_cookies)
    app.add_middleware(InputGuard, limit=settings.max_body_bytes)
    return app


def app_from_env() -> Any:
    return create_app()
