"""Tables: every change to a table goes through here, whether it comes from HTTP, a
WebSocket, a bot or a clock. One module per concern:

    base      the row and seats as read, the summary, clocks shown, who may see or act
    lobby     creating and listing tables, rematches
    seating   joining, leaving, bots in seats, kicking, starting
    views     snapshots and the live connections' updates
    moves     the move path (``submit_move``): checked, played, committed, announced
    undo      taking back a move
    records   records, replays, static view parts, event logs
    resign    conceding a game in play
    chat      a table's chat
    clocks    the clock scan
    profiles  a player's profile

``Tables`` gathers them into the one service the routes, the WebSocket, the bots and the
clock scan call.
"""

from __future__ import annotations

from .base import BotMover, TableRow
from .chat import Chat
from .clocks import Clocks
from .lobby import Lobby
from .moves import Moves, Stale
from .profiles import Profiles
from .records import Records
from .resign import Resign
from .seating import Seating
from .undo import Undo
from .views import Views

__all__ = ["BotMover", "Stale", "TableRow", "Tables"]


class Tables(Lobby, Seating, Views, Moves, Undo, Records, Resign, Chat, Clocks, Profiles):
    """Every table service, sharing one core."""
