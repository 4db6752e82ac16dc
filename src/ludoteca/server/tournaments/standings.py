"""A tournament's standings and, in an elimination, who is still in, from its stored rows
(entrants, games, rounds) through the pure logic of ``ludoteca.tournaments``."""

from __future__ import annotations

from dataclasses import dataclass

from ludoteca.server.kernel.clock import now
from ludoteca.server.kernel.models import Tournament, TournamentGame, TournamentPlayer, TournamentRound
from ludoteca.tournaments import arena, elimination
from ludoteca.tournaments.core import Bye, Played, Player, Standing, standings


def points_for(t: Tournament, n: int) -> list[float] | None:
    """The points by rank at a table of ``n`` the organiser set (None: the default)."""
    return t.points


def as_played(g: TournamentGame) -> Played:
    """A stored game as the pairing logic reads it."""
    return Played(g.round, tuple(g.players), tuple(g.ranks or [1] * len(g.players)),
                  tuple(g.points or [0.0] * len(g.players)), g.table_id)


@dataclass
class EliminationState:
    seeds: list[int]
    active: list[int]
    """Still in, best seed first."""
    finished: bool
    out_at: dict[int, tuple[int, int]]
    """Entrant -> (round they went out, their rank at that table)."""
    final: TournamentGame | None


def elimination_state(t: Tournament, entrants: list[TournamentPlayer], games: list[TournamentGame],
                      ) -> EliminationState:
    """Who is still in, replayed from the stored rounds (the seeding is the standings
    before the first round: rating, then the lot)."""
    seeds = [s.player for s in standings([Player(e.id, e.rating) for e in entrants], [], seed=t.seed)]
    withdrawn = {e.id for e in entrants if e.withdrawn}
    active = [p for p in seeds if p not in withdrawn]
    out_at: dict[int, tuple[int, int]] = {}
    final: TournamentGame | None = None
    for number in range(1, t.round + 1):
        tables = sorted((g for g in games if g.round == number), key=lambda g: g.board)
        if any(g.status != "over" for g in tables):
            return EliminationState(seeds, active, False, out_at, None)
        if len(tables) == 1 and set(tables[0].players) == set(active) and len(active) <= t.seats:
            final = tables[0]
            return EliminationState(seeds, active, True, out_at, final)
        seated = {p for g in tables for p in g.players}
        going_on = {p for p in active if p not in seated}  # the byes
        for g in tables:
            ranks = g.ranks or [1] * len(g.players)
            on = elimination.advancing(g.players, ranks, t.advance, seeds)
            going_on |= set(on)
            for p, r in zip(g.players, ranks, strict=True):
                if p not in on:
                    out_at[p] = (number, r)
        active = [p for p in seeds if p in going_on and p not in withdrawn]
    finished = t.round > 0 and len(active) <= 1
    return EliminationState(seeds, active, finished, out_at, final)


def tournament_standings(t: Tournament, entrants: list[TournamentPlayer], games: list[TournamentGame],
                         rounds: list[TournamentRound]) -> list[Standing]:
    players = [Player(e.id, e.rating) for e in entrants]
    withdrawn = [e.id for e in entrants if e.withdrawn]
    over = [g for g in games if g.status == "over"]
    if t.format == "arena":
        in_order = sorted(over, key=lambda g: (g.finished_at or now(), g.board))
        played = [as_played(g) for g in in_order]
        return standings(players, played, seed=t.seed, withdrawn=withdrawn, bonus=arena.streak_bonus(played))
    byes = [Bye(r.number, int(b[0]), float(b[1]), str(b[2])) for r in rounds for b in r.byes]
    table = standings(players, [as_played(g) for g in over], byes, seed=t.seed, withdrawn=withdrawn)
    if t.format != "elimination" or t.round == 0:
        return table
    # Elimination: the final's ranks, then who went out later, then their rank there.
    state = elimination_state(t, entrants, games)
    place = {p: i for i, p in enumerate(state.seeds)}
    final_rank: dict[int, int] = {}
    if state.final is not None:
        final_rank = dict(zip(state.final.players, state.final.ranks or [], strict=False))

    def key(s: Standing) -> tuple[int, int, int, int]:
        if s.player in final_rank:
            return (0, 0, final_rank[s.player], place.get(s.player, 0))
        if s.player in state.out_at:
            number, rank = state.out_at[s.player]
            return (1, -number, rank, place.get(s.player, 0))
        return (0 if not state.finished else 2, 0, 0, place.get(s.player, 0))

    ordered = sorted(table, key=key)
    for i, s in enumerate(ordered):
        s.rank = i + 1
    return ordered
