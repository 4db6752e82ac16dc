// Seat colours from the Okabe–Ito palette, which people with the common colour-vision
// deficiencies can still tell apart; every seat also has its own shape, so colour is
// never the only cue.
import { svg } from "./dom.js";

export const SEAT_STYLES = [
  { colour: "#E69F00", shape: "circle" },
  { colour: "#56B4E9", shape: "square" },
  { colour: "#009E73", shape: "triangle" },
  { colour: "#CC79A7", shape: "diamond" },
  { colour: "#0072B2", shape: "hexagon" },
  { colour: "#D55E00", shape: "star" },
  { colour: "#F0E442", shape: "cross" },
  { colour: "#555555", shape: "pentagon" },
];

export function seatStyle(seat) {
  return SEAT_STYLES[((seat % SEAT_STYLES.length) + SEAT_STYLES.length) % SEAT_STYLES.length];
}

function polygon(points, cx, cy, r, rotate = -Math.PI / 2, inner = null) {
  const out = [];
  const n = inner ? points * 2 : points;
  for (let i = 0; i < n; i++) {
    const radius = inner && i % 2 ? r * inner : r;
    const a = rotate + (i * 2 * Math.PI) / n;
    out.push(`${(cx + radius * Math.cos(a)).toFixed(2)},${(cy + radius * Math.sin(a)).toFixed(2)}`);
  }
  return out.join(" ");
}

// The seat's shape, centred on (cx, cy) with radius r, for use inside any SVG.
export function seatShape(seat, cx = 0, cy = 0, r = 8, extra = {}) {
  const { colour, shape } = seatStyle(seat);
  // data-seat-shape names the seat, so tests can check that no colour goes without its shape.
  const attrs = { fill: colour, stroke: "#1b1b1b", "stroke-width": Math.max(1, r / 6), "data-seat-shape": seat, ...extra };
  switch (shape) {
    case "circle":
      return svg("circle", { cx, cy, r: r * 0.9, ...attrs });
    case "square":
      return svg("rect", { x: cx - r * 0.8, y: cy - r * 0.8, width: r * 1.6, height: r * 1.6, ...attrs });
    case "triangle":
      return svg("polygon", { points: polygon(3, cx, cy + r * 0.15, r), ...attrs });
    case "diamond":
      return svg("polygon", { points: polygon(4, cx, cy, r), ...attrs });
    case "hexagon":
      return svg("polygon", { points: polygon(6, cx, cy, r, 0), ...attrs });
    case "star":
      return svg("polygon", { points: polygon(5, cx, cy, r, -Math.PI / 2, 0.45), ...attrs });
    case "cross":
      return svg("polygon", { points: polygon(4, cx, cy, r, -Math.PI / 4, 0.4), ...attrs });
    default:
      return svg("polygon", { points: polygon(5, cx, cy, r), ...attrs });
  }
}

// A small inline badge (an <svg> element) to put next to a seat's name.
export function seatBadge(seat, size = 18) {
  const badge = svg("svg", { class: "seat-badge", width: size, height: size, viewBox: "-10 -10 20 20", "aria-hidden": "true" });
  badge.append(seatShape(seat, 0, 0, 8.5));
  return badge;
}
