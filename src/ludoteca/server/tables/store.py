"""The table store, ``TableStatements``: every SQL statement about tables, seats and moves, each in one form,
built once from the SQLAlchemy tables (building expressions costs more CPU per move than
running them).

Reads are SQLAlchemy Core statements and answer snapshots. The move write, the hottest
statement, is compiled once to the driver's own SQL and run with
``Connection.exec_driver_sql`` on pre-encoded parameters: one move or a group of many,
over the same statements (one ``executemany`` per kind), so the group commit keeps its
throughput and the single path is the same code. Changes to seats and status go
through the ORM objects the store locks for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

import orjson
from sqlalchemy import (
    Connection,
    Dialect,
    Table,
    and_,
    bindparam,
    delete,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Session as OrmSession

from ludoteca.server.kernel.clock import now, now_ms
from ludoteca.server.kernel.errors import not_found
from ludoteca.server.kernel.models import ChatMessage, GameTable, Meta, MoveRow, Rating, TableSeat, User
from ludoteca.server.tables.snapshot import SeatSnapshot, TableSnapshot

_T, _S, _U, _M = (cast(Table, m.__table__) for m in (GameTable, TableSeat, User, MoveRow))

_READ_TABLE = select(_T).where(_T.c.id == bindparam("id"))
_READ_SEATS = (select(_S, _U.c.username).select_from(_S.outerjoin(_U, _U.c.id == _S.c.user_id))
               .where(_S.c.table_id == bindparam("id")).order_by(_S.c.seat))
_READ_VERSION = select(_T.c.version).where(_T.c.id == bindparam("id"))
_READ_EARLIER = select(_M.c.seat, _M.c.number, _M.c.version, _M.c.move, _M.c.events).where(
    _M.c.table_id == bindparam("id"), _M.c.move_id == bindparam("move_id"))
_MOVES_SINCE = (select(_M.c.seat, _M.c.move, _M.c.version)
                .where(_M.c.table_id == bindparam("id"), _M.c.number > bindparam("after"),
                       _M.c.version <= bindparam("upto")).order_by(_M.c.number))
_PLAYED = select(_M.c.seat, _M.c.move).where(_M.c.table_id == bindparam("id")).order_by(_M.c.number)
_LAST_MOVE = (select(_M.c.number, _M.c.seat, _M.c.by_bot).where(_M.c.table_id == bindparam("id"))
              .order_by(_M.c.number.desc()).limit(1))
_LOG = (select(_M.c.number, _M.c.seat, _M.c.events, _M.c.by_bot)
        .where(_M.c.table_id == bindparam("id"), _M.c.number > bindparam("since")).order_by(_M.c.number))

# The move write. Its WHERE names the table at the version the move was checked against
# and at the revision of the row it was checked with: a racing move, or any other change
# to the table (seats, status, clocks), leaves it changing no row.
_WRITE_COLUMNS = ("table_id", "number", "version", "seat", "move", "move_id", "undoable", "events", "by_bot",
                  "created_at")
_BUMP_WHERE = (_T.c.id == bindparam("id"), _T.c.version == bindparam("old"), _T.c.revision == bindparam("revision"))
_BUMP_VALUES: dict[str, Any] = {"version": bindparam("version"), "moves_count": bindparam("moves"),
                                "pending": bindparam("pending"), "turn_started_ms": bindparam("at")}
_BUMP = update(_T).where(*_BUMP_WHERE).values(_BUMP_VALUES)
_FINISH = update(_T).where(*_BUMP_WHERE).values({**_BUMP_VALUES, "status": bindparam("status"),
                                                 "result": bindparam("result"), "finished_at": bindparam("finished")})
_SET_BANK = (update(_S).where(_S.c.table_id == bindparam("table"), _S.c.seat == bindparam("seat"))
             .values(bank_ms=bindparam("bank")))

_TAKE_BACK = delete(_M).where(_M.c.table_id == bindparam("id"), _M.c.number == bindparam("number"))
# (Statements run with parameters name them apart from the columns they set.)
_UNDONE = (update(_T).where(_T.c.id == bindparam("b_id"), _T.c.version == bindparam("b_old"))
           .values(version=bindparam("b_version"), moves_count=bindparam("b_moves"), pending=bindparam("b_pending"),
                   undo_version=bindparam("b_version"), turn_started_ms=bindparam("b_at")))
_SUSPEND = update(_T).where(_T.c.id == bindparam("b_id")).values(status="suspended", revision=_T.c.revision + 1)

# The clock scan runs every second over every playing table: plain rows, few columns.
_SCAN_TABLES = select(_T.c.id, _T.c.status, _T.c.mode, _T.c.clock, _T.c.pending, _T.c.turn_started_ms,
                      _T.c.version).where(_T.c.status == "playing", _T.c.turn_started_ms.is_not(None))
_SCAN_SEATS = select(_S.c.table_id, _S.c.seat, _S.c.user_id, _S.c.zombie, _S.c.bank_ms).where(
    _S.c.table_id.in_(select(_T.c.id).where(_T.c.status == "playing")), _S.c.user_id.is_not(None),
    _S.c.zombie.is_(False))
_SCAN_IDLE = select(_T.c.id, _T.c.pending).where(_T.c.status == "playing", _T.c.turn_started_ms < bindparam("before"))
_STILL_AT = select(_T.c.id).where(_T.c.id == bindparam("id"), _T.c.version == bindparam("version"),
                                  _T.c.status == "playing")
_ZOMBIE = (update(_S).where(_S.c.table_id == bindparam("b_id"), _S.c.seat == bindparam("b_seat"))
           .values(zombie=True))
_OUT_OF_TIME = (update(_S).where(_S.c.table_id == bindparam("b_id"), _S.c.seat == bindparam("b_seat"))
                .values(zombie=True, bank_ms=bindparam("b_bank")))
_BANK = (update(_S).where(_S.c.table_id == bindparam("b_id"), _S.c.seat == bindparam("b_seat"))
         .values(bank_ms=bindparam("b_bank")))
# When a seat's time ran out: the moves played then, for the log and the end screen.
_TIMED_OUT_AT = (update(_S).where(_S.c.table_id == bindparam("b_id"), _S.c.seat == bindparam("b_seat"))
                 .values(timed_out_after=select(_T.c.moves_count).where(_T.c.id == bindparam("b_id"))
                         .scalar_subquery()))
_REVISED = update(_T).where(_T.c.id == bindparam("b_id")).values(revision=_T.c.revision + 1)

SERVING = "serving_ms"
"""The server_meta key of the heartbeat: when some process last said it was serving."""


class Stale(Exception):
    """A versioned write changed no row: the table moved on under the caller's copy."""


@dataclass(frozen=True, slots=True)
class StoredMove:
    seat: int
    number: int
    version: int
    move: Any
    events: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class MoveWrite:
    """One move as written: its row, and the table's row at ``old_version``/``revision``
    moved to ``version``."""

    table_id: str
    number: int
    version: int
    old_version: int
    revision: int
    seat: int
    move: Any
    move_id: str
    undoable: bool
    events: list[dict[str, Any]]
    by_bot: bool
    pending: list[int]
    at: int
    result: dict[str, Any] | None
    """The stored result when the move finished the game."""
    banks: dict[int, int]


def _json(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


class TableStatements:
    def __init__(self, dialect: Dialect) -> None:
        self.sqlite = dialect.name == "sqlite"
        # Named parameters in the driver's own style: sqlite3 ``:name``, psycopg ``%(name)s``.
        same_kind: Any = type(dialect)
        named = same_kind(paramstyle="named" if self.sqlite else "pyformat")
        self._bump, self._finish, self._set_bank = (
            str(statement.compile(dialect=named)) for statement in (_BUMP, _FINISH, _SET_BANK))
        # The insert is spelled out from the table's columns: compiled, it would read
        # back the new row's id (RETURNING), which nobody needs.
        quote, mark = named.identifier_preparer, (":{}" if self.sqlite else "%({})s").format
        self._insert_move = (f"INSERT INTO {quote.format_table(_M)} "
                             f"({', '.join(quote.quote(_M.c[c].name) for c in _WRITE_COLUMNS)}) "
                             f"VALUES ({', '.join(mark(c) for c in _WRITE_COLUMNS)})")

    # -- reading -------------------------------------------------------------------------

    @staticmethod
    def table(db: OrmSession | Connection, table_id: str) -> TableSnapshot:
        """The table as read now; 404 if there is none."""
        found = TableStatements.table_or_none(db, table_id)
        if found is None:
            raise not_found()
        return found

    @staticmethod
    def table_or_none(db: OrmSession | Connection, table_id: str) -> TableSnapshot | None:
        connection = db.connection() if isinstance(db, OrmSession) else db
        row = connection.execute(_READ_TABLE, {"id": table_id}).first()
        return None if row is None else TableSnapshot(**row._mapping)

    @staticmethod
    def seats(db: OrmSession | Connection, table_id: str) -> list[SeatSnapshot]:
        """The table's seats, each with its player's name (one query: this runs on every
        move and every update)."""
        connection = db.connection() if isinstance(db, OrmSession) else db
        return [SeatSnapshot(**s._mapping) for s in connection.execute(_READ_SEATS, {"id": table_id})]

    @staticmethod
    def version(db: OrmSession, table_id: str) -> int | None:
        return db.connection().execute(_READ_VERSION, {"id": table_id}).scalar()

    @staticmethod
    def earlier_move(db: OrmSession, table_id: str, move_id: str) -> StoredMove | None:
        """The move made under ``move_id`` at this table, if any."""
        row = db.connection().execute(_READ_EARLIER, {"id": table_id, "move_id": move_id}).first()
        return None if row is None else StoredMove(row.seat, row.number, row.version, row.move, row.events)

    @staticmethod
    def moves_since(db: OrmSession, table_id: str, after_number: int, up_to_version: int) -> list[Any]:
        """(seat, move, version) of the moves after move ``after_number`` that landed by
        table version ``up_to_version``, in order."""
        return list(db.connection().execute(_MOVES_SINCE, {"id": table_id, "after": after_number,
                                                            "upto": up_to_version}))

    @staticmethod
    def played(db: OrmSession, table_id: str) -> list[tuple[int, Any]]:
        """(seat, move) of every move, in order."""
        return [(r.seat, r.move) for r in db.connection().execute(_PLAYED, {"id": table_id})]

    @staticmethod
    def last_move(db: OrmSession, table_id: str) -> Any:
        """(number, seat, by_bot) of the table's last move, or None."""
        return db.connection().execute(_LAST_MOVE, {"id": table_id}).first()

    @staticmethod
    def log(db: OrmSession, table_id: str, since: int) -> list[Any]:
        """(number, seat, events, by_bot) of the moves after move ``since``."""
        return list(db.connection().execute(_LOG, {"id": table_id, "since": since}))

    # -- the move write ------------------------------------------------------------------

    def _time(self, value: datetime) -> Any:
        # SQLAlchemy keeps SQLite times as text in this form; PostgreSQL takes the object.
        return value.strftime("%Y-%m-%d %H:%M:%S.%f") if self.sqlite else value

    def write_moves(self, connection: Connection, moves: Sequence[MoveWrite]) -> None:
        """The moves' rows and their tables' new versions, in the caller's transaction;
        raises ``Stale`` if any table moved on, IntegrityError if a move number or id
        was taken. Two moves of one table are never in one call."""
        sqlite = self.sqlite
        at = self._time(now())
        rows: list[dict[str, Any]] = []
        bumps: list[dict[str, Any]] = []
        finishes: list[dict[str, Any]] = []
        banks: list[dict[str, Any]] = []
        for m in moves:
            rows.append({"table_id": m.table_id, "number": m.number, "version": m.version, "seat": m.seat,
                         "move": _json(m.move), "move_id": m.move_id,
                         "undoable": int(m.undoable) if sqlite else m.undoable, "events": _json(m.events),
                         "by_bot": int(m.by_bot) if sqlite else m.by_bot, "created_at": at})
            bump = {"id": m.table_id, "old": m.old_version, "revision": m.revision, "version": m.version,
                    "moves": m.number, "at": m.at, "pending": _json(m.pending)}
            if m.result is None:
                bumps.append(bump)
            else:
                finishes.append({**bump, "status": "over", "result": _json(m.result), "finished": at})
            banks.extend({"table": m.table_id, "seat": seat, "bank": bank} for seat, bank in m.banks.items())
        connection.exec_driver_sql(self._insert_move, rows if len(rows) > 1 else rows[0])
        # One statement per kind, many rows: a round trip each on PostgreSQL, not one per
        # table. The drivers sum the rows changed, so a shortfall means some table moved on.
        for statement, params in ((self._bump, bumps), (self._finish, finishes)):
            if params:
                done = connection.exec_driver_sql(statement, params if len(params) > 1 else params[0])
                if done.rowcount != len(params):
                    raise Stale
        if banks:
            connection.exec_driver_sql(self._set_bank, banks if len(banks) > 1 else banks[0])

    @staticmethod
    def take_back(connection: Connection, table_id: str, number: int, old_version: int, version: int,
                  moves: int, pending: list[int], at: int, banks: dict[int, int]) -> None:
        """Undo move ``number``: the table goes from ``old_version`` to ``version`` with
        ``moves`` moves, its turn starting at ``at`` and the seats' banks set to
        ``banks``; ``Stale`` if it was not at ``old_version``."""
        connection.execute(_TAKE_BACK, {"id": table_id, "number": number})
        done = connection.execute(_UNDONE, {"b_id": table_id, "b_old": old_version, "b_version": version,
                                            "b_moves": moves, "b_pending": pending, "b_at": at})
        if done.rowcount != 1:
            raise Stale
        for seat, bank in banks.items():
            connection.execute(_BANK, {"b_id": table_id, "b_seat": seat, "b_bank": bank})

    @staticmethod
    def suspend(db: OrmSession, table_id: str) -> None:
        db.connection().execute(_SUSPEND, {"b_id": table_id})

    # -- seats and status (through the ORM objects, locked) --------------------------------

    @staticmethod
    def lock(db: OrmSession, table_id: str, lock_seats: bool = True) -> tuple[GameTable, list[TableSeat]]:
        """The table and its seats, locked for a change (row locks on PostgreSQL, so two
        joins cannot take the same seat; SQLite's write transactions are exclusive)."""
        row = db.get(GameTable, table_id, populate_existing=True, with_for_update=True)
        if row is None:
            raise not_found()
        query = select(TableSeat).where(TableSeat.table_id == table_id).order_by(TableSeat.seat)
        return row, list(db.scalars(query.with_for_update() if lock_seats else query))

    @staticmethod
    def open_table(db: OrmSession, id: str, created_by: int, own: list[int], **settings: Any,
                   ) -> tuple[GameTable, list[TableSeat]]:
        row = GameTable(id=id, **settings, status="open", version=0, moves_count=0, undo_version=0, pending=[],
                        created_by=created_by, created_at=now())
        db.add(row)
        db.flush()
        seats = [TableSeat(table_id=row.id, seat=seat, user_id=created_by if seat in own else None, zombie=False)
                 for seat in range(row.seats)]
        db.add_all(seats)
        db.flush()
        return row, seats

    @staticmethod
    def name_rematch(db: OrmSession, table_id: str, earlier: str | None, rematch_id: str) -> bool:
        """Name ``table_id``'s rematch, if it is still ``earlier``: only one request can."""
        named = db.connection().execute(
            update(GameTable).where(GameTable.id == table_id, GameTable.rematch_id.is_(None) if earlier is None
                                    else GameTable.rematch_id == earlier)
            .values(rematch_id=rematch_id, revision=GameTable.revision + 1))
        return named.rowcount == 1

    # -- the lobby and profiles ----------------------------------------------------------

    @staticmethod
    def lobby(db: OrmSession, game: str | None, status: str | None, limit: int, offset: int, expiry_hours: float,
              user_id: int | None) -> list[TableSnapshot]:
        """A page of public tables, newest first (and, when ``user_id`` is given, that
        player's private ones). Open and playing tables nobody has touched for
        ``expiry_hours`` (created, started, moved in) are left out."""
        query = select(_T).where(_T.c.private.is_(False))
        if game:
            query = query.where(_T.c.game == game)
        query = query.where(_T.c.status == status) if status else query.where(_T.c.status.in_(("open", "playing")))
        since, since_ms = now() - timedelta(hours=expiry_hours), now_ms() - int(expiry_hours * 3_600_000)
        query = query.where(or_(
            _T.c.status.not_in(("open", "playing")),
            and_(_T.c.status == "open", _T.c.created_at >= since),
            _T.c.turn_started_ms >= since_ms,
            and_(_T.c.turn_started_ms.is_(None), _T.c.started_at >= since)))
        connection = db.connection()
        rows = [TableSnapshot(**r._mapping) for r in
                connection.execute(query.order_by(_T.c.created_at.desc(), _T.c.id).offset(offset).limit(limit))]
        if user_id is not None:
            mine = select(_S.c.table_id).where(_S.c.user_id == user_id)
            private = select(_T).where(_T.c.private.is_(True), _T.c.id.in_(mine),
                                       _T.c.status.in_((status,) if status else ("open", "playing")))
            if game:
                private = private.where(_T.c.game == game)
            rows += [TableSnapshot(**r._mapping) for r in connection.execute(private)]
        return rows

    @staticmethod
    def username(db: OrmSession, user_id: int) -> str | None:
        return db.scalar(select(User.username).where(User.id == user_id))

    @staticmethod
    def user(db: OrmSession, username: str) -> User | None:
        return db.scalar(select(User).where(User.username == username))

    @staticmethod
    def played_by_game(db: OrmSession, user_id: int) -> list[tuple[str, int]]:
        """(game, finished public tables) of the player: a profile is public."""
        return [(g, n) for g, n in db.execute(
            select(GameTable.game, func.count()).join(TableSeat, TableSeat.table_id == GameTable.id)
            .where(TableSeat.user_id == user_id, GameTable.status == "over", GameTable.private.is_(False))
            .group_by(GameTable.game))]

    @staticmethod
    def ratings_of(db: OrmSession, user_id: int) -> list[Rating]:
        return list(db.scalars(select(Rating).where(Rating.user_id == user_id)))

    @staticmethod
    def finished_seats(db: OrmSession, user_id: int, limit: int) -> list[Any]:
        """(table, game, result, finished_at, seat) of the player's latest finished
        public tables, one row per seat."""
        return list(db.execute(
            select(GameTable.id, GameTable.game, GameTable.result, GameTable.finished_at, TableSeat.seat)
            .join(TableSeat, TableSeat.table_id == GameTable.id)
            .where(TableSeat.user_id == user_id, GameTable.status == "over", GameTable.private.is_(False))
            .order_by(GameTable.finished_at.desc(), GameTable.id).limit(limit)))

    # -- chat ---------------------------------------------------------------------------------

    @staticmethod
    def add_chat(db: OrmSession, table_id: str, user_id: int, text: str) -> ChatMessage:
        message = ChatMessage(table_id=table_id, user_id=user_id, text=text, created_at=now())
        db.add(message)
        db.flush()
        return message

    @staticmethod
    def recent_chat(db: OrmSession, table_id: str, limit: int) -> list[Any]:
        """(id, text, created_at, username) of the latest lines, newest first."""
        return list(db.execute(select(ChatMessage.id, ChatMessage.text, ChatMessage.created_at, User.username)
                               .join(User, User.id == ChatMessage.user_id)
                               .where(ChatMessage.table_id == table_id, ChatMessage.hidden.is_(False))
                               .order_by(ChatMessage.id.desc()).limit(limit)))

    # -- clocks ---------------------------------------------------------------------------------

    @staticmethod
    def running_clocks(db: OrmSession) -> tuple[list[Any], dict[str, list[Any]]]:
        """Every playing table with a running turn, and per table its seats played by
        people present."""
        connection = db.connection()
        rows = list(connection.execute(_SCAN_TABLES))
        seats: dict[str, list[Any]] = {}
        if rows:
            for seat in connection.execute(_SCAN_SEATS):
                seats.setdefault(seat.table_id, []).append(seat)
        return rows, seats

    @staticmethod
    def time_out(db: OrmSession, table_id: str, seat: int, version: int, bank_ms: int | None) -> bool:
        """A bot takes over ``seat``, its bank set to ``bank_ms`` (None: left as it is),
        only if the table is still playing at ``version`` (a move just in time wins over
        the clock)."""
        connection = db.connection()
        if connection.execute(_STILL_AT, {"id": table_id, "version": version}).first() is None:
            return False
        if bank_ms is None:
            connection.execute(_ZOMBIE, {"b_id": table_id, "b_seat": seat})
        else:
            connection.execute(_OUT_OF_TIME, {"b_id": table_id, "b_seat": seat, "b_bank": bank_ms})
        connection.execute(_TIMED_OUT_AT, {"b_id": table_id, "b_seat": seat})
        connection.execute(_REVISED, {"b_id": table_id})
        return True

    @staticmethod
    def idle_bot_tables(db: OrmSession, before_ms: int) -> list[str]:
        """Playing tables where a bot must decide and no turn began since ``before_ms``."""
        rows = db.connection().execute(_SCAN_IDLE, {"before": before_ms}).all()
        if not rows:
            return []
        bot_seats = db.execute(select(TableSeat.table_id, TableSeat.seat).where(
            TableSeat.table_id.in_([r.id for r in rows]),
            (TableSeat.bot.is_not(None)) | (TableSeat.zombie.is_(True)))).all()
        pending = {r.id: set(r.pending) for r in rows}
        return sorted({t for t, s in bot_seats if s in pending.get(t, ())})

    @staticmethod
    def heartbeat(db: OrmSession, at: int) -> None:
        """Note that the server serves at ``at`` (a racing first insert fails on commit)."""
        row = db.get(Meta, SERVING)
        if row is None:
            db.add(Meta(key=SERVING, value=str(at)))
        elif int(row.value) < at:
            row.value = str(at)

    @staticmethod
    def claim_heartbeat(db: OrmSession, at: int) -> int | None:
        """Note that the server serves from ``at`` on, and return when it last did (None:
        never, or another process claimed the same gap first)."""
        last = db.scalar(select(Meta.value).where(Meta.key == SERVING))
        if last is None:
            db.add(Meta(key=SERVING, value=str(at)))
            return None
        claimed = db.connection().execute(
            update(Meta).where(Meta.key == SERVING, Meta.value == last).values(value=str(at)))
        return int(last) if claimed.rowcount == 1 else None

    @staticmethod
    def shift_turns(db: OrmSession, gap_ms: int) -> None:
        """Move the start of every running turn on by ``gap_ms``. The revision moves too: a
        process that kept a copy of a row (one that hung rather than died) re-reads it."""
        # Turn-based seats note when their last decision began (an undo's deadline): on too.
        turn_based = select(GameTable.id).where(GameTable.status == "playing", GameTable.mode == "turn-based")
        db.execute(update(TableSeat).where(TableSeat.table_id.in_(turn_based), TableSeat.bank_ms.is_not(None))
                   .values(bank_ms=TableSeat.bank_ms + gap_ms))
        db.execute(update(GameTable).where(GameTable.status == "playing", GameTable.turn_started_ms.is_not(None))
                   .values(turn_started_ms=GameTable.turn_started_ms + gap_ms, revision=GameTable.revision + 1))
