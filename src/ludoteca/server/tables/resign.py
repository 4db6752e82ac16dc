"""Resigning: a player concedes a game in play. When one seat is left standing (always at
two seats) the game ends and it wins; otherwise the resigner ranks last and a bot plays
the seat on for the others. Rated tables count it like any other result."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ..auth import Actor
from ..db import now
from ..errors import ApiError, not_found
from ..models import GameTable, TableSeat
from .base import TablesBase, resigned_seats


def with_resignations(result: dict[str, Any], resigned: list[dict[str, int]] | None) -> dict[str, Any]:
    """The engine's result with the resigners ranked last: the others keep their order
    among themselves (ties shared), the first to resign ranks last of all."""
    order = resigned_seats(resigned)
    if not order:
        return result
    ranks = list(result["ranks"])
    others = [seat for seat in range(len(ranks)) if seat not in order]
    new = [0] * len(ranks)
    for seat in others:
        new[seat] = 1 + sum(1 for other in others if ranks[other] < ranks[seat])
    for place, seat in enumerate(reversed(order)):
        new[seat] = len(others) + 1 + place
    return {**result, "ranks": new, "winners": [seat for seat, rank in enumerate(new) if rank == 1],
            "resigned": order}


def ended_by_resignation(seats: int, resigned: list[dict[str, int]]) -> dict[str, Any]:
    """The result of a game that ended because one seat was left: no final scoring, the
    standing seat first, the resigners after it."""
    base = {"scores": [0] * seats, "ranks": [1] * seats, "winners": [], "tiebreak": [], "breakdown": [],
            "ended": "resigned"}
    return with_resignations(base, resigned)


class Resign(TablesBase):
    def resign(self, actor: Actor, table_id: str, seat: int | None = None) -> dict[str, Any]:
        with self.server.cache.table_lock(table_id), self.server.transaction() as db:
            row = db.get(GameTable, table_id, populate_existing=True, with_for_update=True)
            if row is None:
                raise not_found()
            seats = list(db.scalars(select(TableSeat).where(TableSeat.table_id == table_id)
                                    .order_by(TableSeat.seat).with_for_update()))
            if row.status != "playing":
                raise ApiError(409, "not_playing", "only a game in play can be resigned", version=row.version)
            gone = resigned_seats(row.resigned)
            mine = [s for s in seats if s.user_id == actor.user_id and s.seat not in gone]
            if seat is not None:
                mine = [s for s in mine if s.seat == seat]
            if not mine:
                raise ApiError(409, "not_seated", "you have no seat in play at this table")
            if len(mine) > 1:
                raise ApiError(422, "which_seat", "you play several seats: say which one resigns")
            chosen = mine[0]
            resigned = [*(row.resigned or []), {"seat": chosen.seat, "after": row.moves_count}]
            row.resigned = resigned
            standing = [s.seat for s in seats if s.seat not in resigned_seats(resigned)]
            over = len(standing) <= 1
            if not over:
                chosen.zombie = True  # a bot plays the seat on (and it cannot be taken back)
            else:
                result = ended_by_resignation(row.seats, resigned)
                row.status, row.result, row.pending, row.finished_at = "over", result, [], now()
                if row.rated:
                    self._rate(db, row, seats, result["ranks"])  # type: ignore[attr-defined]
            row.revision = (row.revision or 0) + 1
            db.flush()
            summary = self._summary(db, row, self._seats(db, table_id))
        self.server.cache.forget_row(table_id)
        self.server.lobby_changed(table_id)
        if not over:
            self.server.bots.schedule(table_id)
        return {"table": summary, "seat": chosen.seat, "over": over}
