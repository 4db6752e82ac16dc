// The board's viewport on the table page, shared by every game: on a phone the boards'
// controls are drawn for a desktop and come out far below a finger's size. Rather than
// each game laying itself out twice, the frame looks at what the game drew:
//
// - zoom: every SVG holding controls is widened until its controls' centres lie at least
//   a finger (44 CSS px) apart, and the board box pans (scrolls both ways) with a visible
//   hint and edge shadows whenever it is wider than the screen; "-", "+" and "whole
//   board" buttons let the player choose another zoom;
// - hit areas: a control smaller than a finger gets an invisible 44 x 44 px target
//   around it (under its own shapes, so what is drawn still takes its own clicks);
// - focus: when a new decision comes, the box scrolls to the part of the board it is about
//   (what the game marked with focusArea in board.js: the reserve, the wheel, the sheet),
//   else to its controls (any element of the board that plays a move), so the prompt above
//   and that part of the board fit one screen; on a wide screen, where the page scrolls
//   rather than the box, the page brings that part under the pinned status bar;
// - on a desktop too, "+" zooms the drawing past the column's width and the box pans, by
//   its scroll bars or by dragging the board with the mouse.
//
// Nothing here knows any game: it reads `[data-move]`, `[data-select]` and
// `[role=button]` (what clickable() in dom.js marks), and each SVG's size.
import { BoardLens } from "./boardlens.js";
import { h } from "./dom.js";

export const FINGER = 44; // CSS px: the smallest target a finger hits reliably (WCAG 2.5.5)
const MAX_ZOOM = 4;
const STEP = 1.5; // each "+" or "-"
const CONTROLS = "[data-move], [data-select], [role=button]";
const DECISION = "[data-move], [data-select]"; // a control that plays (a step of) a move
const SVG_NS = "http://www.w3.org/2000/svg";
// Zoom and finger-sized targets where fingers tap: the one-column layout (main.css), or
// any touch screen. A mouse on a desktop keeps the board as the game drew it.
const TOUCH = "(max-width: 899px), (pointer: coarse)";
const ONE_COLUMN = "(max-width: 899px)"; // the table page's phone layout (main.css)

// The outermost <svg> elements of the board (an SVG inside an SVG zooms with its parent).
function outerSvgs(board) {
  return [...board.querySelectorAll("svg")].filter((el) => !el.parentElement.closest("svg"));
}

// The SVG controls that may take a tap, visible ones only.
function controlsIn(el) {
  return [...el.querySelectorAll(CONTROLS)].filter((c) => c instanceof SVGGraphicsElement && !c.closest("[aria-hidden=true]"));
}

// The zoom an SVG needs for its controls to lie a finger apart: two controls side by side
// whose centres are d px apart need 44 / d, unless one holds the other (a figure in a
// province).
export function neededZoom(rects) {
  let zoom = 1;
  // A control a finger wide by its outline must also hold one inside its shapes.
  for (const a of rects) {
    if (Math.min(a.w, a.h) < FINGER) continue;
    const disc = widestDisc(a.el);
    if (disc > 0 && disc < FINGER) zoom = Math.max(zoom, (FINGER + 2) / disc);
  }
  for (let i = 0; i < rects.length; i++) {
    const a = rects[i];
    for (let j = i + 1; j < rects.length; j++) {
      const b = rects[j];
      if (a.holds(b) || b.holds(a)) continue;
      const d = Math.max(Math.abs(a.cx - b.cx), Math.abs(a.cy - b.cy));
      if (d < 1) continue;
      // Both already a finger wide: they only need not to overlap.
      const big = Math.min(a.w, a.h, b.w, b.h) >= FINGER;
      if (!big && d < FINGER + 2) zoom = Math.max(zoom, (FINGER + 2) / d);
    }
  }
  return Math.min(zoom, MAX_ZOOM);
}

const SHAPES = "path, polygon, polyline, circle, ellipse, rect";

// Whether a disc (in screen px) lies inside the control's own shapes: a wedge of a wheel
// can be 50 px wide and still hold no finger.
function discInside(shapes, x, y, radius) {
  const points = [[0, 0]];
  for (let k = 0; k < 8; k++) {
    const a = (k * Math.PI) / 4;
    points.push([radius * Math.cos(a), radius * Math.sin(a)], [radius * 0.5 * Math.cos(a), radius * 0.5 * Math.sin(a)]);
  }
  return points.every(([dx, dy]) => shapes.some(([shape, inverse]) => {
    const p = new DOMPoint(x + dx, y + dy).matrixTransform(inverse);
    return shape.isPointInFill(p);
  }));
}

// The widest disc (its diameter in px) inside a large control, from a few centres tried.
export function widestDisc(control) {
  const r = control.getBoundingClientRect();
  const shapes = (control.matches(SHAPES) ? [control] : [...control.querySelectorAll(SHAPES)])
    .filter((el) => !el.classList.contains("hit-area") && el.getAttribute("pointer-events") !== "none" && el.getScreenCTM())
    .map((el) => [el, el.getScreenCTM().inverse()]);
  if (!shapes.length) return 0;
  const centres = [];
  for (const fx of [0.5, 0.3, 0.7]) for (const fy of [0.5, 0.3, 0.7]) centres.push([r.left + r.width * fx, r.top + r.height * fy]);
  const fits = (radius) => centres.some(([x, y]) => discInside(shapes, x, y, radius));
  let low = 0;
  let high = Math.min(r.width, r.height) / 2;
  if (fits(high)) return high * 2;
  for (let i = 0; i < 6; i++) {
    const mid = (low + high) / 2;
    if (fits(mid)) low = mid;
    else high = mid;
  }
  return low * 2;
}

function box(el) {
  const r = el.getBoundingClientRect();
  const cx = r.left + r.width / 2;
  const cy = r.top + r.height / 2;
  return {
    el, w: r.width, h: r.height, cx, cy, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
    holds(o) {
      return this.el.contains(o.el);
    },
  };
}

// An invisible target a finger wide round a small control: a square frame over the
// board's top layer whose hole is the middle of the control, so the control still takes
// the taps on itself and the frame passes on the ones around it (over any shape drawn later
// next to it, which is why it cannot sit inside the control).
function addHitArea(control, root) {
  const r = control.getBoundingClientRect();
  if (r.width >= FINGER && r.height >= FINGER) return;
  if (!r.width && !r.height) return;
  const ctm = root.getScreenCTM();
  if (!ctm) return;
  const inverse = ctm.inverse();
  const side = FINGER + 2;
  const cx = r.left + r.width / 2;
  const cy = r.top + r.height / 2;
  const w = Math.max(r.width, side) / 2;
  const hgt = Math.max(r.height, side) / 2;
  const at = (x, y) => {
    const p = new DOMPoint(x, y).matrixTransform(inverse);
    return `${p.x.toFixed(2)} ${p.y.toFixed(2)}`;
  };
  const square = (x0, y0, x1, y1) => `M${at(x0, y0)} L${at(x1, y0)} L${at(x1, y1)} L${at(x0, y1)} Z`;
  const hit = document.createElementNS(SVG_NS, "path");
  hit.setAttribute("class", "hit-area");
  // The hole is the middle of the control's box, which its shape covers even when round.
  const hw = r.width * 0.35;
  const hh = r.height * 0.35;
  hit.setAttribute("d", square(cx - w, cy - hgt, cx + w, cy + hgt) + square(cx - hw, cy - hh, cx + hw, cy + hh));
  hit.setAttribute("fill", "#000");
  hit.setAttribute("fill-opacity", "0");
  hit.setAttribute("fill-rule", "evenodd");
  hit.setAttribute("pointer-events", "fill");
  hit.setAttribute("aria-hidden", "true");
  hit.hitFor = control;
  hit.addEventListener("click", (e) => {
    e.stopPropagation();
    control.dispatchEvent(new MouseEvent("click", { bubbles: true, clientX: e.clientX, clientY: e.clientY }));
  });
  root.append(hit);
}

function union(rects) {
  return {
    left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)),
    top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom)),
  };
}

// On a wide screen the page scrolls the board (the box only pans sideways when zoomed): the
// page brings the part a decision is about under the pinned status bar (table.js keeps
// scroll-padding-top at its height) when too little of it shows.
// On a phone the table page itself puts the prompt at the top with the box under it
// (boardpanel.js), and the box scrolls to the part.
function bringIntoPage(rect) {
  if (matchMedia(ONE_COLUMN).matches) return;
  const top = parseFloat(document.documentElement.style.scrollPaddingTop) || 0;
  const seen = Math.min(rect.bottom, innerHeight) - Math.max(rect.top, top);
  if (seen >= Math.min(rect.bottom - rect.top, (innerHeight - top) * 0.5)) return;
  window.scrollBy(0, rect.top - top - 8);
}

// Dragging the board with the mouse pans it when it is wider (or taller) than its box, as
// on a map; a drag is not a click, so the control under it plays nothing.
function dragToPan(pan) {
  let from = null;
  let moved = false;
  pan.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "mouse" || e.button !== 0 || !pan.classList.contains("pans")) return;
    from = { x: e.clientX, y: e.clientY, left: pan.scrollLeft, top: pan.scrollTop };
    moved = false;
  });
  pan.addEventListener("pointermove", (e) => {
    if (!from) return;
    if (!(e.buttons & 1)) {
      from = null;
      return;
    }
    const dx = e.clientX - from.x;
    const dy = e.clientY - from.y;
    if (!moved && Math.hypot(dx, dy) < 5) return;
    moved = true;
    pan.scrollLeft = from.left - dx;
    pan.scrollTop = from.top - dy;
  });
  pan.addEventListener("pointerup", () => { from = null; });
  pan.addEventListener("click", (e) => {
    if (!moved) return;
    moved = false;
    e.stopPropagation();
    e.preventDefault();
  }, true);
}

export class BoardView {
  // `board` is the element a game draws into; the view wraps it in a panning box.
  constructor(board, t) {
    this.board = board;
    this.t = t;
    this.user = 1; // the player's own zoom, times the one controls need
    this.focusKey = "";
    this.areaKey = ""; // the name of the part of the board the last drawing marked
    this.pan = h("div", { class: "board-pan", tabindex: "0", role: "region" }, board);
    this.zoomOut = h("button", { type: "button", class: "zoom-out", onclick: () => this.setUser(this.user / STEP) }, "−");
    this.zoomIn = h("button", { type: "button", class: "zoom-in", onclick: () => this.setUser(this.user * STEP) }, "+");
    this.whole = h("button", { type: "button", class: "zoom-whole", onclick: () => this.setUser(0) });
    this.hint = h("p", { class: "pan-hint small", "aria-hidden": "true", hidden: true });
    this.lensHint = h("p", { class: "lens-hint small muted", "aria-hidden": "true", hidden: true });
    this.tools = h("div", { class: "board-tools", hidden: true }, this.hint, this.lensHint, h("span", { class: "zoom-buttons" }, this.zoomOut, this.zoomIn, this.whole));
    this.frameBox = h("div", { class: "board-frame" }, this.pan);
    this.element = h("div", { class: "board-view" }, this.tools, this.frameBox);
    // The small print a tap away on a phone (boardlens.js).
    this.lens = new BoardLens(this, t);
    this.pan.addEventListener("scroll", () => this.shade(), { passive: true });
    dragToPan(this.pan);
    // A game may draw again by itself (a figure picked before its destination): refit then.
    this.mutations = new MutationObserver(() => this.schedule());
    this.mutations.observe(board, { childList: true });
    this.width = 0;
    if (typeof ResizeObserver === "function") {
      this.resize = new ResizeObserver(() => {
        if (Math.abs(this.pan.clientWidth - this.width) > 1) this.schedule();
      });
      this.resize.observe(this.pan);
    }
  }

  destroy() {
    this.mutations.disconnect();
    if (this.resize) this.resize.disconnect();
    cancelAnimationFrame(this.frame);
  }

  setUser(value) {
    this.user = value;
    this.fit({ refocus: true });
  }

  schedule() {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => this.fit());
  }

  // Called after every drawing of the board; `decision` names the choice on screen (a new
  // one scrolls its controls into view).
  fit({ decision = null, refocus = false } = {}) {
    cancelAnimationFrame(this.frame);
    this.mutations.takeRecords();
    this.width = this.pan.clientWidth;
    const svgs = outerSvgs(this.board);
    for (const el of this.board.querySelectorAll(".hit-area")) el.remove();
    for (const el of svgs) {
      if (el.dataset.zoomed) {
        const saved = JSON.parse(el.dataset.zoomed);
        for (const [k, v] of Object.entries(saved)) el.style[k] = v;
        delete el.dataset.zoomed;
      }
    }
    const t = this.t;
    this.whole.textContent = t("board.whole");
    this.zoomIn.setAttribute("aria-label", t("board.zoom_in"));
    this.zoomOut.setAttribute("aria-label", t("board.zoom_out"));
    this.pan.setAttribute("aria-label", t("board.board"));
    this.hint.textContent = t("board.pan_hint");
    this.lensHint.textContent = t("board.lens_hint");

    const touch = matchMedia(TOUCH).matches;
    this.element.classList.toggle("touch", touch);
    this.lensHint.hidden = !touch || !svgs.length;
    if (!touch) this.lens.hide();
    let anyControls = false;
    let maxZoom = 1;
    for (const el of svgs) {
      const controls = controlsIn(el);
      // On a desktop every drawing zooms with the reader's zoom; on a phone the ones with
      // controls, to the zoom their controls need.
      if (!controls.length && touch) continue;
      anyControls ||= controls.length > 0;
      const rect = el.getBoundingClientRect();
      if (!rect.width) continue;
      const need = touch ? neededZoom(controls.map(box)) : 1;
      maxZoom = Math.max(maxZoom, need);
      // A mouse keeps the drawing as the game made it until the reader zooms (the
      // controls' spacing is a finger's concern).
      const zoom = this.user === 0 ? 1 : Math.min(MAX_ZOOM, Math.max(1, (touch ? need : 1) * this.user));
      if (zoom > 1.01) {
        const keep = {};
        for (const k of ["width", "height", "maxWidth", "minWidth", "flex"]) keep[k] = el.style[k];
        el.dataset.zoomed = JSON.stringify(keep);
        Object.assign(el.style, { width: `${rect.width * zoom}px`, height: `${rect.height * zoom}px`, maxWidth: "none", minWidth: "0", flex: "0 0 auto" });
      }
    }
    if (touch) for (const el of svgs) for (const c of controlsIn(el)) addHitArea(c, el);
    this.mutations.takeRecords(); // the hit areas are ours, not a redraw

    const wide = this.pan.scrollWidth > this.pan.clientWidth + 1;
    this.tools.hidden = touch ? !anyControls && !wide : !svgs.length;
    this.hint.hidden = !wide;
    this.zoomIn.disabled = this.user !== 0 && maxZoom * this.user >= MAX_ZOOM;
    this.zoomOut.disabled = touch ? this.user === 0 : this.user <= 1;
    this.whole.setAttribute("aria-pressed", String(this.user === 0));
    this.pan.classList.toggle("pans", wide);
    const area = (this.board.querySelector("[data-focus]") || { dataset: {} }).dataset.focus || "";
    const newArea = area !== this.areaKey;
    this.areaKey = area;
    if ((decision !== null && decision !== this.focusKey) || refocus || (newArea && area)) {
      if (decision !== null) this.focusKey = decision;
      this.focusOn(svgs);
    }
    this.shade();
  }

  // Scroll the box to the controls of the decision: all of them when they fit, else the
  // first group of them from the top. Those on a drawing that play a move (or a step of
  // one) come first; else such buttons off the drawings (a bar of them above a sheet, the
  // only controls of a second forum gain); else any control on a drawing (a region that
  // opens a choice of buttons).
  //
  // A part of the board the game marked (focusArea) comes before all of them: the whole
  // part when it fits the box, else the controls in it (or its top).
  focusOn(svgs) {
    const pan = this.pan;
    const shown = (els) => els.filter((c) => !c.closest("[aria-hidden=true], [hidden]"))
      .map((c) => c.getBoundingClientRect()).filter((r) => r.width || r.height);
    const parts = [...this.board.querySelectorAll("[data-focus]")];
    const marked = shown(parts);
    if (marked.length) {
      const whole = union(marked);
      const fits = whole.bottom - whole.top <= pan.clientHeight - 16 && whole.right - whole.left <= pan.clientWidth - 16;
      const controls = shown(parts.flatMap((el) => [...(el.matches(DECISION) ? [el] : []), ...el.querySelectorAll(DECISION)]));
      this.scrollTo(fits || !controls.length ? marked : controls);
      bringIntoPage(union(shown(parts)));
      return;
    }
    const drawn = svgs.flatMap(controlsIn);
    const controls = [
      drawn.filter((c) => c.matches(DECISION)), [...this.board.querySelectorAll(DECISION)], drawn,
    ].map(shown).find((found) => found.length);
    if (!controls) return;
    this.scrollTo(controls);
  }

  // Scrolls the box to the rects (all of them when they fit, else the first group from the
  // top).
  scrollTo(controls) {
    const pan = this.pan;
    const base = pan.getBoundingClientRect();
    const top = Math.min(...controls.map((r) => r.top));
    const near = controls.filter((r) => r.top < top + pan.clientHeight * 0.8);
    const left = Math.min(...near.map((r) => r.left));
    const right = Math.max(...near.map((r) => r.right));
    const bottom = Math.max(...near.map((r) => r.bottom));
    const x = pan.scrollLeft + (left + right) / 2 - base.left - pan.clientWidth / 2;
    const fitsX = right - left <= pan.clientWidth - 16;
    pan.scrollLeft = Math.max(0, fitsX ? x : pan.scrollLeft + left - base.left - 8);
    const y = pan.scrollTop + (top + bottom) / 2 - base.top - pan.clientHeight / 2;
    const fitsY = bottom - top <= pan.clientHeight - 16;
    pan.scrollTop = Math.max(0, fitsY ? y : pan.scrollTop + top - base.top - 8);
  }

  // Which edges have more board beyond them (the shadows over them say so).
  shade() {
    const p = this.pan;
    const f = this.frameBox;
    f.classList.toggle("more-left", p.scrollLeft > 1);
    f.classList.toggle("more-right", p.scrollLeft + p.clientWidth < p.scrollWidth - 1);
    f.classList.toggle("more-down", p.scrollTop + p.clientHeight < p.scrollHeight - 1);
  }
}
