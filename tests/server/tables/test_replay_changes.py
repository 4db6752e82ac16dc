"""Replays as the first frame plus changes: for a whole random game of each game, the
changes put every frame's view back exactly, and the replay is far smaller than in whole
views, before gzip and after it (what goes on the wire: the app gzips answers of 1 KB
and more). Run with ``-s`` for the figures (docs/web.md)."""

from __future__ import annotations

import copy
import gzip
import json
import random
from typing import Any

import pytest

from ludoteca.engine import Match
from ludoteca.server.tables.changes import diff, with_changes
from ludoteca.server.tables.matches import StaticParts

GAMES = {"bloodrage": 3, "crusaders": 3, "hadrianswall": 2, "iwari": 3}


def apply(before: Any, change: dict[str, Any]) -> Any:
    """What web/js/changes.js does, in Python: the test's check of the format."""
    if "=" in change:
        return copy.deepcopy(change["="])
    if "a" in change:
        out = list(before[:change["n"]]) + [None] * max(0, change["n"] - len(before))
        for index, sub in change["a"].items():
            out[int(index)] = apply(out[int(index)], sub)
        return out
    out = dict(before)
    for key in change.get("d", []):
        del out[key]
    for key, sub in change.get("o", {}).items():
        out[key] = apply(out.get(key), sub)
    return out


def frames_of(game_id: str, seats: int, seed: int) -> list[dict[str, Any]]:
    """A spectator's replay frames of a random game, as the server builds them."""
    match = Match.new(game_id, seats, seed=seed)
    statics = StaticParts(match.game)
    pick = random.Random(seed)
    frames = [{"version": 0, "seat": None, "move": None, "view": statics.refs(match.view(None))}]
    while not match.over:
        seat = match.pending()[0]
        move = pick.choice(match.legal(seat))
        match.play(seat, move)
        frames.append({"version": match.version, "seat": seat, "move": move, "view": statics.refs(match.view(None))})
    return frames


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_replay_as_changes_is_exact_and_far_smaller(game_id: str) -> None:
    frames = frames_of(game_id, GAMES[game_id], seed=31)
    sent = with_changes(frames)
    view = sent[0]["view"]
    for whole, changed in zip(frames[1:], sent[1:], strict=True):
        assert "view" not in changed
        view = apply(view, changed["changes"])
        assert view == whole["view"]
    full = json.dumps({"frames": frames}, separators=(",", ":")).encode()
    small = json.dumps({"frames": sent}, separators=(",", ":")).encode()
    print(f"\n{game_id}: {len(frames)} frames; whole views {len(full):,} B ({len(gzip.compress(full)):,} B gzipped);"
          f" as changes {len(small):,} B ({len(gzip.compress(small)):,} B gzipped)")
    assert len(small) < len(full) / 4
    assert len(gzip.compress(small)) < len(gzip.compress(full))


def test_changes_of_equal_views_are_none_and_of_types_are_replacements() -> None:
    assert diff({"a": [1, 2]}, {"a": [1, 2]}) is None
    assert diff(1, True) == {"=": True}  # 1 == True in Python, not in JSON
    assert diff({"a": 1}, {"b": 1}) == {"o": {"b": {"=": 1}}, "d": ["a"]}
    assert diff([1, 2, 3, 4, 5], [1, 2, 3, 4]) == {"a": {}, "n": 4}
    assert apply([1, 2, 3, 4, 5], {"a": {}, "n": 4}) == [1, 2, 3, 4]
