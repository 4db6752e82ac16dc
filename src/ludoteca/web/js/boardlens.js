// The board's small print on a phone, a tap away. The boards are drawn for a desktop; at a
// phone's default zoom much of their lettering comes out under 11 CSS px. Rather than each
// game laying its words out twice, the frame reads them back: a tap on a part of the board
// that plays nothing (or a long press on one that does, so the move is not played) opens a
// bubble with the words there at a legible size, and the full text of what is under the
// finger (its tooltip: a card's text, a box's cost, a name cut short with "…"; on a
// control, the move it plays).
//
// Nothing here knows any game: it reads the board's text and <title> elements and the
// controls' marks (board.js).
import { h } from "./dom.js";

export const LEGIBLE = 11; // CSS px: the smallest lettering read without a tap
const REACH = 22; // CSS px round a word that a finger's tap still counts as on it
const HOLD = 450; // ms: a press this long reads instead of playing
const SLOP = 10; // CSS px a finger may move and still tap
const CONTROLS = "[data-move], [data-select], [role=button], button, a, input, select, summary";

// The size a text node's letters are drawn at on the screen (CSS px): its font size times
// the scale of the drawing it is in.
export function drawnSize(el) {
  let size = parseFloat(getComputedStyle(el).fontSize);
  const text = el.closest("text");
  const m = text && text.getScreenCTM();
  if (m) size *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
  return size;
}

const UNSHOWN = "title, desc, style, script, defs, [hidden], .board-lens";

// The elements of `board` holding words drawn under LEGIBLE px, shown now, each with its
// words and its box on the screen; `within(rect)`, if given, keeps only those whose box it
// accepts. A tap reads the words near it only: their boxes are compared first, and only
// those near are looked at further (a board has hundreds of words).
export function smallPrint(board, within = null) {
  const out = [];
  const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (seen.has(el) || !node.textContent.trim()) continue;
    seen.add(el);
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || (within && !within(r)) || el.closest(UNSHOWN)) continue;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden" || drawnSize(el) >= LEGIBLE) continue;
    out.push({ el, words: el.textContent.trim(), rect: r });
  }
  return out;
}

// What the tooltip of the innermost element at `target` says (its <title>, or a title
// attribute), if anything.
function tipOf(target) {
  for (let el = target; el && el.nodeType === 1; el = el.parentElement) {
    const title = [...el.children].find((c) => c.tagName === "title");
    if (title && title.textContent.trim()) return title.textContent.trim();
    if (el.getAttribute("title")) return el.getAttribute("title");
    if (el.classList.contains("board")) break;
  }
  return "";
}

export class BoardLens {
  // `view`: the BoardView whose board it reads; it is on only in its touch layout.
  constructor(view, t) {
    this.view = view;
    this.t = t;
    this.list = h("ul", { class: "lens-words" });
    this.close = h("button", { type: "button", class: "lens-close", onclick: () => this.hide() }, "×");
    this.bubble = h("div", { class: "board-lens", role: "status", hidden: true }, this.close, this.list);
    view.frameBox.append(this.bubble);
    this.press = null;
    this.swallow = false;
    const pan = view.pan;
    pan.addEventListener("pointerdown", (e) => this.down(e));
    pan.addEventListener("pointermove", (e) => this.move(e));
    pan.addEventListener("pointerup", (e) => this.up(e));
    pan.addEventListener("pointercancel", () => this.cancel());
    // The click after a long press read the words: it must not play the move too.
    pan.addEventListener("click", (e) => {
      if (!this.swallow) return;
      this.swallow = false;
      e.stopPropagation();
      e.preventDefault();
    }, true);
    pan.addEventListener("contextmenu", (e) => { if (this.on()) e.preventDefault(); });
  }

  on() {
    return this.view.element.classList.contains("touch");
  }

  relabel() {
    this.close.setAttribute("aria-label", this.t("board.lens_close"));
  }

  down(e) {
    if (!this.on() || !e.isPrimary) return;
    this.swallow = false;
    clearTimeout(this.timer);
    const press = { x: e.clientX, y: e.clientY, target: e.target, at: Date.now() };
    this.press = press;
    this.timer = setTimeout(() => {
      if (this.press !== press) return;
      this.press = null;
      if (this.readAt(press.x, press.y, press.target).length) this.swallow = true;
    }, HOLD);
  }

  move(e) {
    if (this.press && Math.hypot(e.clientX - this.press.x, e.clientY - this.press.y) > SLOP) this.cancel();
  }

  cancel() {
    clearTimeout(this.timer);
    this.press = null;
  }

  up(e) {
    const press = this.press;
    this.cancel();
    if (!press) return;
    const target = press.target;
    const control = target.hitFor || (target.closest && target.closest(CONTROLS));
    // A short tap on a control plays it, as ever; elsewhere it reads.
    if (control) this.hide();
    else if (!this.readAt(e.clientX, e.clientY, target).length) this.hide();
  }

  // The words a tap at (x, y) reads: the small print within a finger's reach, then the
  // tooltip of what is under it; shown in the bubble (hidden when there are none).
  // Returns them.
  readAt(x, y, target = document.elementFromPoint(x, y)) {
    const words = [];
    const near = (r) => x >= r.left - REACH && x <= r.right + REACH && y >= r.top - REACH && y <= r.bottom + REACH;
    for (const item of smallPrint(this.view.board, near)) if (!words.includes(item.words)) words.push(item.words);
    const on = target && this.view.board.contains(target) ? target.hitFor || target : null;
    const tip = on ? tipOf(on) : "";
    if (tip && !words.includes(tip)) words.push(tip);
    // Held on a control: what it plays, in the words of the list of moves.
    const control = on && on.closest(CONTROLS);
    const says = control && control.getAttribute("aria-label");
    if (says && !words.includes(says)) words.push(says);
    if (!words.length) {
      this.hide();
      return words;
    }
    this.relabel();
    this.list.replaceChildren(...words.map((w) => h("li", {}, w)));
    this.bubble.hidden = false;
    // Above the finger when it is in the lower half of the box, else under it.
    const frame = this.view.frameBox.getBoundingClientRect();
    const below = y - frame.top < frame.height / 2;
    this.bubble.style.top = below ? `${Math.round(y - frame.top + REACH + 8)}px` : "";
    this.bubble.style.bottom = below ? "" : `${Math.round(frame.bottom - y + REACH + 8)}px`;
    return words;
  }

  hide() {
    this.bubble.hidden = true;
  }
}
