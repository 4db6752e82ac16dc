"""Bots: players that decide from what their seat may see."""

from .base import Bot, BotContext, Budget, bot_names, make_bot, register_bot
from .greedy import GreedyBot
from .hooks import GameHooks, default_reward, hooks_for, register_hooks
from .ismcts import ISMCTSBot
from .levels import LEVELS, Level, level_names
from .random_bot import RandomBot

__all__ = [
    "LEVELS", "Bot", "BotContext", "Budget", "GameHooks", "GreedyBot", "ISMCTSBot", "Level", "RandomBot",
    "bot_names", "default_reward", "hooks_for", "level_names", "make_bot", "register_bot", "register_hooks",
]
