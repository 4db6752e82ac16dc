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
  state.redraw ||= () => render(root, state.ctx);
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
export function choiceTarget(el, select, label, className, choose) {
  if (select) el.setAttribute("data-select", select);
  return target(el, label, className, choose);
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
