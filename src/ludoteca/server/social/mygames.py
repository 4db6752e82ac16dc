"""My games: a player's tables, those waiting for the player's decision first (with the
time left), then the other open and running ones, then the finished ones with the
player's result; and the count of the first kind, the header's badge."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session as OrmSession

from ludoteca.server.kernel.clock import iso, iso_or_none, now_ms
from ludoteca.server.kernel.models import GameTable, TableSeat, User
from ludoteca.server.kernel.runtime import Runtime
from ludoteca.server.tables import clocks
from ludoteca.server.tables.snapshot import SeatSnapshot, TableSnapshot

RUNNING_MAX = 200
"""Open and running tables listed at most (a player in more is a bot farm)."""
FINISHED_MAX = 30


def _waiting(table: TableSnapshot, seats: Sequence[SeatSnapshot], user_id: int) -> list[int]:
    """The seats of ``user_id`` the table waits for: pending, played by the person (not a
    bot keeping it for them, not resigned)."""
    if table.status != "playing":
        return []
    gone = set(table.resigned_seats)
    return [s.seat for s in seats if s.user_id == user_id and s.seat in table.pending and not s.zombie
            and s.seat not in gone]


def _time_left(table: TableSnapshot, seats: Sequence[SeatSnapshot], mine: list[int], at_ms: int) -> int | None:
    shown = clocks.shown(table, seats, at_ms)
    if shown is None:
        return None
    left: list[int] = []
    for info in shown["seats"]:
        if info["seat"] in mine and info["running"]:
            if "remaining_ms" in info:
                left.append(int(info["remaining_ms"]))
            elif info.get("deadline_ms") is not None:
                left.append(max(0, int(info["deadline_ms"]) - at_ms))
    return min(left) if left else None


class MyGames:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    @staticmethod
    def _seats(db: OrmSession, table_ids: Iterable[str]) -> dict[str, list[SeatSnapshot]]:
        ids = list(table_ids)
        out: dict[str, list[SeatSnapshot]] = {t: [] for t in ids}
        if not ids:
            return out
        rows = db.execute(select(TableSeat.table_id, TableSeat.seat, TableSeat.user_id, TableSeat.bot,
                                 TableSeat.zombie, TableSeat.bank_ms, User.username)
                          .outerjoin(User, User.id == TableSeat.user_id)
                          .where(TableSeat.table_id.in_(ids)).order_by(TableSeat.table_id, TableSeat.seat))
        for row in rows:
            out[row.table_id].append(SeatSnapshot(**row._mapping))
        return out

    def badges(self, users: Iterable[int], tables: Iterable[str] | None = None) -> dict[int, int]:
        """The badge of each of ``users`` (only those seated at one of ``tables`` when
        given: the others' did not change)."""
        users = list(users)
        if not users:
            return {}
        with self.runtime.sessions() as db:
            if tables is not None:
                touched = list(tables)
                if not touched:
                    return {}
                users = list(set(db.scalars(select(TableSeat.user_id).where(
                    TableSeat.table_id.in_(touched), TableSeat.user_id.in_(users)))))
                if not users:
                    return {}
            counts = {u: 0 for u in users}
            playing = list(db.scalars(select(GameTable).where(GameTable.status == "playing", GameTable.id.in_(
                select(TableSeat.table_id).where(TableSeat.user_id.in_(users))))))
            seats = self._seats(db, [t.id for t in playing])
            for row in playing:
                table = TableSnapshot.of(row)
                for user in {s.user_id for s in seats[table.id] if s.user_id in counts}:
                    assert user is not None
                    if _waiting(table, seats[table.id], user):
                        counts[user] += 1
            return counts

    def badge(self, user_id: int) -> int:
        return self.badges([user_id]).get(user_id, 0)

    def list(self, user_id: int) -> dict[str, Any]:
        """``{waiting, running, finished, badge}``: each a list of the player's tables."""
        at = now_ms()
        with self.runtime.sessions() as db:
            mine = select(TableSeat.table_id).where(TableSeat.user_id == user_id)
            running = [TableSnapshot.of(r) for r in db.scalars(
                select(GameTable).where(GameTable.id.in_(mine), GameTable.status.in_(("open", "playing")))
                .order_by(GameTable.created_at.desc()).limit(RUNNING_MAX))]
            finished = [TableSnapshot.of(r) for r in db.scalars(
                select(GameTable).where(GameTable.id.in_(mine), GameTable.status == "over")
                .order_by(GameTable.finished_at.desc()).limit(FINISHED_MAX))]
            seats = self._seats(db, [t.id for t in running + finished])
        waiting: list[dict[str, Any]] = []
        others: list[dict[str, Any]] = []
        for table in running:
            own = seats[table.id]
            mine_waiting = _waiting(table, own, user_id)
            item = self._item(table, own, user_id)
            if mine_waiting:
                item["waiting"] = True
                item["time_left_ms"] = _time_left(table, own, mine_waiting, at)
                waiting.append(item)
            else:
                others.append(item)
        # The most urgent first; a table without a running clock last among them.
        waiting.sort(key=lambda i: (i["time_left_ms"] is None, i["time_left_ms"] or 0))
        done = [self._item(t, seats[t.id], user_id) for t in finished]
        return {"waiting": waiting, "running": others, "finished": done, "badge": len(waiting)}

    @staticmethod
    def _item(table: TableSnapshot, seats: Sequence[SeatSnapshot], user_id: int) -> dict[str, Any]:
        own = [s.seat for s in seats if s.user_id == user_id]
        result = None
        if table.status == "over" and table.result:
            ranks = table.result.get("ranks") or []
            winners = table.result.get("winners") or []
            my_ranks = [int(ranks[s]) for s in own if s < len(ranks)]
            result = {"rank": min(my_ranks) if my_ranks else None, "of": table.seats,
                      "won": any(s in winners for s in own)}
        return {"id": table.id, "game": table.game, "seats": table.seats, "mode": table.mode,
                "status": table.status, "rated": table.rated, "version": table.version,
                "your_seats": own,
                "players": [{"seat": s.seat, "username": s.username if s.user_id else None, "bot": s.bot}
                            for s in seats],
                "waiting": False, "time_left_ms": None, "result": result,
                "created_at": iso(table.created_at),
                "finished_at": iso_or_none(table.finished_at)}
