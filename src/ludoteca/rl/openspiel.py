"""Every Ludoteca game as an OpenSpiel game.

    import pyspiel
    import ludoteca.rl.openspiel  # registers python_ludoteca_<id> for every game
    game = pyspiel.load_game("python_ludoteca_iwari", {"players": 3, "feats": True})

Parameters: ``players`` and each of the game's options (the same names, types and
defaults), and ``seed``: -1 (the default) deals each new initial state from fresh
entropy; any other value makes the sequence of deals reproducible (the k-th initial
state of a game object is always the same).

The games are sequential, imperfect-information, with sampled stochastic chance: there
are no chance nodes; the deal and every later draw come from the engine's seeded
generator inside the state, which the players never see (``resample_from_infostate``
resamples it with the rest of what the seat cannot see, through the game's
``determinize``). Where several seats decide at once, they are asked one after another
in seat order, each from its own view. Actions are the game's action vocabulary
(``ludoteca.rl.vocab``); returns are the terminal rewards of ``ludoteca.rl.rewards``.

Observations come from ``view(state, seat)`` only: the tensor is the encoder's vector
(docs/rl.md lists its layout), the string the view's canonical JSON (static parts such
as Iwari's board left out). The information state adds perfect recall to the string: a
running digest of everything the seat has seen happen (the log events it may read, and
its own moves). Its tensor is the observation tensor. A public observer (no private
information) encodes the spectator's view.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from ludoteca.engine import Event, Game, OptionValue, Rng, canonical
from ludoteca.games import load

from .observation import Encoder, encoder
from .rewards import rank_rewards
from .vocab import Vocabulary, games, vocabulary

PREFIX = "python_ludoteca_"


def short_name(game_id: str) -> str:
    return PREFIX + game_id


def _game_type(game: Game[Any]) -> pyspiel.GameType:
    params: dict[str, Any] = {"players": max(2, game.min_seats), "seed": -1}
    for option in game.options:
        params[option.name] = option.default
    solo = game.min_seats == 1
    return pyspiel.GameType(
        short_name=short_name(game.id),
        long_name=f"Ludoteca {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        # rank rewards sum to 0; solo Hadrian's Wall's scaled score does not
        utility=pyspiel.GameType.Utility.GENERAL_SUM if solo else pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_seats,
        min_num_players=game.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class LudotecaGame(pyspiel.Game):  # type: ignore[misc]
    """One Ludoteca game at a seat count and option set, for OpenSpiel."""

    game: Game[Any]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        game = self.game
        players = int(params.get("players", max(2, game.min_seats)))
        options: dict[str, OptionValue] = {o.name: params.get(o.name, o.default) for o in game.options}
        self.vocab: Vocabulary = vocabulary(game.id, players, options)
        self.encoder: Encoder = encoder(game.id, players, options)
        self.players = players
        self.options = dict(self.vocab.options)
        seed = int(params.get("seed", -1))
        self._deals = Rng(seed if seed >= 0 else secrets.randbits(62))
        # a general-sum game type (Hadrian's Wall, for its solo mode) may not declare a sum
        general = game.min_seats == 1
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.vocab),
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None if general else 0.0,
            max_game_length=game.max_moves,
        )
        super().__init__(_game_type(game), info, params)

    def new_initial_state(self) -> LudotecaState:
        return LudotecaState(self)

    def next_deal(self) -> int:
        """The seed of the next match dealt from this game object."""
        return self._deals.next64() >> 2

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        public_only = kind.private_info == pyspiel.PrivateInfoType.NONE
        return Observer(self, perfect_recall=kind.perfect_recall, public_only=public_only)


class _Shared:
    """What every state of one game object shares (deep copies keep the same one)."""

    def __init__(self, game: LudotecaGame) -> None:
        self.game = game
        self.engine: Game[Any] = game.game
        self.vocab = game.vocab
        self.players = game.players

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _Match:
    """The engine state; OpenSpiel clones a Python state by deep-copying its attributes,
    and the engine's hand-written clone is far cheaper than a generic deep copy."""

    def __init__(self, engine: Game[Any], state: Any) -> None:
        self.engine = engine
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Match:
        return _Match(self.engine, self.engine.clone(self.state))


class _Views:
    """What is computed of the current position, once: views by reader (OpenSpiel asks
    for the tensor and the string of each seat's observation and information state
    separately), legal moves and their indices by seat (asked for, then applied). A copy
    starts empty (a clone soon moves on)."""

    def __init__(self) -> None:
        self.by_reader: dict[int | None, dict[str, Any]] = {}
        self.legal: dict[int, tuple[list[Any], list[int]]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Views:
        return _Views()


class _Log:
    """One played move not yet folded into the seats' digests (immutable, shared by copies):
    a rollout never asks for an information state, so it never pays for the digests."""

    __slots__ = ("events", "move", "player", "previous")

    def __init__(self, previous: _Log | None, player: int, move: Any, events: list[Event]) -> None:
        self.previous = previous
        self.player = player
        self.move = move
        self.events = events

    def __deepcopy__(self, memo: dict[int, Any]) -> _Log:
        return self


class LudotecaState(pyspiel.State):  # type: ignore[misc]
    """A match in progress. ``match`` is the engine state; ``seen[p]`` the digest of what
    seat p has seen happen so far.

    The deal is drawn lazily, on first use: OpenSpiel clones a Python state by making a
    new initial state and copying the attributes over, and a clone must not consume a
    deal from the game's sequence."""

    def __init__(self, game: LudotecaGame) -> None:
        super().__init__(game)
        self._shared = _Shared(game)
        self._match: _Match | None = None
        self._seen: list[bytes] = []
        self._log: _Log | None = None
        self._rng = Rng(0)
        self._views = _Views()

    @property
    def match(self) -> Any:
        if self._match is None:
            shared = self._shared
            seed = shared.game.next_deal()
            self._match = _Match(shared.engine, shared.engine.setup(shared.players, shared.game.options, seed))
            self._seen = [hashlib.blake2b(f"seat {p}".encode(), digest_size=16).digest()
                          for p in range(shared.players)]
            self._rng = Rng(seed ^ 0x5EED)
        return self._match.state

    # -- the game's course ------------------------------------------------------------

    def current_player(self) -> int:
        engine = self._shared.engine
        match = self.match
        if engine.result(match) is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return engine.pending(match)[0].seat

    def _legal(self, player: int) -> tuple[list[Any], list[int]]:
        cached = self._views.legal.get(player)
        if cached is None:
            moves = self._shared.engine.legal(self.match, player)
            index_of = self._shared.vocab.index_of
            cached = self._views.legal[player] = (moves, [index_of(m) for m in moves])
        return cached

    def _legal_actions(self, player: int) -> list[int]:
        if self._shared.engine.result(self.match) is not None:
            return []
        return sorted(self._legal(player)[1])

    def _apply_action(self, action: int) -> None:
        engine = self._shared.engine
        match = self.match
        player = engine.pending(match)[0].seat
        moves, indices = self._legal(player)
        try:
            move = moves[indices.index(action)]
        except ValueError:
            raise ValueError(f"action {action} is not legal now") from None
        events = engine.perform(match, player, move)
        self._views = _Views()
        self._log = _Log(self._log, player, move, events)

    @property
    def seen(self) -> list[bytes]:
        """Per seat, a digest of everything it has seen happen: the log events it may read
        and its own moves, in order."""
        self.match  # noqa: B018 (deals, if not yet done)
        pending: list[_Log] = []
        node = self._log
        while node is not None:
            pending.append(node)
            node = node.previous
        seen = self._seen = self._seen[:]
        for entry in reversed(pending):
            for p in range(self._shared.players):
                events = [e.to_json() for e in entry.events if e.visible_to(p)]
                mine = entry.move if p == entry.player else None
                data = canonical({"seat": entry.player, "move": mine, "events": events}).encode()
                seen[p] = hashlib.blake2b(seen[p] + data, digest_size=16).digest()
        self._log = None
        return seen

    def _action_to_string(self, player: int, action: int) -> str:
        return self._shared.vocab.keys[action]

    def is_terminal(self) -> bool:
        return self._shared.engine.result(self.match) is not None

    def returns(self) -> list[float]:
        result = self._shared.engine.result(self.match)
        if result is None:
            return [0.0] * self._shared.players
        return rank_rewards(result, self._shared.engine.id)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> LudotecaState:
        """A state the seat cannot tell from this one: hidden parts (hands, decks, the
        generator's future draws) resampled by the game's ``determinize``."""
        copy: LudotecaState = self.clone()
        engine = self._shared.engine
        copy._match = _Match(engine, engine.determinize(self.match, player_id, self._rng))
        copy._views = _Views()
        return copy

    def __str__(self) -> str:
        return self._shared.engine.view_text(self.view(None))

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` sees (``None``: the public view); callers must not change it."""
        views = self._views.by_reader
        view = views.get(player)
        if view is None:
            view = views[player] = self._shared.engine.view(self.match, player)
        return view


def _without_static(game: Game[Any], view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in game.static_view_keys}


class Observer:
    """OpenSpiel's PyObserver: ``tensor`` and ``dict`` set from a seat's (or the public) view."""

    def __init__(self, game: LudotecaGame, perfect_recall: bool, public_only: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.public_only = public_only
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {part.name: self.tensor[part.slice] for part in game.encoder.layout.parts}

    def _view(self, state: LudotecaState, player: int) -> dict[str, Any]:
        return state.view(None if self.public_only else player)

    def set_from(self, state: LudotecaState, player: int) -> None:
        self.tensor[:] = self.game.encoder.encode(self._view(state, player))

    def string_from(self, state: LudotecaState, player: int) -> str:
        text = canonical(_without_static(self.game.game, self._view(state, player)))
        if self.perfect_recall and not self.public_only:
            return f"seen {state.seen[player].hex()} {text}"
        return text


def _register(game_id: str) -> None:
    game = load(game_id)
    cls = type(f"Ludoteca{game_id.title()}Game", (LudotecaGame,), {"game": game})
    pyspiel.register_game(_game_type(game), cls)


def register() -> None:
    """Register every game with pyspiel (done on import; safe to call again)."""
    known = set(pyspiel.registered_names())
    for game_id in games():
        if short_name(game_id) not in known:
            _register(game_id)


register()
