"""``Game.secrets`` is optional: a game with no hidden information need not define it,
and the conformance suite holds one that does not to that claim."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludoteca.bots import RandomBot
from ludoteca.bots.playout import play_match
from ludoteca.engine import Decision, Event, Game, Match, Move, Prompt, Result, Rng, Seat
from ludoteca.engine.fields import INT, RNG, Field, Fields
from tests.engine.open_information import hiding_problems


class Pile:
    __slots__ = ("left", "rng", "turn", "winner")
    FIELDS = Fields(Field("rng", RNG), Field("left", INT), Field("turn", INT), Field("winner", INT))

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.left = 7
        self.turn = 0
        self.winner = -1


class Countdown(Game[Pile]):
    """Take one or two stones from a pile of seven; who takes the last one wins. Nothing
    is hidden, so it does not define ``secrets``."""

    id = "countdown"
    name = "Countdown"
    min_seats = 2
    max_seats = 2

    def new_state(self, seats: int, options: Mapping[str, Any], rng: Rng) -> Pile:
        return Pile(rng)

    def pending(self, state: Pile) -> list[Decision]:
        return [] if state.winner >= 0 else [Decision(state.turn, Prompt("countdown.take"))]

    def legal(self, state: Pile, seat: Seat) -> list[Move]:
        if state.winner >= 0 or seat != state.turn:
            return []
        return [{"type": "take", "stones": n} for n in (1, 2) if n <= state.left]

    def perform(self, state: Pile, seat: Seat, move: Move) -> list[Event]:
        state.left -= move["stones"]
        if state.left == 0:
            state.winner = seat
        state.turn = 1 - seat
        return [Event("countdown.took", {"seat": seat, "stones": move["stones"]})]

    def view(self, state: Pile, seat: Seat | None) -> dict[str, Any]:
        return {"left": state.left, "turn": state.turn}

    def result(self, state: Pile) -> Result | None:
        return None if state.winner < 0 else Result.ranked([int(s == state.winner) for s in (0, 1)])

    def clone(self, state: Pile) -> Pile:
        return Pile.FIELDS.from_json(Pile, Pile.FIELDS.to_json(state))

    def to_json(self, state: Pile) -> dict[str, Any]:
        return Pile.FIELDS.to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> Pile:
        return Pile.FIELDS.from_json(Pile, data)

    def determinize(self, state: Pile, seat: Seat, rng: Rng) -> Pile:
        return self.clone(state)


class PeekingCountdown(Countdown):
    """The same, but each seat's view shows something the other's does not, and it still
    keeps the default ``secrets``: the check must catch it."""

    def view(self, state: Pile, seat: Seat | None) -> dict[str, Any]:
        return {**super().view(state, seat), "you": seat}

    def perform(self, state: Pile, seat: Seat, move: Move) -> list[Event]:
        return [*super().perform(state, seat, move), Event("countdown.note", {"left": state.left}, to=seat)]


def _states(game: Countdown) -> list[tuple[Pile, list[Event]]]:
    match = play_match(game, 2, {}, 3, [RandomBot()] * 2)
    replay = Match.new(game.id, 2, {}, match.seed, game=game)
    out: list[tuple[Pile, list[Event]]] = [(game.clone(replay.state), [])]
    for played in match.moves:
        events = replay.play(played.seat, played.move)
        out.append((game.clone(replay.state), events))
    return out


def test_a_game_without_hidden_information_need_not_define_secrets() -> None:
    game = Countdown()
    state = game.setup(2)
    assert game.secrets(state) == {}
    assert hiding_problems(game, 2, _states(game)) == []


def test_a_game_that_hides_something_but_keeps_the_default_is_caught() -> None:
    game = PeekingCountdown()
    found = hiding_problems(game, 2, _states(game))
    assert "state 0: seat 0 sees another view than the spectator; define secrets()" in found
    assert "state 1: event countdown.note is for seat 0 only; define secrets()" in found
