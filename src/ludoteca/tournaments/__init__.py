"""Player tournaments (Swiss, elimination, arena): the pure logic, no I/O. The server
runs them (``ludoteca.server.tournaments.service``). Bots against bots play a series
instead (``ludoteca.bots.series``, the command ``ludoteca series``).
See docs/tournaments.md."""

from .core import Bye, Played, Player, Standing, default_points, meetings, points_for_ranks, standings, table_sizes

__all__ = ["Bye", "Played", "Player", "Standing", "default_points", "meetings", "points_for_ranks", "standings",
           "table_sizes"]
