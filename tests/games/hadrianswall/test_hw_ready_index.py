"""The index of boxes whose place and locks allow a fill (``Player.ready``), kept up to date
by ``sheets.fill`` for speed, must always give the moves a box-by-box check gives."""

from __future__ import annotations

import json
from typing import Any

from ludoteca.engine import Rng
from ludoteca.games.hadrianswall import cards, sheets

from .hw_helpers import G, box, give, main, set_count


def reference_fills(state: Any, seat: int) -> list[dict[str, Any]]:
    """Every fill move, from ``sheets.block`` box by box (no index)."""
    p = state.players[seat]
    out: list[dict[str, Any]] = []
    for b in sheets.BOXES:
        if sheets.block(state, seat, b.index) is not None:
            continue
        pays = [label for cost, label in zip(b.costs, b.pay_labels, strict=True) if sheets.affordable(p.stock, cost)]
        if len(b.costs) == 1:
            out.append({"type": "fill", "box": b.id})
        else:
            out.extend({"type": "fill", "box": b.id, "pay": label} for label in pays)
    return out


def fresh_ready(p: Any) -> list[int]:
    q = p.clone()
    q.ready_count = None
    return sheets.ready_boxes(q)


def test_hw_ready_index_matches_box_by_box_check_in_random_games() -> None:
    rng = Rng(5)
    checked = 0
    for seed, seats in ((0, 1), (1, 2), (2, 3), (3, 4), (4, 6)):
        state = G.setup(seats, None, seed)
        moves = 0
        while G.result(state) is None:
            seat = G.pending(state)[0].seat
            legal = G.legal(state, seat)
            p = state.players[seat]
            if state.phase == "main" and not p.todo and not p.ended:
                assert [m for m in legal if m["type"] == "fill"] == reference_fills(state, seat)
                assert p.ready == fresh_ready(p)
                checked += 1
            moves += 1
            if moves % 31 == 0:  # a state read back rebuilds its index
                state = G.from_json(json.loads(json.dumps(G.to_json(state))))
            G.perform(state, seat, rng.choice(legal))
    assert checked > 300


def test_hw_ready_index_follows_counts_set_by_hand() -> None:
    state = main(1)
    give(state, 0, builders=5, civilians=5, servants=5, soldiers=5, resources=5)
    before = [m["box"] for m in G.legal(state, 0) if m["type"] == "fill"]
    set_count(state, 0, "fort", 3)
    after = G.legal(state, 0)
    assert [m for m in after if m["type"] == "fill"] == reference_fills(state, 0)
    assert [m["box"] for m in after if m["type"] == "fill"] != before
    assert state.players[0].ready == fresh_ready(state.players[0])
    assert box(cards.C.boxes[sheets.SECTIONS[sheets.SEC["fort"]].boxes[3]].id) in state.players[0].ready


def test_hw_fill_moves_are_fresh_dicts() -> None:
    state = main(1)
    give(state, 0, builders=5, civilians=5, servants=5, soldiers=5, resources=5)
    first = G.legal(state, 0)
    first[0]["box"] = "changed"
    second = G.legal(state, 0)
    assert second[0]["box"] != "changed"
    assert all(a is not b for a, b in zip(first, second, strict=True))
