// A replay's frames come as the first view plus changes (server/tables/changes.py): each
// frame's view is the frame before's with its `changes` applied. Unchanged parts are
// shared with the view before (never changed in place), so a long game's views cost
// little memory too.

// The view `before` with `change` applied: {"=": v} replaces, {"o": {...}, "d": [...]}
// patches an object, {"a": {...}, "n": n} patches a list.
export function applyChange(before, change) {
  if (!change || typeof change !== "object") return before;
  if ("=" in change) return change["="];
  if ("a" in change) {
    const list = Array.isArray(before) ? before.slice(0, change.n) : [];
    list.length = change.n;
    for (const [index, sub] of Object.entries(change.a)) list[Number(index)] = applyChange(list[Number(index)], sub);
    return list;
  }
  const out = before && typeof before === "object" && !Array.isArray(before) ? { ...before } : {};
  for (const key of change.d || []) delete out[key];
  for (const [key, sub] of Object.entries(change.o || {})) out[key] = applyChange(out[key], sub);
  return out;
}

// The frames with a whole `view` each, from frames that have `changes` after the first
// (frames that have their view already are kept as they are).
export function withViews(frames) {
  let view = null;
  return frames.map((frame) => {
    view = "view" in frame ? frame.view : applyChange(view, frame.changes);
    if ("view" in frame) return frame;
    const { changes: _changes, ...rest } = frame;
    return { ...rest, view };
  });
}
