"""The post-game review API (issue 29; server/reviews/service.py says who may ask and the limits).

    POST /api/tables/{id}/reviews {"seat": n}   ask: 201 queued now, 200 the one asked before
    GET  /api/tables/{id}/reviews               the table's reviews (status and progress)
    GET  /api/tables/{id}/reviews/{seat}        one review: progress, then its contents
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Response
from pydantic import BaseModel, Field

from ludoteca.server.http.routes import ERRORS, MaybeMe, Me, ServerDep
from ludoteca.server.http.schemas import Strict

router = APIRouter(prefix="/api", responses=ERRORS)
SeatNumber = Annotated[int, Path(ge=0, le=63)]



class ReviewIn(Strict):
    seat: int = Field(ge=0, le=63, description="The seat whose decisions are judged.")


class ReviewBudgetOut(BaseModel):
    search: int
    evaluate: int


class ReviewOut(BaseModel):
    """A review's state: queued, running (``done`` of ``total`` decisions judged,
    ``percent``), done (``review``: ``ludoteca.review/1``, docs/bots.md) or failed."""

    table: str
    seat: int
    status: Literal["queued", "running", "done", "failed"]
    done: int
    total: int
    percent: int
    budget: ReviewBudgetOut
    seed: int
    review: dict[str, Any] | None
    error: str | None


class ReviewList(BaseModel):
    table: str
    over: bool
    private: bool
    own: list[int]
    reviews: list[ReviewOut]


@router.post("/tables/{table_id}/reviews", status_code=201, tags=["reviews"], response_model=ReviewOut,
             responses={200: {"description": "the review asked for before (by this or another player)"},
                        409: {"description": "the game is not over"},
                        429: {"description": "too many reviews queued, or asked for today"}})
def ask(table_id: str, body: ReviewIn, me: Me, server: ServerDep, response: Response) -> dict[str, Any]:
    """Ask for the review of one seat of a finished table: queued and computed by the
    review workers; poll GET .../reviews/{seat} for its progress."""
    out, made = server.reviews.request(me, table_id, body.seat)
    if not made:
        response.status_code = 200
    return out


@router.get("/tables/{table_id}/reviews", tags=["reviews"], response_model=ReviewList)
def listing(table_id: str, me: MaybeMe, server: ServerDep) -> dict[str, Any]:
    """The reviews asked for at a table, without their contents."""
    return server.reviews.listing(me, table_id)


@router.get("/tables/{table_id}/reviews/{seat}", tags=["reviews"], response_model=ReviewOut)
def one(table_id: str, seat: SeatNumber, me: MaybeMe, server: ServerDep) -> dict[str, Any]:
    """One seat's review: its progress while it is computed, then the review itself."""
    return server.reviews.read(me, table_id, seat)
