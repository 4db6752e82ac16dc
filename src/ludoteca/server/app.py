"""The ASGI application: the API, the live sockets, and the browser client at /."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware

from ludoteca import __version__
from ludoteca.server.accounts import routes as accounts_routes
from ludoteca.server.alerts import routes as alerts_routes
from ludoteca.server.http import apidocs, gamefiles, openapi
from ludoteca.server.http import routes as server_routes
from ludoteca.server.http.assets import mount_web
from ludoteca.server.http.inputs import InputGuard
from ludoteca.server.http.security import SecurityHeaders
from ludoteca.server.kernel import errors, logs
from ludoteca.server.kernel.config import Settings
from ludoteca.server.moderation import routes as moderation_routes
from ludoteca.server.playnow import routes as playnow_routes
from ludoteca.server.ratings import routes as ratings_routes
from ludoteca.server.reviews import routes as reviews_routes
from ludoteca.server.server import Server
from ludoteca.server.social import routes as social_routes
from ludoteca.server.tables import games as tables_games
from ludoteca.server.tables import routes as tables_routes
from ludoteca.server.tables import socket as ws
from ludoteca.server.tournaments import routes as tournaments_routes

log = logging.getLogger("ludoteca.server")


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
        app.state.runtime = server.runtime  # who is signed in (kernel/identity.py)
        app.state.services = server.services()
        await server.start()
        log.info("ludoteca %s on %s, hub %s", __version__, server.runtime.engine.dialect.name, server.runtime.hub.name)
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
    # Each feature's routes. The order is the description's (/docs lists them so).
    for router in (server_routes.router, accounts_routes.router, tables_games.router, ratings_routes.router,
                   tables_routes.router, moderation_routes.router, alerts_routes.router, playnow_routes.router,
                   social_routes.router, tournaments_routes.router, reviews_routes.router, ws.router):
        app.include_router(router)
    app.include_router(apidocs.router)
    app.include_router(gamefiles.router)  # before the client's files at /
    mount_web(app, settings)
    # Innermost: answers of 1 KB and more are gzipped for clients that accept it (a
    # replay, the lobby's lists); smaller ones (a session's CSRF token) are not, so no
    # secret is compressed beside what a request reflects. WebSockets pass through.
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.add_middleware(SecurityHeaders, https=settings.secure_cookies)
    app.add_middleware(InputGuard, limit=settings.max_body_bytes)
    return app


def app_from_env() -> Any:
    return create_app()
