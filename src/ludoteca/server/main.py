"""``ludoteca serve``: run the server with uvicorn."""

from __future__ import annotations

import os

from ludoteca.server.kernel.config import Settings, SettingsError


def run(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, redis: str | None = None,
        workers: int = 1) -> None:
    """Serve until interrupted. Settings go through the environment so that each of
    ``workers`` processes builds the same app."""
    import uvicorn

    from ludoteca.server.http.edge import launch_options

    if db:
        os.environ["LUDOTECA_DATABASE_URL"] = db
    if redis:
        os.environ["LUDOTECA_REDIS_URL"] = redis
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        raise SystemExit(f"ludoteca serve: {error}") from None
    if workers > 1 and settings.backend == "sqlite" and not settings.redis_url:
        # Without Redis each process would only tell its own clients about changes.
        raise SystemExit("several workers need a shared hub: give --redis (and better, PostgreSQL with --db)")
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    print(f"Ludoteca: open http://{shown}:{port}/  (storage: {settings.backend}, "
          f"hub: {'redis' if settings.redis_url else 'local'}, workers: {workers})", flush=True)
    # launch_options: the protocols that bound what a client controls (server/http/edge.py),
    # and uvicorn's WebSocket cap, which sits above ours, so a message somewhat too large
    # gets the socket's clear "too_large" error and only a huge one is cut (1009).
    uvicorn.run("ludoteca.server.app:create_app", factory=True, host=host, port=port, workers=workers,
                proxy_headers=True, log_level="info", timeout_graceful_shutdown=5, **launch_options(settings))
