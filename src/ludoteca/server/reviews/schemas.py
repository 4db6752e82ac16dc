"""What the review routes take and answer (server/reviews/routes.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ludoteca.server.http.schemas import Answer, Strict
from ludoteca.server.tables.schemas import MatchReview, ReviewBudget


class ReviewIn(Strict):
    seat: int = Field(ge=0, le=63, description="The seat whose decisions are judged.")


class ReviewOut(Answer):
    """A review's state: queued, running (``done`` of ``total`` decisions judged,
    ``percent``), done (``review``: ``ludoteca.review/1``, docs/bots.md) or failed."""

    table: str
    seat: int
    status: Literal["queued", "running", "done", "failed"]
    done: int
    total: int
    percent: int
    budget: ReviewBudget
    seed: int
    review: MatchReview | None
    error: str | None


class ReviewList(Answer):
    table: str
    over: bool
    private: bool
    own: list[int]
    reviews: list[ReviewOut]
