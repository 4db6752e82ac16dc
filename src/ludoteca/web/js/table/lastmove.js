// The other players' last moves on the board: every part of the drawing
// whose value in the view has changed since the reader's last move is marked (the class
// `last-change`, and four corner brackets round it: a cue that is no colour, and unlike
// the dashed outlines the boards give their legal targets), and what changed
// in the update just come in moves: a piece drawn elsewhere slides from where it was, a
// changed part fades and flips in. Short (under 300 ms), and none at all when the reader
// asks for reduced motion.
//
// Nothing here knows a game: the boards mark what they draw with the kit's part(el, path)
// (data-part, the value's path in the view) and piece(el, id) (data-piece).

import { t } from "../i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
export const DURATION = 260; // ms
const REDUCED = "(prefers-reduced-motion: reduce)";

// The value at `path` in `view`: keys and list indexes between "/", or the id of an entry
// of a list (provinces/myrkulor).
export function valueAt(view, path) {
  let here = view;
  for (const key of path.split("/")) {
    if (here === null || here === undefined || typeof here !== "object") return undefined;
    if (Array.isArray(here) && !/^\d+$/.test(key)) here = here.find((x) => x && typeof x === "object" && String(x.id) === key);
    else here = here[key];
  }
  return here;
}

// Which of the board's parts draw a value that differs between `before` and `after`:
// the innermost ones (the token turned over, not the province that holds it too, unless
// the province has another change of its own).
export function changedParts(root, before, after) {
  if (!before || !after || before === after) return [];
  const same = new Map();
  const differs = (path) => {
    if (!same.has(path)) same.set(path, JSON.stringify(valueAt(before, path)) === JSON.stringify(valueAt(after, path)));
    return !same.get(path);
  };
  const changed = [];
  for (const el of root.querySelectorAll("[data-part]")) {
    const paths = el.getAttribute("data-part").split("|").filter(differs);
    if (paths.length) changed.push([el, paths]);
  }
  const related = (a, b) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
  return changed.filter(([el, paths]) => {
    const inner = changed.filter(([other]) => other !== el && el.contains(other)).flatMap(([, p]) => p);
    return !inner.length || paths.some((p) => !inner.some((q) => related(p, q)));
  }).map(([el]) => el);
}

// Marks the changed parts (and drops the marks of the drawing before, for a board that
// keeps some of its elements across updates); `spectator`: the marks are the last
// update's. Returns the parts marked.
export function markChanges(root, before, after, spectator = false) {
  for (const el of root.querySelectorAll(".change-mark")) el.remove();
  for (const el of root.querySelectorAll(".last-change")) {
    el.classList.remove("last-change");
    el.removeAttribute("aria-description");
  }
  const parts = changedParts(root, before, after);
  // Every box is read before anything is drawn: a read after a write lays the page out
  // again, once per part (a whole Crusaders game spent a tenth of its time there).
  const boxes = parts.map((el) => (el instanceof SVGGraphicsElement && !(el instanceof SVGSVGElement) ? boxOf(el) : null));
  parts.forEach((el, i) => {
    el.classList.add("last-change");
    // Assistive tech hears it too, after the part's own name.
    el.setAttribute("aria-description", t(spectator ? "table.changed_last" : "table.changed"));
    if (boxes[i]) frame(el, boxes[i]);
  });
  return parts;
}

function boxOf(el) {
  try {
    const box = el.getBBox();
    return box.width || box.height ? box : null;
  } catch {
    return null;
  }
}

// Corner brackets round an SVG part, over it and taking no clicks; an HTML part has its
// double outline from the style sheet.
function frame(el, box) {
  const pad = 3;
  const x = box.x - pad;
  const y = box.y - pad;
  const w = box.width + 2 * pad;
  const h = box.height + 2 * pad;
  const a = Math.max(3, Math.min(12, w / 3, h / 3)); // each bracket's arm
  const d = `M${x},${y + a}V${y}H${x + a}M${x + w - a},${y}H${x + w}V${y + a}`
    + `M${x + w},${y + h - a}V${y + h}H${x + w - a}M${x + a},${y + h}H${x}V${y + h - a}`;
  const mark = document.createElementNS(SVG_NS, "g");
  mark.setAttribute("class", "change-mark");
  mark.setAttribute("aria-hidden", "true");
  mark.setAttribute("pointer-events", "none");
  for (const cls of ["change-halo", "change-corner"]) {
    const p = document.createElementNS(SVG_NS, "path");
    p.setAttribute("d", d);
    p.setAttribute("class", cls);
    mark.append(p);
  }
  // Inside a group, in its own coordinates; beside a shape, under the same transform.
  if (el.tagName === "g") {
    el.append(mark);
  } else {
    if (el.hasAttribute("transform")) mark.setAttribute("transform", el.getAttribute("transform"));
    el.after(mark);
  }
}

export const reducedMotion = () => typeof matchMedia === "function" && matchMedia(REDUCED).matches;

// Where each piece is before a redraw: its centre in its drawing's own units (so a zoom
// in between does not move it) and which drawing it is in.
export function piecePlaces(root) {
  const places = new Map();
  if (reducedMotion()) return places;
  const svgs = [...root.querySelectorAll("svg")];
  for (const el of root.querySelectorAll("[data-piece]")) {
    const c = centre(el, svgs);
    if (c) places.set(el.getAttribute("data-piece"), c);
  }
  return places;
}

function centre(el, svgs) {
  if (!(el instanceof SVGGraphicsElement) || !el.ownerSVGElement) return null;
  try {
    const box = el.getBBox();
    const m = el.getCTM();
    if (!m) return null;
    const p = new DOMPoint(box.x + box.width / 2, box.y + box.height / 2).matrixTransform(m);
    return { x: p.x, y: p.y, svg: svgs.indexOf(el.ownerSVGElement) };
  } catch {
    return null;
  }
}

// The moves of an update: each piece drawn elsewhere than in `places` slides from there;
// each part changed between `before` and `after` (the views either side of the update)
// fades in, and a small one (a card, a marker) flips in too.
export function animateUpdate(root, places, before, after) {
  if (reducedMotion() || typeof Element.prototype.animate !== "function") return 0;
  const options = { duration: DURATION, easing: "ease-out" };
  // Everything is measured first, then animated: a measure after an animation has begun
  // or a style was set lays the page out again, once per element.
  const svgs = [...root.querySelectorAll("svg")];
  const slides = [];
  for (const el of root.querySelectorAll("[data-piece]")) {
    const was = places.get(el.getAttribute("data-piece"));
    if (!was) continue;
    const now = centre(el, svgs);
    if (!now || now.svg !== was.svg) continue;
    // The slide is in the parent's units: the drawing's, scaled by the groups between.
    const m = typeof el.parentNode.getCTM === "function" ? el.parentNode.getCTM() : null;
    const scale = (m && Math.hypot(m.a, m.b)) || 1;
    const dx = (was.x - now.x) / scale;
    const dy = (was.y - now.y) / scale;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    slides.push([el, dx, dy]);
  }
  const slid = slides.map(([el]) => el);
  const fades = changedParts(root, before, after)
    .filter((el) => !slid.some((s) => el.contains(s) || s.contains(el)))
    .map((el) => [el, el.getBoundingClientRect()]);
  for (const [el, dx, dy] of slides) el.animate([{ translate: `${dx}px ${dy}px` }, { translate: "0px 0px" }], options);
  for (const [el, r] of fades) {
    // A flip turns round the part's own middle: an SVG part whose transform does more
    // than move it would turn elsewhere with that origin, so it only fades.
    const moved = !el.getAttribute("transform") || /^\s*translate\([^)]*\)\s*$/.test(el.getAttribute("transform"));
    const small = r.width > 0 && r.width < 120 && r.height < 160 && (!(el instanceof SVGElement) || moved);
    const frames = small
      ? [{ opacity: 0.3, scale: "0.2 1" }, { opacity: 1, scale: "1 1" }]
      : [{ opacity: 0.35 }, { opacity: 1 }];
    if (small && el instanceof SVGElement) {
      el.style.transformBox = "fill-box";
      el.style.transformOrigin = "center";
    } else if (small) {
      el.style.transformOrigin = "center";
    }
    el.animate(frames, options);
  }
  return slides.length + fades.length;
}
