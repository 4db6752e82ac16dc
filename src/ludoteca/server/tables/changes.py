"""Replays sent as the first frame plus changes: each frame's view after
the first is sent as what changed since the frame before, which the client applies
(web/js/changes.js). A move changes a few numbers in a view of hundreds of entries, so a
replay is a small fraction of its size in whole views (docs/web.md has the figures).

A change is one of:

- ``{"=": value}``: the value replaced whole;
- ``{"o": {key: change}, "d": [key, ...]}``: an object whose keys ``o`` changed (or are
  new) and whose keys ``d`` are gone (either may be absent);
- ``{"a": {"index": change}, "n": length}``: a list cut or grown to ``n`` entries, whose
  entries at ``a``'s indexes changed (or are new).

Equal parts are left out; ``None`` (no change at all) is never sent for a frame: it is
``{"o": {}}`` then."""

from __future__ import annotations

from typing import Any


def diff(before: Any, after: Any) -> dict[str, Any] | None:
    """The change from ``before`` to ``after`` (None: they are equal)."""
    if before == after and type(before) is type(after):
        return None
    if isinstance(before, dict) and isinstance(after, dict):
        changed = {key: d for key, value in after.items()
                   if (d := diff(before[key], value) if key in before else {"=": value}) is not None}
        gone = [key for key in before if key not in after]
        out: dict[str, Any] = {}
        if changed:
            out["o"] = changed
        if gone:
            out["d"] = gone
        return out or None
    if isinstance(before, list) and isinstance(after, list):
        entries = {str(i): d for i, value in enumerate(after)
                   if (d := diff(before[i], value) if i < len(before) else {"=": value}) is not None}
        # A list whose entries all changed is as short replaced whole.
        if len(entries) > len(after) // 2 + 1:
            return {"=": after}
        return {"a": entries, "n": len(after)}
    return {"=": after}


def with_changes(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The frames with every view after the first replaced by its ``changes``."""
    out = []
    previous: Any = None
    for number, frame in enumerate(frames):
        view = frame["view"]
        if number == 0:
            out.append(frame)
        else:
            rest = {key: value for key, value in frame.items() if key != "view"}
            out.append({**rest, "changes": diff(previous, view) or {"o": {}}})
        previous = view
    return out
