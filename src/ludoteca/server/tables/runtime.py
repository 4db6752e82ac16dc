"""The runtime the table services share: the kernel's (settings, database, hub) with the
table store (every SQL statement about tables), the engine guard (every call into a
game's engine, with its time limit) and the match cache (matches in memory, at their
stored version). Services that read or change tables are given this one."""

from __future__ import annotations

from ludoteca.server.kernel.config import Settings
from ludoteca.server.kernel.runtime import Runtime
from ludoteca.server.tables.matches import EngineGuard, MatchCache
from ludoteca.server.tables.store import TableStatements


class TableRuntime(Runtime):
    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self.guard = EngineGuard(settings.engine_seconds)
        self.store = TableStatements(self.engine.dialect)
        self.cache = MatchCache(self.guard, self.store)
