"""Crusaders: the 30 building-bonus tiles (CR-3), the wheel as the player aid shows it (CR-6,
CR-12), the Learning Game (CR-41), the Knight's Tournament (CR-42) and region names (CR-43)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from ludoteca.bots import RandomBot
from ludoteca.bots.playout import play_match
from ludoteca.engine import IllegalMove, Match, Rng, canonical
from ludoteca.games.crusaders.components import region_names
from ludoteca.games.crusaders.views import view

from .helpers import GAME, C, setup

I18N = Path(__file__).resolve().parents[3] / "src" / "ludoteca" / "games" / "crusaders" / "i18n"


def wedge(wid: str) -> tuple[str, str]:
    w = C.wedges[C.wedge_index[wid]]
    return w.action, w.upgrade


# -- CR-3: thirty tiles, the ones a game uses drawn at random ------------------------------------------


def test_cr_3_the_box_holds_thirty_bonus_tiles_of_both_kinds() -> None:
    assert len(C.tiles) == 30 and len(C.tile_index) == 30
    kinds = Counter((t.building, "discount" if t.discount else "influence") for t in C.tiles)
    for b in ("castle", "church", "farm", "bank"):
        assert kinds[(b, "discount")] == 3 and kinds[(b, "influence")] == 4
    assert all((t.discount > 0) != (t.influence > 0) for t in C.tiles)
    data = json.loads((I18N.parent / "data" / "bonus_tiles.json").read_text(encoding="utf-8"))
    assert "_provenance" in data and all(t["source"] for t in data["tiles"])


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_cr_3_each_game_draws_its_tiles_at_random_from_the_thirty(seats: int) -> None:
    board = C.board_for(seats)
    used: list[frozenset[str]] = []
    for seed in range(12):
        state = setup(seats, seed=seed, wheel="shared")
        placed = [t for t in state.tiles if t]
        assert len(placed) == len(board.slots) == len(set(placed))  # one tile per bonus space, no repeat
        assert [r for r, t in enumerate(state.tiles) if t] == sorted(board.slots)
        used.append(frozenset(placed))
        assert state.tiles == setup(seats, seed=seed, wheel="shared").tiles  # drawn from the seeded generator
    assert len(set(used)) == len(used)  # not the same tiles every game
    assert len(frozenset().union(*used)) > 20  # over a dozen games most of the box shows up


def test_cr_3_the_view_shows_each_placed_tile_and_never_the_rest() -> None:
    state = setup(3, seed=4, wheel="shared")
    v = view(state, None)
    shown = {r["tile"]["id"] for r in v["regions"] if r["tile"]}
    assert shown == {t for t in state.tiles if t}
    text = json.dumps(v)
    assert not [t.id for t in C.tiles if t.id not in shown and f'"{t.id}"' in text]


# -- CR-6 / CR-12: the wheel of the player aid's pictures -------------------------------------------------


def test_cr_6_secondary_actions_as_printed() -> None:
    assert wedge("move_a") == ("move", "build") and wedge("move_b") == ("move", "crusade")
    assert wedge("crusade") == ("crusade", "build") and wedge("influence") == ("influence", "move")
    assert wedge("muster") == ("muster", "influence") and wedge("build") == ("build", "influence")


def test_cr_12_first_game_arrangement_clockwise_from_the_top() -> None:
    state = GAME.setup(3, {"knight_orders": False, "wheel": "first_game"}, 1)
    assert all(p.wheel == ("move_a", "crusade", "influence", "move_b", "build", "muster") for p in state.players)
    assert not any(any(p.upgraded) for p in state.players)


# -- CR-41: the Learning Game ---------------------------------------------------------------------------------


def learning(seats: int = 3, orders: bool = False, seed: int = 1):  # type: ignore[no-untyped-def]
    return GAME.setup(seats, {"knight_orders": orders, "wheel": "learning"}, seed)


def test_cr_41_learning_game_fixed_wheel_with_both_move_wedges_upgraded() -> None:
    for seed in (1, 2, 3):
        state = learning(seed=seed)
        for p in state.players:
            assert p.wheel == C.first_game_order
            assert [p.upgraded[i] for i in range(6)] == [w in ("move_a", "move_b") for w in p.wheel]
            assert p.tokens == [2] * 6


def test_cr_41_learning_game_has_no_upgrading() -> None:
    state = learning()
    while state.phase == "setup":
        seat = GAME.pending(state)[0].seat
        GAME.apply(state, seat, GAME.legal(state, seat)[0])
    assert state.phase == "turn"
    legal = GAME.legal(state, 0)
    assert not [m for m in legal if m["type"] in ("upgrade", "skip")]
    assert {m["wedge"] for m in legal} == set(range(6))  # every wedge can be resolved
    before = canonical(GAME.to_json(state))
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 0, {"type": "upgrade", "wedge": 1})
    assert refused.value.code == "no_upgrades"
    assert canonical(GAME.to_json(state)) == before  # a refused move changes nothing
    # an upgraded Move wedge splits between Move and its printed secondary action
    GAME.apply(state, 0, {"type": "resolve", "wedge": 0})
    assert state.phase == "split"
    assert {m["first"] for m in GAME.legal(state, 0)} == {"move", "build"}


def test_cr_41_learning_game_with_knight_orders_keeps_the_order_setup_upgrades() -> None:
    state = learning(orders=True, seed=3)
    order_moves = {s: GAME.legal(state, s) for s in range(3)}
    for seat, moves in order_moves.items():
        GAME.apply(state, seat, moves[0])
    while state.phase == "setup":
        seat, task = state.setup_tasks[0]
        legal = GAME.legal(state, seat)
        if task == "upgrade":
            assert all(not state.players[seat].upgraded[m["wedge"]] for m in legal)
        GAME.apply(state, seat, legal[0])
    assert state.phase == "turn"


# -- CR-42: the Knight's Tournament --------------------------------------------------------------------------


def tournament(seats: int = 3, orders: bool = True, seed: int = 1):  # type: ignore[no-untyped-def]
    return GAME.setup(seats, {"knight_orders": orders, "wheel": "tournament"}, seed)


def test_cr_42_each_player_arranges_its_wheel_then_picks_any_order() -> None:
    state = tournament()
    assert state.phase == "order" and all(p.wheel == () for p in state.players)
    assert {d.seat for d in GAME.pending(state)} == {0, 1, 2}  # everyone at once
    assert GAME.pending(state)[0].prompt.key == "cr.prompt.arrange"
    assert GAME.legal(state, 1) == [{"type": "arrange", "wedge": w.id} for w in C.wedges]
    wanted = ("build", "move_b", "muster", "crusade", "influence", "move_a")
    for w in wanted[:5]:
        GAME.apply(state, 1, {"type": "arrange", "wedge": w})
    assert state.players[1].wheel == wanted  # the last wedge takes the last place by itself
    before = canonical(GAME.to_json(state))
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"type": "arrange", "wedge": "nope"})
    assert canonical(GAME.to_json(state)) == before
    GAME.apply(state, 0, {"type": "arrange", "wedge": "build"})
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 0, {"type": "arrange", "wedge": "build"})  # a wedge goes on the wheel once
    assert refused.value.code == "cannot_arrange"
    assert GAME.pending(state)[1].prompt.key == "cr.prompt.order_any"
    # any of the ten orders, the same one as another player too
    assert GAME.legal(state, 1) == [{"type": "order", "order": o.id} for o in C.orders]
    GAME.apply(state, 1, {"type": "order", "order": "templar"})
    assert state.players[1].order == "templar" and not state.revealed


def finish_tournament(state, picks: dict[int, tuple[tuple[str, ...], str]]):  # type: ignore[no-untyped-def]
    for seat, (wheel, order) in picks.items():
        for w in wheel[:5]:
            GAME.apply(state, seat, {"type": "arrange", "wedge": w})
        if order:
            GAME.apply(state, seat, {"type": "order", "order": order})
    return state


def test_cr_42_choices_stay_hidden_until_everyone_has_chosen_and_may_repeat() -> None:
    state = tournament()
    wheel = ("crusade", "build", "move_a", "move_b", "muster", "influence")
    finish_tournament(state, {0: (wheel, "calatrava"), 1: (wheel, "calatrava")})
    for reader in (1, 2, None):
        v = view(state, reader)
        assert v["players"][0]["wheel"] == [] and v["players"][0]["order"] is None
        assert v["players"][0]["order_chosen"] and v["players"][0]["wheel_done"]
    own = view(state, 0)["players"][0]
    assert [w["wedge"] for w in own["wheel"]] == list(wheel) and own["order"] == "calatrava"
    # a seat's search never sees the other's hidden choices, and keeps all it sees
    sampled = GAME.determinize(state, 2, Rng(3))
    assert view(sampled, 2) == view(state, 2) and GAME.legal(sampled, 2) == GAME.legal(state, 2)
    finish_tournament(state, {2: (wheel, "calatrava")})
    assert state.revealed and state.phase == "setup"
    assert [p.order for p in state.players] == ["calatrava"] * 3  # one order for several players
    assert all(p.tokens == [1] * 6 for p in state.players)  # Calatrava's setup for each of them
    v = view(state, 1)
    assert all([w["wedge"] for w in p["wheel"]] == list(wheel) for p in v["players"])


def test_cr_42_without_knight_orders_only_the_wheels_are_chosen() -> None:
    state = tournament(orders=False)
    wheels = {s: tuple(reversed([w.id for w in C.wedges])) if s else tuple(w.id for w in C.wedges) for s in range(3)}
    for seat in range(3):
        assert GAME.pending(state)[0].prompt.key == "cr.prompt.arrange"
        for w in wheels[seat][:5]:
            GAME.apply(state, seat, {"type": "arrange", "wedge": w})
    assert state.revealed and state.phase == "setup" and state.setup_tasks[0][1] == "place"
    assert [p.wheel for p in state.players] == [wheels[s] for s in range(3)]
    assert all(p.order == "" for p in state.players)


def shown_to(reader: int | None, before, mover: int, move: dict, after) -> bool:  # type: ignore[no-untyped-def]
    """Whether a replay may show ``reader`` another seat's move (the server's replay rule): not a
    hidden choice, and no secret of a seat other than the reader in it, before or after the move."""
    if reader == mover:
        return True
    if GAME.hidden_choice(before, mover, move):
        return False
    text = canonical(move)
    return not any(json.dumps(secret) in text for state in (before, after)
                   for owner, strings in GAME.secrets(state).items() if owner is None or owner != reader
                   for secret in strings)


@pytest.mark.parametrize("orders", [True, False])
def test_cr_42_a_replay_shows_nobody_the_wedges_or_orders_chosen_before_all_have_chosen(orders: bool) -> None:
    """A public replay once named the wedges and orders of the set-up's moves. Two seats take
    the same order, and the same wedges: no id is one seat's alone, yet each choice stays hidden."""
    state = tournament(orders=orders)
    wheel = ("crusade", "build", "move_a", "move_b", "muster", "influence")
    picks = [(seat, {"type": "arrange", "wedge": w}) for seat in (2, 0, 1) for w in wheel[:5]]
    if orders:
        picks += [(0, {"type": "order", "order": "calatrava"}), (1, {"type": "order", "order": "templar"}),
                  (2, {"type": "order", "order": "calatrava"})]
    for seat, move in picks:
        before = GAME.clone(state)
        GAME.apply(state, seat, move)
        for reader in (None, 0, 1, 2):
            assert shown_to(reader, before, seat, move, state) == (reader == seat), (reader, seat, move)
    assert state.revealed and state.phase == "setup"
    while state.phase == "setup":  # once all is shown, the set-up's moves are public again
        seat = GAME.pending(state)[0].seat
        move = GAME.legal(state, seat)[0]
        before = GAME.clone(state)
        GAME.apply(state, seat, move)
        assert all(shown_to(reader, before, seat, move, state) for reader in (None, 0, 1, 2))


@pytest.mark.parametrize(("wheel", "orders", "seats"), [
    ("learning", False, 2), ("learning", True, 5), ("tournament", False, 3), ("tournament", True, 2),
    ("tournament", True, 5),
])
def test_cr_41_cr_42_random_games_end_and_replay_identically(wheel: str, orders: bool, seats: int) -> None:
    options = {"knight_orders": orders, "wheel": wheel}
    match = play_match(GAME, seats, options, 7, [RandomBot()] * seats)
    assert match.result() is not None and match.state.phase == "over"
    replay = Match.new("crusaders", seats, options, match.seed, game=GAME)
    for played in match.moves:
        replay.play(played.seat, played.move)
    assert canonical(GAME.to_json(replay.state)) == canonical(GAME.to_json(match.state))


# -- CR-43: region names -----------------------------------------------------------------------------------


def test_cr_43_region_names_are_a_grid_drawn_on_the_map() -> None:
    assert region_names([(0, -1), (1, -1), (-1, 0), (0, 0)]) == ["A1", "A2", "B1", "B2"]
    for side in ("small", "large"):
        board = C.boards[side]
        names = [reg.name for reg in board.regions]
        assert len(set(names)) == len(names)
        rows = sorted({reg.r for reg in board.regions})
        for reg in board.regions:
            row = [o for o in board.regions if o.r == reg.r]
            place = sorted(o.q for o in row).index(reg.q) + 1
            assert reg.name == f"{'ABCDEFGHI'[rows.index(reg.r)]}{place}"
    assert C.boards["large"].regions[C.boards["large"].index["l20"]].name == "D2"
    assert C.boards["large"].regions[C.boards["large"].index["l12"]].name == "C1"


@pytest.mark.parametrize("lang", ["en", "ja", "vi"])
def test_cr_43_every_language_names_every_region_and_the_log_uses_the_names(lang: str) -> None:
    table = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    for board in C.boards.values():
        for reg in board.regions:
            assert table[f"cr.region.{reg.id}"] == reg.name
    for arg in ("region", "from", "to"):
        assert table["_names"][arg] == "cr.region.{id}"


def test_cr_43_views_carry_the_names_and_events_the_ids_they_name() -> None:
    state = setup(3, seed=2, wheel="shared")
    v = view(state, None)
    board = C.board_for(3)
    assert [r["name"] for r in v["regions"]] == [reg.name for reg in board.regions]
    while state.phase == "setup":
        seat = GAME.pending(state)[0].seat
        events = GAME.apply(state, seat, GAME.legal(state, seat)[0])
    placed = [e for e in events if e.key == "cr.knight_placed"]
    assert placed and placed[0].args["region"] in board.index


@pytest.mark.parametrize("lang", ["en", "ja", "vi"])
def test_cr_41_cr_42_every_refusal_the_rules_explain_reads_in_each_language(lang: str) -> None:
    """A refused move's code names a string in the player's language (the frame's errorText)."""
    import inspect
    import re

    from ludoteca.games.crusaders import rules

    source = inspect.getsource(rules.explain)
    codes = set(re.findall(r'IllegalMove\("(\w+)"', source))
    assert {"no_upgrades", "cannot_arrange"} <= codes
    table = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    assert all(table.get(f"cr.error.{code}") for code in codes), codes
