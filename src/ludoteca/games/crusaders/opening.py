"""Crusaders: the set-up, up to the first turn.

The deal (enemy tokens, bonus tiles, the wheels), the knight orders offered and chosen, or in
the Knight's Tournament each wheel arranged, then the orders' set-up tasks and the first
knights placed (CR-12, CR-13, CR-40 .. CR-42).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ludoteca.engine import Event, Move, OptionValue, Rng

from .economy import BOARDS, C
from .state import CrusadersState, Player


def new_state(seats: int, options: Mapping[str, OptionValue], rng: Rng) -> CrusadersState:
    s = CrusadersState()
    s.seats = seats
    s.knight_orders = bool(options["knight_orders"])
    s.wheel_option = str(options["wheel"])
    board = C.board_for(seats)
    s.side = board.side
    s.rng = rng
    ids = [w.id for w in C.wedges]
    shared = list(ids)
    tournament = s.wheel_option == "tournament"
    if s.wheel_option in ("first_game", "learning"):
        shared = list(C.first_game_order)
    elif not tournament:
        rng.shuffle(shared)
    for _ in range(seats):
        p = Player()
        wheel = list(shared)
        if s.wheel_option == "individual":
            rng.shuffle(wheel)
        # Knight's Tournament: each player arranges its own wheel before setup (CR-42)
        p.wheel = () if tournament else tuple(wheel)
        if s.wheel_option == "learning":
            # the learning game starts with both Move wedges on their upgraded side (CR-41)
            p.upgraded = [w in C.learning_upgraded for w in p.wheel]
        p.tokens = [C.tokens_per_wedge] * 6
        p.knights = [-1] * C.knights
        s.players.append(p)
    n = len(board.regions)
    tokens = list(C.enemy_tokens)
    rng.shuffle(tokens)
    s.enemy = [""] * n
    for region, token in zip(board.flags, tokens, strict=False):
        s.enemy[region] = token
    tiles = [t.id for t in C.tiles]
    rng.shuffle(tiles)
    s.tiles = [""] * n
    for region, tile in zip(board.slots, tiles, strict=False):
        s.tiles[region] = tile
    s.buildings = [()] * n
    s.supply = C.supply_base + C.supply_per_player * seats
    if tournament:
        # every order is open to every player, the same one to several (CR-42): nothing is dealt
        s.phase = "order"
    elif s.knight_orders:
        deck = [o.id for o in C.orders]
        rng.shuffle(deck)
        for p in s.players:
            p.offers = sorted(deck[:2])
            deck = deck[2:]
        s.box = sorted(deck)
        s.phase = "order"
    else:
        s.revealed = True
        _after_orders(s)
    return s


def _maybe_reveal(state: CrusadersState, events: list[Event]) -> None:
    """Once every seat has chosen (its order, and in the Knight's Tournament its wheel), all is shown."""
    if any(len(q.wheel) < 6 or (state.knight_orders and not q.order) for q in state.players):
        return
    state.revealed = True
    if state.wheel_option == "tournament":
        events.append(Event("cr.wheels_revealed", {}))
    if state.knight_orders:
        events.append(Event("cr.orders_revealed", {"orders": [q.order for q in state.players]}))
    _after_orders(state)


def _after_orders(s: CrusadersState) -> None:
    tasks: list[tuple[int, str]] = []
    for seat, p in enumerate(s.players):
        order = C.order_index.get(p.order)
        if order is None:
            continue
        if order.tokens_per_wedge != C.tokens_per_wedge:
            p.tokens = [order.tokens_per_wedge] * 6
        if order.extra_move_tokens:
            for pos, wedge in enumerate(p.wheel):
                if C.wedges[C.wedge_index[wedge]].action == "move":
                    p.tokens[pos] += order.extra_move_tokens
        if order.extra_knight:
            p.knights.append(-2)  # placed with the first knight
        tasks += [(seat, "remove")] * order.removed_tokens
        tasks += [(seat, "extra")] * order.extra_tokens
        tasks += [(seat, "upgrade")] * order.upgrades
    tasks += [(seat, "place") for seat in reversed(range(s.seats))]
    s.setup_tasks = tasks
    s.phase = "setup"
    s.current = tasks[0][0]


def legal_order(state: CrusadersState, seat: int) -> list[Move]:
    p = state.players[seat]
    if len(p.wheel) < 6:
        return [{"type": "arrange", "wedge": w.id} for w in C.wedges if w.id not in p.wheel]
    if p.order or not state.knight_orders:
        return []
    if state.wheel_option == "tournament":
        return [{"type": "order", "order": o.id} for o in C.orders]
    return [{"type": "order", "order": o} for o in p.offers]


def _legal_setup(state: CrusadersState, p: Player) -> list[Move]:
    board = BOARDS[state.seats]
    task = state.setup_tasks[0][1]
    if task == "place":
        taken = {k for other in state.players if other is not p for k in other.knights if k >= 0}
        return [{"type": "place_knight", "region": board.regions[r].id} for r in board.starts if r not in taken]
    if task == "remove":
        return [{"type": "remove_token", "wedge": pos} for pos in range(6) if p.tokens[pos] >= C.tokens_per_wedge]
    if task == "extra":
        return [{"type": "add_token", "wedge": pos} for pos in range(6)]
    return [{"type": "setup_upgrade", "wedge": pos} for pos in range(6) if not p.upgraded[pos]]


def _play_arrange(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    p = state.players[seat]
    p.wheel = (*p.wheel, move["wedge"])
    if len(p.wheel) == 5:  # the last wedge has one place left
        p.wheel = (*p.wheel, next(w.id for w in C.wedges if w.id not in p.wheel))
    if len(p.wheel) == 6:
        events.append(Event("cr.wheel_arranged", {"seat": seat}))
    _maybe_reveal(state, events)


def _play_order(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    p = state.players[seat]
    p.order = move["order"]
    if p.offers:
        p.rejected = next(o for o in p.offers if o != p.order)
    events.append(Event("cr.order_chosen", {"seat": seat}))
    events.append(Event("cr.order_you_chose", {"seat": seat, "order": p.order}, to=seat))
    _maybe_reveal(state, events)


def play_setup(state: CrusadersState, seat: int, move: Move, events: list[Event]) -> None:
    p = state.players[seat]
    task = state.setup_tasks.pop(0)[1]
    if task == "place":
        region = BOARDS[state.seats].index[move["region"]]
        for k, where in enumerate(p.knights):
            if k == 0 or where == -2:
                p.knights[k] = region
        events.append(Event("cr.knight_placed", {"seat": seat, "region": move["region"]}))
    elif task == "remove":
        p.tokens[move["wedge"]] -= 1
    elif task == "extra":
        p.tokens[move["wedge"]] += 1
    else:
        p.upgraded[move["wedge"]] = True
    if task != "place":
        events.append(Event("cr.order_setup", {"seat": seat, "task": task, "wedge": p.wheel[move["wedge"]]}))
    if state.setup_tasks:
        state.current = state.setup_tasks[0][0]
    else:
        state.phase = "turn"
        state.current = 0
        events.append(Event("cr.game_start", {"supply": state.supply}))


HIDDEN_CHOICES = frozenset({"arrange", "order"})
"""The moves of the set-up whose content stays its seat's own until everyone has chosen."""


def hidden_choice(state: CrusadersState, seat: int, move: Move) -> bool:
    """Whether ``move``, played by ``seat`` on ``state``, is a choice the other seats may not
    see until the rules reveal it: a knight order, and in the Knight's Tournament each wedge
    placed on a wheel, before every seat has chosen (CR-40, CR-42).

    ``secrets`` cannot say it: the wedge ids are printed on every board (the view's
    catalogue) and several seats may choose the same order, so no id is one seat's alone."""
    return not state.revealed and move.get("type") in HIDDEN_CHOICES


LEGAL_BY_PHASE: dict[str, Callable[[CrusadersState, Player], list[Move]]] = {"setup": _legal_setup}
"""The legal moves of the seat to play in this module's phases (rules.LEGAL gathers them)."""
PLAY_BY_KIND: dict[str, Callable[[CrusadersState, int, Move, list[Event]], None]] = {
    "arrange": _play_arrange, "order": _play_order}
"""Who plays each kind of move this module's phases take (rules.PLAY gathers them)."""
