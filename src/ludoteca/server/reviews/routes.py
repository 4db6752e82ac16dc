"""The post-game review API (server/reviews/service.py says who may ask and the limits).

    POST /api/tables/{id}/reviews {"seat": n}   ask: 201 queued now, 200 the one asked before
    GET  /api/tables/{id}/reviews               the table's reviews (status and progress)
    GET  /api/tables/{id}/reviews/{seat}        one review: progress, then its contents
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Response

from ludoteca.server.http.deps import ERRORS, MaybeMe, Me, provided
from ludoteca.server.reviews.schemas import ReviewIn, ReviewList, ReviewOut
from ludoteca.server.reviews.service import Reviews

router = APIRouter(prefix="/api", responses=ERRORS)
ReviewsDep = Annotated[Reviews, Depends(provided(Reviews))]
SeatNumber = Annotated[int, Path(ge=0, le=63)]


@router.post("/tables/{table_id}/reviews", status_code=201, tags=["reviews"], response_model=ReviewOut,
             responses={200: {"description": "the review asked for before (by this or another player)",
                              "model": ReviewOut},
                        409: {"description": "the game is not over"},
                        429: {"description": "too many reviews queued, or asked for today"}})
def ask(table_id: str, body: ReviewIn, me: Me, reviews: ReviewsDep, response: Response) -> dict[str, Any]:
    """Ask for the review of one seat of a finished table: queued and computed by the
    review workers; poll GET .../reviews/{seat} for its progress."""
    out, made = reviews.request(me, table_id, body.seat)
    if not made:
        response.status_code = 200
    return out


@router.get("/tables/{table_id}/reviews", tags=["reviews"], response_model=ReviewList)
def listing(table_id: str, me: MaybeMe, reviews: ReviewsDep) -> dict[str, Any]:
    """The reviews asked for at a table, without their contents."""
    return reviews.listing(me, table_id)


@router.get("/tables/{table_id}/reviews/{seat}", tags=["reviews"], response_model=ReviewOut)
def one(table_id: str, seat: SeatNumber, me: MaybeMe, reviews: ReviewsDep) -> dict[str, Any]:
    """One seat's review: its progress while it is computed, then the review itself."""
    return reviews.read(me, table_id, seat)
