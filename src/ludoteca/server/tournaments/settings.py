"""A tournament's settings, as its organiser creates or edits them, checked together
before anything is stored (server/tournaments/service.py)."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta
from typing import Any

from ludoteca.engine import LudotecaError, validate_options
from ludoteca.games import load
from ludoteca.server.kernel.errors import ApiError
from ludoteca.server.tables import clocks
from ludoteca.tournaments import elimination
from ludoteca.tournaments.core import MAX_SEATS, bye_points_default
from ludoteca.tournaments.swiss import max_rounds

MAX_PLAYERS = 1000
MAX_ROUNDS = 30
MAX_AHEAD = timedelta(days=90)


def check_settings(body: dict[str, Any], at: datetime) -> dict[str, Any]:
    """The tournament's settings from ``body`` (the create or edit fields), checked
    together; raises ApiError (422) with a clear code. Changes nothing."""
    try:
        game = load(body["game"])
    except LudotecaError:
        raise ApiError(404, "no_game", f"no game {body['game']!r} on this server") from None
    fmt = body["format"]
    seats = body.get("seats") or max(2, game.min_seats)
    if not (max(2, game.min_seats) <= seats <= min(MAX_SEATS, game.max_seats)):
        raise ApiError(422, "bad_seats", f"{game.id} takes {game.min_seats} to {game.max_seats} seats a table; "
                                         "tournaments 2 to 6")
    min_seats = body.get("min_seats") or seats
    if not (max(2, game.min_seats) <= min_seats <= seats):
        raise ApiError(422, "bad_min_seats", f"the smallest table must have {max(2, game.min_seats)} to {seats} seats")
    options: dict[str, Any] = {}
    try:
        for n in range(min_seats, seats + 1):
            options = validate_options(game.options, n, body.get("options") or {})
            game.setup(n, options, 1)
    except LudotecaError as error:
        raise ApiError(422, error.code, error.message) from None
    options = validate_options(game.options, seats, body.get("options") or {})
    mode = body.get("mode") or "realtime"
    clock = clocks.settings(mode, body.get("clock"))
    starts_at = body["starts_at"]
    if starts_at <= at:
        raise ApiError(422, "start_in_past", "the start must be in the future")
    if starts_at > at + MAX_AHEAD:
        raise ApiError(422, "start_too_far", "the start must be within 90 days")
    min_players = body.get("min_players") or max(2, min_seats)
    max_players = body.get("max_players") or 64
    if not (max(2, min_seats) <= min_players <= max_players <= MAX_PLAYERS):
        raise ApiError(422, "bad_player_counts", f"players: at least {max(2, min_seats)}, at most {MAX_PLAYERS}, "
                                                 "and the minimum no more than the maximum")
    points = body.get("points")
    if points is not None and (len(points) != seats or any(not 0 <= p <= 1000 for p in points)
                               or any(a < b for a, b in itertools.pairwise(points))):
        raise ApiError(422, "bad_points", f"points: {seats} values from 0 to 1000, first place first, never rising")
    avoid = body.get("avoid_repeats", True)
    rounds = body.get("rounds") or 0
    advance = body.get("advance") or 1
    minutes = body.get("minutes")
    if fmt == "swiss":
        if not 1 <= rounds <= MAX_ROUNDS:
            raise ApiError(422, "bad_rounds", f"a Swiss has 1 to {MAX_ROUNDS} rounds")
        most = max_rounds(max_players, seats, avoid)
        if rounds > most:
            raise ApiError(422, "too_many_rounds", f"{max_players} players at {seats} seats allow at most "
                                                   f"{most} rounds without repeats")
        minutes = None
    elif fmt == "elimination":
        if not 1 <= advance < min_seats:
            raise ApiError(422, "bad_advance", f"1 to {min_seats - 1} players of a table can go on")
        if not elimination.plan(min_players, seats, min_seats, advance):
            raise ApiError(422, "bad_advance", "these tables cannot send anyone home")
        rounds, minutes = 0, None
    else:
        if minutes is None or not 1 <= minutes <= 24 * 60:
            raise ApiError(422, "bad_minutes", "an arena lasts 1 to 1440 minutes")
        rounds = 0
    levels = list(dict.fromkeys(body.get("bots") or []))
    from ludoteca.bots.base import seatable_bot_names

    unknown = [level for level in levels if level not in seatable_bot_names()]
    if unknown:
        raise ApiError(422, "no_bot", f"no bot {unknown[0]!r}; bots: {', '.join(seatable_bot_names())}")
    if body.get("rated") and body.get("private"):
        raise ApiError(422, "private_rated", "a private tournament cannot be rated (its games are not public)")
    bye = body.get("bye_points")
    return {"name": body.get("name") or f"{game.name}", "game": game.id, "format": fmt, "seats": seats,
            "min_seats": min_seats, "options": options, "mode": mode, "clock": clock, "rounds": rounds,
            "minutes": minutes, "starts_at": starts_at, "min_players": min_players, "max_players": max_players,
            "rated": bool(body.get("rated")), "bot_levels": levels, "private": bool(body.get("private")),
            "points": list(points) if points is not None else None,
            "bye_points": float(bye) if bye is not None else bye_points_default(points, seats),
            "skipped_points": float(body.get("skipped_points") or 0.0), "avoid_repeats": bool(avoid),
            "advance": advance, "max_missed": body.get("max_missed") or 2}


EDITABLE = ("name", "options", "mode", "clock", "rounds", "minutes", "starts_at", "min_players", "max_players",
            "rated", "bots", "points", "bye_points", "skipped_points", "avoid_repeats", "advance", "max_missed",
            "seats", "min_seats", "private")
