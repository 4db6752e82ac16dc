"""The API's own pages, /docs (Swagger UI) and /redoc (ReDoc), served from this server.

FastAPI's pages load their scripts from a CDN: broken offline, and a script from a third
party running on our origin. Here the scripts are the copies the ``fastapi-offline``
package ships (Swagger UI and ReDoc, as released), served under /docs/assets/, and the
pages hold no inline script, so their policy (app.DOCS_CSP) allows the server's own
scripts only.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse

from ludoteca.server.kernel.errors import not_found

ASSETS = "/docs/assets"
_FILES = {"swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js", "favicon.png"}
_OWN = Path(__file__).resolve().parent.parent / "data" / "swagger-init.js"

router = APIRouter(include_in_schema=False)


def _bundled() -> Path:
    import fastapi_offline

    return Path(fastapi_offline.__file__).resolve().parent / "static"


def _page(title: str, head: str, body: str) -> HTMLResponse:
    return HTMLResponse(f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="{ASSETS}/favicon.png">{head}</head>
<body>{body}</body></html>
""")


@router.get("/docs")
def swagger() -> HTMLResponse:
    return _page("Ludoteca API", f'<link rel="stylesheet" href="{ASSETS}/swagger-ui.css">',
                 f'<div id="swagger-ui"></div><script src="{ASSETS}/swagger-ui-bundle.js"></script>'
                 f'<script src="{ASSETS}/swagger-init.js"></script>')


@router.get("/redoc")
def redoc() -> HTMLResponse:
    return _page("Ludoteca API", "", f'<redoc spec-url="/openapi.json"></redoc>'
                 f'<script src="{ASSETS}/redoc.standalone.js"></script>')


@router.get(ASSETS + "/{name}")
def asset(name: str) -> FileResponse:
    if name == _OWN.name:
        path = _OWN
    elif name in _FILES:
        path = _bundled() / name
    else:
        raise not_found("file")
    return FileResponse(path, headers={"Cache-Control": "public, max-age=86400"})
