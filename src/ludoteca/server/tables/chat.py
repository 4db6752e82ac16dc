"""A table's chat."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ..auth import Actor
from ..db import now
from ..errors import ApiError
from ..models import ChatMessage, User
from .base import TablesBase


class Chat(TablesBase):
    def chat(self, actor: Actor, table_id: str, text: str) -> dict[str, Any]:
        text = text.strip()
        if not 1 <= len(text) <= 500:
            raise ApiError(422, "bad_chat", "a chat message has 1 to 500 characters")
        with self.server.transaction() as db:
            row = self._row(db, table_id)
            self._visible(db, row, actor, self._seats(db, table_id))
            message = ChatMessage(table_id=table_id, user_id=actor.user_id, text=text, created_at=now())
            db.add(message)
            db.flush()
            out = {"type": "chat", "table": table_id, "id": message.id, "username": actor.username, "text": text,
                   "at": message.created_at.isoformat() + "Z"}
        self.server.hub.publish({"kind": "chat", "table": table_id, "message": out})
        return out

    def chat_recent(self, actor: Actor | None, table_id: str, limit: int = 50) -> list[dict[str, Any]]:
        with self.server.sessions() as db:
            row = self._row(db, table_id)
            self._visible(db, row, actor, self._seats(db, table_id))
            rows = db.execute(select(ChatMessage.id, ChatMessage.text, ChatMessage.created_at, User.username)
                              .join(User, User.id == ChatMessage.user_id).where(ChatMessage.table_id == table_id)
                              .order_by(ChatMessage.id.desc()).limit(limit)).all()
        return [{"type": "chat", "table": table_id, "id": r.id, "username": r.username, "text": r.text,
                 "at": r.created_at.isoformat() + "Z"} for r in reversed(rows)]
