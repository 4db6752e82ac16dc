// Static view parts. A game may declare parts of its views that never change during a
// match (Iwari's map, Hadrian's Wall's sheet layout): the server sends them as
// {"$static": digest} and serves each once at /api/tables/{id}/static/{key}. The frame
// puts them back before anything reads a view, so game modules always see whole views.

import * as api from "./api.js";

const parts = new Map(); // digest -> the part
const loading = new Map(); // digest -> the promise of it

const isRef = (value) => value !== null && typeof value === "object" && !Array.isArray(value) &&
  typeof value.$static === "string" && Object.keys(value).length === 1;

async function part(tableId, key, digest) {
  if (parts.has(digest)) return parts.get(digest);
  if (!loading.has(digest)) {
    loading.set(digest, api.staticPart(tableId, key).then((value) => {
      parts.set(digest, value);
      return value;
    }).finally(() => loading.delete(digest)));
  }
  return loading.get(digest);
}

// The view with its static parts in place (the same object if it refers to none).
export async function wholeView(tableId, view) {
  if (view === null || typeof view !== "object") return view;
  const refs = Object.entries(view).filter(([, value]) => isRef(value));
  if (!refs.length) return view;
  const out = { ...view };
  for (const [key, ref] of refs) out[key] = await part(tableId, key, ref.$static);
  return out;
}
