"""The random bot: a uniformly random legal move. The baseline, and the playout policy."""

from __future__ import annotations

from ludoteca.engine import Move

from .base import Bot, BotContext, register_bot


class RandomBot(Bot):
    name = "random"

    def choose(self, ctx: BotContext) -> Move:
        return ctx.rng.choice(ctx.legal)


register_bot("random", RandomBot)
