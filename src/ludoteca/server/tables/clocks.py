"""The clock policy: every rule about a table's time, and nothing else (no storage, no
clock reading: callers pass the moment).

Realtime tables give each seat a bank: it starts at ``initial_seconds``; every seat
deciding pays for the time that passes; the seat that moves gains
``increment_seconds``. Turn-based tables give each decision ``turn_seconds`` from its
start. Only seats that people play (not bots, not zombie seats) have a running clock.
A seat out of time gets a bot (a zombie seat) until its player takes it back; its bank
is written empty when its time runs out, and it comes back with one increment (at least
30 s). A seat whose player leaves is charged its time up to then, and comes back with
what it had left (or that least time, if nothing). Whenever a seat is taken back the
others' time up to then is charged before the turn starts again, so leaving and coming
back gives nobody time.

Undo gives no time back: the time every running seat spent up to the undo stays spent,
and the increment the undone move earned is taken back (realtime); the decision opened
again keeps the deadline it had before the undone move (turn-based: each seat's
``bank_ms`` holds when the decision its last move answered began). Only a person's own
move can be undone, never one a bot made, nor while a bot plays the seat (``access``).
A server that was down moves every running turn's start on by the gap
(``clock_scan``), so time nobody could play is charged to nobody.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from ludoteca.server.kernel.errors import ApiError

MODES = ("realtime", "turn-based")
DEFAULT_CLOCKS: dict[str, dict[str, Any]] = {"realtime": {"initial_seconds": 600, "increment_seconds": 10},
                                             "turn-based": {"turn_seconds": 86_400}}
COMEBACK_MS = 30_000
"""The least a timed-out realtime seat comes back with."""


class ClockedTable(Protocol):
    @property
    def status(self) -> str: ...
    @property
    def mode(self) -> str: ...
    @property
    def clock(self) -> dict[str, Any]: ...
    @property
    def pending(self) -> list[int]: ...
    @property
    def turn_started_ms(self) -> int | None: ...


class ClockedSeat(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def user_id(self) -> int | None: ...
    @property
    def zombie(self) -> bool: ...
    @property
    def bank_ms(self) -> int | None: ...


def settings(mode: str, given: dict[str, Any] | None) -> dict[str, Any]:
    """A new table's clock: the mode's defaults with what was asked, checked."""
    if mode not in MODES:
        raise ApiError(422, "bad_mode", f"mode is one of {', '.join(MODES)}")
    clock: dict[str, Any] = dict(DEFAULT_CLOCKS[mode])
    for key, value in (given or {}).items():
        if key not in clock:
            raise ApiError(422, "bad_clock", f"a {mode} clock has {', '.join(clock)}, not {key!r}")
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 30 * 86_400:
            raise ApiError(422, "bad_clock", f"{key} must be a number of seconds up to 30 days")
        clock[key] = value
    if (mode == "realtime" and clock["initial_seconds"] <= 0) or (mode == "turn-based" and clock["turn_seconds"] <= 0):
        raise ApiError(422, "bad_clock", "a clock needs some time")
    return clock


def _running(table: ClockedTable, seat: ClockedSeat) -> bool:
    return seat.seat in table.pending and seat.user_id is not None and not seat.zombie


def starting_bank(table: ClockedTable) -> int | None:
    """Each seat's bank when the game starts (None: turn-based, no bank)."""
    return int(table.clock["initial_seconds"] * 1000) if table.mode == "realtime" else None


def comeback_bank(table: ClockedTable, bank_ms: int | None) -> int | None:
    """The bank of a seat its player takes back from the bot (None: unchanged): what it
    had left when it timed out or left, or one increment (at least 30 s) if nothing."""
    if table.mode == "realtime" and (bank_ms or 0) <= 0:
        return max(int(table.clock["increment_seconds"] * 1000), COMEBACK_MS)
    return None


def out_of_time_bank(table: ClockedTable) -> int | None:
    """The bank written for a seat whose time ran out (None: turn-based, no bank)."""
    return 0 if table.mode == "realtime" else None


def settle(table: ClockedTable, seats: Iterable[ClockedSeat], at_ms: int) -> dict[int, int] | None:
    """Every running seat's bank as of ``at_ms``, before a change to who plays which seat
    (a player leaves, or takes a seat back): the caller writes them and starts the turn
    again at ``at_ms``, so the time until then is charged whoever plays on. None:
    turn-based, where nothing is settled (deadlines run from the decision's start)."""
    if table.mode != "realtime" or table.turn_started_ms is None:
        return None
    elapsed = max(0, at_ms - table.turn_started_ms)
    return {s.seat: max(0, (s.bank_ms or 0) - elapsed) for s in seats if _running(table, s)}


def charge(table: ClockedTable, seats: Iterable[ClockedSeat], mover: int, at_ms: int) -> dict[int, int]:
    """After ``mover``'s move at ``at_ms``, the new banks: every seat that was deciding
    pays for the time that passed, the mover gains its increment. Turn-based clocks
    restart with each decision; the mover's ``bank_ms`` notes when its decision began."""
    banks: dict[int, int] = {}
    if table.turn_started_ms is None:
        return banks
    if table.mode != "realtime":
        # The decision's start, for an undo to give the decision its deadline back.
        return {s.seat: table.turn_started_ms for s in seats if s.seat == mover and _running(table, s)}
    elapsed = max(0, at_ms - table.turn_started_ms)
    for s in seats:
        if _running(table, s):
            bank = max(0, (s.bank_ms or 0) - elapsed)
            if s.seat == mover:
                bank += int(table.clock["increment_seconds"] * 1000)
            banks[s.seat] = bank
    return banks


def after_undo(table: ClockedTable, seats: Iterable[ClockedSeat], undone_seat: int, at_ms: int,
               ) -> tuple[int, dict[int, int]]:
    """After a person's move by ``undone_seat`` is taken back at ``at_ms``: when the turn
    starts again, and the banks to write. Realtime: every running seat pays for the time
    that passed (an undo gives no time back), and the undone move's increment is taken
    back. Turn-based: the decision opened again keeps the deadline it had (its start,
    noted in the seat's ``bank_ms`` when it moved)."""
    seats = list(seats)
    if table.mode == "realtime":
        banks = settle(table, seats, at_ms) or {}
        undone = next((s for s in seats if s.seat == undone_seat), None)
        if undone is not None:
            left = banks.get(undone_seat, undone.bank_ms or 0)
            banks[undone_seat] = max(0, left - int(table.clock["increment_seconds"] * 1000))
        return at_ms, banks
    undone = next((s for s in seats if s.seat == undone_seat), None)
    began = undone.bank_ms if undone is not None else None
    return (at_ms if began is None else min(at_ms, began)), {}


def shown(table: ClockedTable, seats: Iterable[ClockedSeat], at_ms: int) -> dict[str, Any] | None:
    """Each seat's time as of ``at_ms``: the bank left (realtime) or the deadline
    (turn-based); only pending seats played by people have a running clock."""
    if table.status != "playing" or table.turn_started_ms is None:
        return None
    elapsed = max(0, at_ms - table.turn_started_ms)
    out: dict[str, Any] = {"mode": table.mode, "now_ms": at_ms, "seats": []}
    for s in seats:
        running = _running(table, s)
        if table.mode == "realtime":
            bank = s.bank_ms or 0
            out["seats"].append({"seat": s.seat, "running": running,
                                 "remaining_ms": max(0, bank - elapsed) if running else bank})
        else:
            deadline = table.turn_started_ms + int(table.clock["turn_seconds"] * 1000)
            out["seats"].append({"seat": s.seat, "running": running, "deadline_ms": deadline if running else None})
    return out


def timed_out(table: ClockedTable, seats: Iterable[ClockedSeat], at_ms: int) -> list[int]:
    """The seats whose time ran out by ``at_ms``."""
    out = []
    for info in (shown(table, seats, at_ms) or {}).get("seats", []):
        if info["running"] and (info["remaining_ms"] <= 0 if table.mode == "realtime"
                                else at_ms >= info["deadline_ms"]):
            out.append(info["seat"])
    return out
