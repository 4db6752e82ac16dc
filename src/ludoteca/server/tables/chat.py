"""A table's chat."""

from __future__ import annotations

from ludoteca.server.kernel import protocol
from ludoteca.server.kernel.clock import iso
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.kernel.identity import Actor
from ludoteca.server.kernel.runtime import Runtime
from ludoteca.server.moderation.service import hidden_names, may_chat
from ludoteca.server.tables.access import visible
from ludoteca.server.tables.notices import Notices
from ludoteca.server.tables.store import TableStatements


class Chat:
    def __init__(self, runtime: Runtime, store: TableStatements, notices: Notices) -> None:
        self.runtime, self.store, self.notices = runtime, store, notices

    def chat(self, actor: Actor, table_id: str, text: str) -> protocol.ChatLine:
        text = text.strip()
        if not 1 <= len(text) <= 500:
            raise ApiError(422, "bad_chat", "a chat message has 1 to 500 characters")
        with self.runtime.transaction() as db:
            visible(self.store.table(db, table_id), actor, self.store.seats(db, table_id))
            may_chat(db, actor.user_id)  # 403 muted (or banned)
            message = self.store.add_chat(db, table_id, actor.user_id, text)
            line = protocol.chat_line(table_id, message.id, actor.username, text,
                                      iso(message.created_at))
        self.notices.chat(line)
        return line

    def chat_recent(self, actor: Actor | None, table_id: str, limit: int = 50) -> list[protocol.ChatLine]:
        with self.runtime.sessions() as db:
            visible(self.store.table(db, table_id), actor, self.store.seats(db, table_id))
            rows = self.store.recent_chat(db, table_id, limit)
            hidden = hidden_names(db, actor.user_id) if actor is not None else frozenset()
        return [protocol.chat_line(table_id, r.id, r.username, r.text, iso(r.created_at))
                for r in reversed(rows) if r.username not in hidden]
