"""The games. Each one is a package here, registered through the entry-point group
``ludoteca.games``; the registry itself lives in the engine (ludoteca.engine.registry)
and is offered here under the name callers know."""

from ludoteca.engine.registry import GROUP, UnknownGame, available, load, register, registered, unregister

__all__ = ["GROUP", "UnknownGame", "available", "load", "register", "registered", "unregister"]
