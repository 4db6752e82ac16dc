// The board kit: what every game's board module (games/<id>/web/board.js, served at
// /games/<id>.js) needs besides its drawing, so that each board only draws.
//
// - move keys: a move's stable key, the text `data-move` holds on the control that plays
//   it (the frame's list of moves uses the same), so that tests, assistive tech and the
//   focus restore find a move's control by it;
// - per-board UI state: what the reader has half-chosen (a figure before its destination,
//   a box before its payment) lives as long as the board's root, across the redraw that
//   every update causes; a click that changes only that state draws the board again with
//   the latest update's context;
// - clickable targets: an SVG shape (or any element) marked as the control of a legal move
//   or of a step of one: the key, the pointer, the keyboard (Enter and Space), a role and a
//   label for assistive tech;
// - focus restore: a redraw gives the keyboard focus back to the control of the same move.
// - review marks (markMoves): the replay's post-game review outlines the move played and
//   the bot's preferred one on the controls drawn for them.
//
// - the part of the board a decision is about (focusArea), which the viewport brings into
//   view.
//
// The board's viewport (zoom, hit areas, scrolling to a decision) is boardview.js; it finds
// the controls by the attributes set here.
import { clickable, h } from "./dom.js";

// -- move keys ------------------------------------------------------------------------

// A move's key: its JSON as the server listed it (the frame sends back the parsed key, so
// it must be the move itself, not a normalised form).
export const moveKey = (move) => JSON.stringify(move);

// -- per-board UI state -------------------------------------------------------------------

const states = new WeakMap();

// The UI state of the board drawn in `root`, made by `fresh()` on the first drawing. The
// kit keeps its own fields on it too: `ctx`, the context of the latest drawing, and
// `redraw()`, which draws the board again with it (see drawnWith); `compact` and its
// `widthWatch` (see compactBelow).
export function boardState(root, fresh) {
  let state = states.get(root);
  if (!state) {
    state = fresh();
    states.set(root, state);
  }
  return state;
}

// Records `ctx` as the context the board in `root` is drawn with now, by `render`: a
// click that changes only the UI state then calls `state.redraw()`. Call after boardState.
export function drawnWith(root, ctx, render) {
  const state = states.get(root);
  state.ctx = ctx;
  // A redraw of the UI state alone keeps the frame's marks of the last moves (ctx.drawn).
  state.redraw ||= () => {
    render(root, state.ctx);
    if (typeof state.ctx.drawn === "function") state.ctx.drawn(root);
  };
  return state;
}

// For a board's destroy(): the width watch stops and the state is forgotten. Returns the
// state that was dropped (the board may have more to stop on it), or undefined.
export function dropBoardState(root) {
  const state = states.get(root);
  if (state && state.widthWatch) state.widthWatch.disconnect();
  states.delete(root);
  return state;
}

// Whether the board in `root` is narrower than `width` CSS px (a phone), for a board that
// lays itself out differently there. Once asked, a root that crosses `width` (a phone
// turned, a window resized) is drawn again. Call after boardState.
export function compactBelow(root, width) {
  const state = states.get(root);
  const narrow = () => root.clientWidth > 0 && root.clientWidth < width;
  state.compact = narrow();
  if (!state.widthWatch && typeof ResizeObserver === "function") {
    state.widthWatch = new ResizeObserver(() => {
      if (state.ctx && narrow() !== state.compact) state.redraw();
    });
    state.widthWatch.observe(root);
  }
  return state.compact;
}

// -- parts of the view ------------------------------------------------------------------

// Marks `el` as the drawing of the view's value at `path` ("/" between keys and list
// indexes, or the `id` of an entry of a list: "provinces/myrkulor", "players/1/stock"),
// and `tip` as its full text (an SVG <title>, or an HTML title): the frame then marks and
// animates it when that value has changed since the reader's last move
// (table/lastmove.js). An element may draw several values (a list of paths).
export function part(el, path, tip) {
  el.setAttribute("data-part", Array.isArray(path) ? path.join("|") : path);
  if (tip) tooltip(el, tip);
  return el;
}

// Marks `el` as a piece that keeps its identity `id` across updates (a figure, a
// knight): drawn somewhere else after an update, the frame slides it from where it was.
// Pieces alike may share an id as long as each keeps its place among them ("0-warrior#2").
export function piece(el, id) {
  el.setAttribute("data-piece", id);
  return el;
}

// Gives `el` its full text as a tooltip: a <title> child on an SVG element (its first
// <title>, which browsers and assistive tech read; appended, so that a board's own
// firstChild stays its shape), a title attribute on an HTML one.
export function tooltip(el, text) {
  if (!text) return el;
  if (el instanceof SVGElement) {
    let title = [...el.children].find((c) => c.tagName === "title");
    if (!title) {
      title = document.createElementNS("http://www.w3.org/2000/svg", "title");
      el.append(title);
    }
    title.textContent = text;
  } else {
    el.title = text;
  }
  return el;
}

// -- the part of the board a decision is about -------------------------------------------

// Marks `els` (the reserve to take a figure from, the wheel, the sheet, the hand) as the
// part of the board the reader's decision is about, under `name`; the marks of an earlier
// drawing in `root` go (a board may keep parts of its drawing across updates). The frame's
// viewport (boardview.js) brings the part into view at each new decision, and again when
// the board marks another part (a figure picked in the reserve: the map next). No `name`,
// or no elements: the viewport goes to the decision's controls, wherever they are.
export function focusArea(root, els, name) {
  for (const el of root.querySelectorAll("[data-focus]")) el.removeAttribute("data-focus");
  if (!name) return;
  for (const el of els) el.setAttribute("data-focus", name);
}

// -- clickable targets ----------------------------------------------------------------------

// Marks `el` as the control that plays `move`: its key in data-move, the board's class for
// its targets (`className`, which its style rules highlight), and `label` as what
// assistive tech reads.
export function moveTarget(el, move, ctx, label, className) {
  el.setAttribute("data-move", moveKey(move));
  return target(el, label, className, () => ctx.play(move)); // the frame ignores a second move while one is on its way
}

// Marks `el` as a control that takes a step of a move (a figure to invade with, a box to
// choose a payment for): `choose()` changes the board's UI state and draws it again.
// `select` names the step in data-select (the focus comes back to it after the redraw,
// and the frame's viewport scrolls to it as to a move); null when the step is not one.
// `moves`, the legal moves the step leads to, go in data-covers: the frame's status bar
// then leaves them to the board (see coveredMoves).
export function choiceTarget(el, select, label, className, choose, moves) {
  if (select) el.setAttribute("data-select", select);
  if (moves && moves.length) el.setAttribute("data-covers", JSON.stringify(moves));
  return target(el, label, className, choose);
}

// The keys of the moves the board drawn in `root` can take: a control's data-move, or a
// step's data-covers. The frame's status bar shows buttons only for the others (moves
// with no place on the board). Read from the drawing, so a board that keeps parts of its
// drawing across updates (a cache) still counts them.
export function coveredMoves(root) {
  const keys = new Set();
  for (const el of root.querySelectorAll("[data-move]")) keys.add(el.getAttribute("data-move"));
  for (const el of root.querySelectorAll("[data-covers]")) {
    try {
      for (const move of JSON.parse(el.getAttribute("data-covers"))) keys.add(moveKey(move));
    } catch {
      // A malformed list covers nothing: its moves stay in the bar.
    }
  }
  return keys;
}

function target(el, label, className, act) {
  if (className) el.classList.add(className);
  el.style.cursor = "pointer";
  // A target drawn inside another (a figure in its province) takes the click alone.
  return clickable(el, (e) => {
    e.stopPropagation();
    act();
  }, label);
}

// An HTML button that plays `move` (a choice with no place on the drawing).
export function moveButton(move, ctx, attrs, ...children) {
  return h("button", { type: "button", ...attrs, "data-move": moveKey(move), onclick: () => ctx.play(move) }, ...children);
}

// -- focus restore ------------------------------------------------------------------------------

const CONTROL = "[data-move],[data-select]";

// Runs `draw()`, which replaces the board's elements, and gives the keyboard focus back
// to the control of the same move (or step) when the reader was on one and it is still
// there, so that keyboard players keep their place across updates.
export function keepFocus(root, draw) {
  const active = root.contains(document.activeElement) ? document.activeElement : null;
  const key = active && (active.getAttribute("data-move") || active.getAttribute("data-select"));
  draw();
  if (!key) return;
  const again = [...root.querySelectorAll(CONTROL)].find((el) => el.getAttribute("data-move") === key || el.getAttribute("data-select") === key);
  if (again) again.focus({ preventScroll: true });
}

// -- review marks -------------------------------------------------------------------------------

// The moves a post-game review compares at one decision (the move played, the bot's
// preferred one), marked on a board drawn with them as its only legal moves: each
// control whose data-move is one of them, or a step whose data-covers leads to one, gets
// an outline and a badge with a word (dashed for the move played, solid for the preferred
// one, both when they are one move: not colour alone) and the word before its label for
// assistive tech. Found by the kit's own attributes, so every game's board is marked
// without knowing of reviews; a board that draws no such controls is left as it is.
//
// `marks`: [{ move, kind: "played" | "best" | "both", text }] (text: the badge's word);
// `both`: the word for a step that leads to both moves. null or [] takes the marks away. A click on a step draws the board again (the frame
// keeps no marks then): a watch on the root marks the new drawing too, until marks are
// taken away. Returns the kinds that found a place on the board.
export const MARK_STYLE = {
  played: { colour: "#a64600", dash: "6 4" },
  best: { colour: "#005a8c", dash: null },
};

const marking = new WeakMap();
const badges = new WeakMap(); // a marked element -> the decoration drawn for it

export function markMoves(root, marks, both = "") {
  let entry = marking.get(root);
  if (!marks || !marks.length) {
    if (entry && entry.watch) entry.watch.disconnect();
    marking.delete(root);
    return applyMarks(root, []);
  }
  if (!entry) {
    entry = {};
    marking.set(root, entry);
    if (typeof MutationObserver === "function") {
      entry.watch = new MutationObserver(() => {
        const now = marking.get(root);
        if (now) applyMarks(root, now.marks, now.both);
      });
      entry.watch.observe(root, { childList: true, subtree: true });
    }
  }
  entry.marks = marks;
  entry.both = both;
  return applyMarks(root, marks, both);
}

function markOf(el, marks, both) {
  const keys = new Set();
  if (el.hasAttribute("data-move")) keys.add(el.getAttribute("data-move"));
  else {
    try {
      for (const move of JSON.parse(el.getAttribute("data-covers"))) keys.add(moveKey(move));
    } catch {
      return null;
    }
  }
  const hits = marks.filter((m) => keys.has(moveKey(m.move)));
  if (!hits.length) return null;
  if (hits.length === 1) return hits[0];
  return { kind: "both", text: both || hits.map((m) => m.text).join(" · ") }; // a step to both
}

// Idempotent: a second call with the same marks changes nothing (so the watch, which
// sees the decorations added, settles at once).
function applyMarks(root, marks, both = "") {
  const found = new Set();
  for (const el of root.querySelectorAll("[data-review-mark]")) {
    const want = marks.length && (el.hasAttribute("data-move") || el.hasAttribute("data-covers")) ? markOf(el, marks, both) : null;
    if (!want || el.getAttribute("data-review-mark") !== want.kind || el.getAttribute("data-review-text") !== want.text) unmark(el);
  }
  for (const badge of root.querySelectorAll(".review-badge")) {
    const owner = badge.__owner;
    if (!owner || !owner.isConnected || !owner.hasAttribute("data-review-mark")) badge.remove();
  }
  if (!marks.length) return found;
  for (const el of root.querySelectorAll("[data-move],[data-covers]")) {
    const want = markOf(el, marks, both);
    if (!want) continue;
    if (want.kind === "both") { found.add("played"); found.add("best"); } else found.add(want.kind);
    if (el.getAttribute("data-review-mark") === want.kind && el.getAttribute("data-review-text") === want.text) continue;
    mark(el, want);
  }
  return found;
}

function mark(el, { kind, text }) {
  el.setAttribute("data-review-mark", kind);
  el.setAttribute("data-review-text", text);
  el.classList.add("review-mark", `review-mark-${kind}`);
  const label = el.getAttribute("aria-label");
  if (label !== null) {
    el.setAttribute("data-review-label", label);
    el.setAttribute("aria-label", `${text}: ${label}`);
  }
  if (el instanceof SVGGraphicsElement) {
    const deco = svgBadge(el, kind, text);
    if (deco) badges.set(el, deco);
  }
}

function unmark(el) {
  const kind = el.getAttribute("data-review-mark");
  el.removeAttribute("data-review-mark");
  el.removeAttribute("data-review-text");
  el.classList.remove("review-mark", `review-mark-${kind}`);
  if (el.hasAttribute("data-review-label")) {
    el.setAttribute("aria-label", el.getAttribute("data-review-label"));
    el.removeAttribute("data-review-label");
  }
  const deco = badges.get(el);
  if (deco) deco.remove();
  badges.delete(el);
}

// An SVG control's outline and badge, in its own coordinates, sized in screen pixels
// (boards draw at very different scales). Drawn last in the board's outermost SVG (with
// the control's transform to it), so that nothing drawn after the control covers it;
// never takes a click. The badge of the move played sits
// above the control, the preferred one's below it (two small controls side by side, two
// figures of a reserve, keep both words readable), moved inside where the drawing would
// cut it off.
function svgBadge(el, kind, text) {
  let box;
  try {
    box = el.getBBox();
  } catch {
    return null; // not rendered: nothing to outline
  }
  const ctm = el.getScreenCTM();
  const scale = (ctm && Math.hypot(ctm.a, ctm.b)) || 1;
  const px = (n) => n / scale;
  const ns = "http://www.w3.org/2000/svg";
  const make = (tag, attrs) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    return node;
  };
  const deco = make("g", { class: `review-badge review-badge-${kind}`, "pointer-events": "none", "aria-hidden": "true" });
  let frame = el.ownerSVGElement;
  while (frame && frame.ownerSVGElement) frame = frame.ownerSVGElement;
  const to = frame && frame.getScreenCTM();
  const m = to && ctm ? to.inverse().multiply(ctm) : null;
  if (m) deco.setAttribute("transform", `matrix(${m.a} ${m.b} ${m.c} ${m.d} ${m.e} ${m.f})`);
  const pad = px(3);
  const ring = (style, grow) => make("rect", {
    x: box.x - pad - grow, y: box.y - pad - grow, width: box.width + 2 * (pad + grow), height: box.height + 2 * (pad + grow),
    rx: px(4), fill: "none", stroke: style.colour, "stroke-width": px(3),
    ...(style.dash ? { "stroke-dasharray": style.dash.split(" ").map((n) => px(Number(n))).join(" ") } : {}),
  });
  // Both: the preferred one's solid ring around the played one's dashed ring.
  if (kind === "both") deco.append(ring(MARK_STYLE.best, px(4)), ring(MARK_STYLE.played, 0));
  else deco.append(ring(MARK_STYLE[kind], 0));
  const size = px(12);
  const high = size + px(6);
  const below = kind === "best";
  const top = below ? box.y + box.height + pad : box.y - pad - high;
  const badge = make("g", {});
  const label = make("text", { x: box.x - pad + px(5), y: top + px(3) + size * 0.85, "font-size": size, "font-weight": 700, fill: "#fff",
    "text-anchor": "start", "font-family": "system-ui, sans-serif" });
  label.textContent = text;
  const tag = make("rect", { x: box.x - pad, y: top, height: high, width: px(10), rx: px(3),
    fill: MARK_STYLE[kind === "both" ? "best" : kind].colour, stroke: "#fff", "stroke-width": px(1) });
  badge.append(tag, label);
  deco.append(badge);
  if (m) frame.append(deco);
  else el.append(deco); // the outermost SVG itself, or one not laid out: on top of its own drawing
  deco.__owner = el;
  let wide;
  try {
    wide = label.getComputedTextLength() + px(10);
  } catch {
    wide = text.length * size * 0.6 + px(10);
  }
  tag.setAttribute("width", wide);
  // Inside the drawing: the outermost SVG's box (a badge beyond it would not show).
  if (m) {
    const outer = frame.getBoundingClientRect();
    const at = tag.getBoundingClientRect();
    let dx = 0;
    let dy = 0;
    if (at.top < outer.top) dy = high + 2 * pad; // under the top edge instead
    else if (at.bottom > outer.bottom) dy = -(high + 2 * pad); // over the bottom edge instead
    if (at.right > outer.right) dx = -((at.right - outer.right) / scale + pad);
    if (dx || dy) badge.setAttribute("transform", `translate(${dx},${dy})`);
  }
  return deco;
}
