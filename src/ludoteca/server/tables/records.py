"""A table's record, its replay from one seat's point of view, its static view parts and
its log of events."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select

from ludoteca.engine import LudotecaError, Match, MatchRecord, PlayedMove, canonical
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor
from ludoteca.server.kernel.models import GameReview
from ludoteca.server.tables.access import view_seat, visible
from ludoteca.server.tables.changes import with_changes
from ludoteca.server.tables.matches import EngineTimeout, StaticParts
from ludoteca.server.tables.opening import game_or_404
from ludoteca.server.tables.runtime import TableRuntime
from ludoteca.server.tables.store import TableStatements
from ludoteca.server.tables.summary import Summaries


class Records:
    def __init__(self, runtime: TableRuntime, store: TableStatements) -> None:
        self.runtime, self.store = runtime, store

    def record(self, actor: Actor | None, table_id: str) -> dict[str, Any]:
        with self.runtime.sessions() as db:
            row = self.store.table(db, table_id)
            seats = self.store.seats(db, table_id)
            visible(row, actor, seats)
            # The record holds the seed and every move: replayed with the open engine it
            # shows every hand, the deck order and each seat's secret choices. So it leaves
            # the server only once the game is over, whatever ``record_public`` says
            # (that lets spectators follow the replay's public frames during play).
            if row.status != "over":
                raise ApiError(403, "record_hidden", "the record is shown once the game is over")
            moves = self.store.played(db, table_id)
            # The finished reviews travel with the record: whoever may have the
            # record may read them anyway. Loaders ignore the field (MatchRecord.from_json).
            reviews = [r.result for r in db.scalars(select(GameReview).where(
                GameReview.table_id == table_id, GameReview.status == "done").order_by(GameReview.seat)).all()
                if r.result is not None]
        players = [p["username"] or (f"bot:{p['bot']}" if p["bot"] else "") for p in Summaries.players(seats)]
        record = MatchRecord(row.game, row.seats, row.options, row.seed, [PlayedMove(s, m) for s, m in moves], players)
        return {**record.to_json(), "result": row.result, "resigned": row.resigned or [], "reviews": reviews}

    def replay(self, actor: Actor | None, table_id: str, seat: int | None, changes: bool = False,
               ) -> dict[str, Any]:
        """The match replayed from ``seat``'s point of view (None: a spectator's): a frame
        for the setup, then one per move, each with what that seat saw then (its view,
        the pending seats, its prompt, the events it could read). Another seat's move is
        shown only if it carries no secret of a seat other than the point of view, at
        that move or just before (a bid card, before the bids are revealed), and is no
        hidden choice (``Game.hidden_choice``: a secret order): it is ``null`` with
        ``hidden: true`` otherwise. ``version`` counts moves."""
        with self.runtime.sessions() as db:
            row = self.store.table(db, table_id)
            seats = self.store.seats(db, table_id)
            own = visible(row, actor, seats)
            if row.status != "over" and not row.record_public:
                raise ApiError(403, "record_hidden", "the replay is shown once the game is over")
            if seat is not None and not 0 <= seat < row.seats:
                raise ApiError(422, "bad_seat", f"seats are numbered 0 to {row.seats - 1}")
            if seat is not None and row.status != "over" and seat not in own:
                raise ApiError(403, "not_your_seat", "another seat's point of view is shown once the game is over")
            moves = self.store.played(db, table_id)
        game = game_or_404(row.game)
        guard = self.runtime.guard

        def start() -> Match:
            return Match.new(row.game, row.seats, row.options, row.seed, game=game)

        def secrets_of(state: Any) -> list[str]:
            try:
                found = game.secrets(state)
            except NotImplementedError:
                return []
            return [json.dumps(secret, ensure_ascii=False) for owner, strings in found.items()
                    if owner is None or owner != seat for secret in strings]

        def frame(match: Match, number: int, mover: int | None, move: Any, events: list[Any],
                  hidden: list[str], choice: bool = False) -> dict[str, Any]:
            decisions = match.game.pending(match.state)
            text = canonical(move) if move is not None else ""
            secret = choice or any(s in text for s in hidden)
            return {"version": number, "seat": mover, "move": None if secret else move, "hidden": secret,
                    "view": statics.refs(match.view(seat)), "pending": sorted({d.seat for d in decisions}),
                    "prompts": [d.to_json() for d in decisions if seat is not None and d.seat == seat],
                    "events": [{"number": number, **e.to_json()} for e in events if e.visible_to(seat)]}

        def step(match: Match, number: int, mover: int, move: Any) -> dict[str, Any]:
            before = secrets_of(match.state)
            # A choice that stays its seat's own until the rules reveal it (a secret
            # order): shown made, not which, even once revealed (the frame is of then).
            choice = mover != seat and game.hidden_choice(match.state, mover, move)
            events = match.play(mover, move)
            return frame(match, number, mover, move, events, before + secrets_of(match.state), choice)

        statics = StaticParts(game)
        try:
            match = guard.call(start)
            frames = [guard.call(frame, match, 0, None, None, [e for _n, e in match.events], [])]
            for number, (mover, move) in enumerate(moves, 1):
                frames.append(guard.call(step, match, number, mover, move))
        except EngineTimeout:
            raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None
        except LudotecaError as error:
            raise ApiError(503, "table_unavailable", f"this table cannot be replayed: {error.code}") from None
        return {"table": table_id, "game": row.game, "seat": seat, "result": row.result,
                "frames": with_changes(frames) if changes else frames, "resigned": row.resigned or []}

    def static_part(self, actor: Actor | None, table_id: str, key: str) -> Any:
        """One of the match's static view parts (the same for every seat): whoever may
        see the table may have it."""
        runtime = self.runtime
        with runtime.sessions() as db:
            row = self.store.table(db, table_id)
            visible(row, actor, self.store.seats(db, table_id))
            if row.status == "open":
                raise ApiError(409, "not_started", "the game has not started")
            with runtime.cache.table_lock(table_id):
                entry = runtime.cache.sync(db, row)
                if key not in entry.match.game.static_view_keys:
                    raise ApiError(404, "no_static_part", f"this game's views have no static part {key!r}")
                try:
                    return runtime.guard.call(lambda: entry.match.view(None)[key])
                except EngineTimeout:
                    runtime.cache.drop(table_id)
                    raise ApiError(503, "engine_timeout", "this table's game did not answer in time") from None

    def log(self, actor: Actor | None, table_id: str, seat: int | None, since: int) -> dict[str, Any]:
        with self.runtime.sessions() as db:
            row = self.store.table(db, table_id)
            seats = self.store.seats(db, table_id)
            chosen = view_seat(visible(row, actor, seats), seat)
            rows = self.store.log(db, table_id, since)
        events = [{"number": n, **e} for n, _s, evs, _b in rows for e in evs if e.get("to") in (None, chosen)]
        return {"version": row.version, "seat": chosen, "events": events}
