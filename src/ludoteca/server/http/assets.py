"""The browser client's files at /: the page itself with a fresh nonce for its style
elements (http/security.py's policy), and every other file as it lies in web/."""

from __future__ import annotations

import secrets
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from ludoteca.server.http.security import CSP
from ludoteca.server.kernel.config import Settings

WEB = Path(__file__).resolve().parents[2] / "web"
"""The browser client that ships with the package (src/ludoteca/web)."""


def page_with_nonce(index: Path) -> HTMLResponse:
    """The client's page with a fresh nonce for the <style> elements its scripts add."""
    nonce = secrets.token_urlsafe(18)
    html = index.read_text(encoding="utf-8").replace(
        '<meta charset="utf-8">', f'<meta charset="utf-8">\n  <meta name="csp-nonce" content="{nonce}">', 1)
    return HTMLResponse(html, headers={"Content-Security-Policy": CSP.format(nonce=f" 'nonce-{nonce}'"),
                                       "Cache-Control": "no-store"})


PLACEHOLDER = ("<!doctype html><meta charset=utf-8><title>Ludoteca</title><h1>Ludoteca</h1>"
               "<p>The browser client is not installed. The API is described at <a href=/docs>/docs</a> "
               "(<a href=/openapi.json>/openapi.json</a>).</p>\n")


def mount_web(app: FastAPI, settings: Settings) -> None:
    """The browser client (built separately) at /; a placeholder page until it exists."""
    root = Path(settings.web_root) if settings.web_root else WEB
    if (root / "index.html").exists():
        index = root / "index.html"

        @app.get("/", include_in_schema=False)
        @app.get("/index.html", include_in_schema=False)
        def page() -> HTMLResponse:
            return page_with_nonce(index)

        app.mount("/", StaticFiles(directory=root, html=True), name="web")
        return

    @app.get("/", include_in_schema=False)
    def placeholder() -> HTMLResponse:
        return HTMLResponse(PLACEHOLDER)
