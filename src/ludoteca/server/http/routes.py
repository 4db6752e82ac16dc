"""The server's own two routes: its health, and the source it runs. Each feature's
routes are in its package (``<feature>/routes.py``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Response

from ludoteca import __version__
from ludoteca.server.http import source
from ludoteca.server.http.deps import ERRORS, provided
from ludoteca.server.http.schemas import Answer
from ludoteca.server.kernel.config import Settings
from ludoteca.server.kernel.runtime import Runtime

router = APIRouter(prefix="/api", responses=ERRORS)
RuntimeDep = Annotated[Runtime, Depends(provided(Runtime))]
SettingsDep = Annotated[Settings, Depends(provided(Settings))]


class Health(Answer):
    status: Literal["ok"]
    version: str
    storage: str
    hub: str
    guests: bool
    table_expiry_hours: float


@router.get("/health", tags=["server"], response_model=Health)
def health(runtime: RuntimeDep, settings: SettingsDep) -> dict[str, Any]:
    """Status, version, storage backend and hub."""
    return {"status": "ok", "version": __version__, "storage": runtime.engine.dialect.name,
            "hub": runtime.hub.name, "guests": settings.allow_guests,
            "table_expiry_hours": settings.table_expiry_hours}


@router.get("/source", tags=["server"], response_class=Response,
            responses={200: {"description": "a gzipped tar of the source this server runs",
                             "content": {"application/gzip": {}}}})
def source_archive() -> Response:
    """The source code of this very server, with its licence (GNU AGPL, section 13)."""
    return Response(source.archive(), media_type="application/gzip",
                    headers={"Content-Disposition": f'attachment; filename="{source.filename()}"'})
