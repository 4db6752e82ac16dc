// The example board module, for the test-only game Sealed Bids (its package is
// tests/toygame/sealedbids, a game packaged outside Ludoteca). It shows the whole interface
// in a few lines: draw the view in SVG, make the legal moves clickable on the board, and
// call ctx.play(move). See src/ludoteca/games/README.md.
import { part } from "/js/board.js";
import { clickable, h, svg } from "/js/dom.js";
import { seatShape } from "/js/seats.js";

const CARD_W = 54;
const CARD_H = 78;

function card(x, y, label, attrs = {}) {
  return svg("g", { transform: `translate(${x},${y})`, ...attrs },
    svg("rect", { width: CARD_W, height: CARD_H, rx: 6, fill: "#fffdf6", stroke: "#3a3a3a", "stroke-width": 1.5 }),
    svg("text", { x: CARD_W / 2, y: CARD_H / 2 + 7, "text-anchor": "middle", "font-size": 22, "font-weight": 700, fill: "#1d1d1f" }, label));
}

const number = (id) => id.split("-").pop();

// Optional: a style sheet of the board's own (web/board.css beside this module, served at
// /games/<id>.css), added to the page once.
function addStyleSheet() {
  if (document.querySelector("link[data-board-css='sealedbids']")) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/games/sealedbids.css", dataset: { boardCss: "sealedbids" } }));
}

export function render(root, { view, legal, seat, seats, t, play }) {
  addStyleSheet();
  const hand = seat !== null && seat !== undefined && Array.isArray(view.hands[seat]) ? view.hands[seat] : [];
  const width = Math.max(360, 40 + hand.length * (CARD_W + 10));
  // A group, not an image: its cards are buttons that assistive tech must reach.
  const board = svg("svg", { viewBox: `0 0 ${width} 250`, width, role: "group", "aria-label": t("sealedbids.board") });

  // The prize in the middle, the seats' points along the top.
  if (view.prize) board.append(svg("text", { x: 20, y: 24, "font-size": 14, fill: "#5c5c66" }, t("sealedbids.round", { n: view.round + 1 })));
  view.points.forEach((points, s) => {
    const x = 20 + s * 80;
    // part(): the frame marks (and animates) what changed since the reader's last move.
    board.append(seatShape(s, x + 8, 48, 8), part(svg("text", { x: x + 22, y: 54, "font-size": 16, "font-weight": 700, class: "points" }, String(points)),
      `points/${s}`));
    if (view.bid[s]) board.append(part(svg("text", { x: x + 40, y: 54, "font-size": 13, fill: "#009E73", class: "has-bid" }, "✔"), `bid/${s}`));
  });
  if (view.prize) {
    board.append(svg("text", { x: width - 20 - CARD_W, y: 24, "font-size": 14, fill: "#5c5c66" }, t("sealedbids.prize")));
    board.append(part(card(width - 20 - CARD_W, 32, number(view.prize), { class: "prize" }), "prize", t("sealedbids.prize")));
  }

  // The hand: each card that may be bid is a button on the board.
  const legalCards = new Map(legal.filter((m) => m.type === "bid").map((m) => [m.card, m]));
  hand.forEach((id, i) => {
    const x = 20 + i * (CARD_W + 10);
    const g = card(x, 140, number(id), { class: "hand-card", "data-card": id });
    const move = legalCards.get(id);
    if (move) {
      g.style.cursor = "pointer";
      clickable(g, () => play(move), t("sealedbids.bid_card", { card: number(id) }));
    } else {
      g.setAttribute("opacity", "0.45");
    }
    board.append(g);
  });
  if (view.my_bid) board.append(svg("text", { x: 20, y: 236, "font-size": 14 }, t("sealedbids.your_bid", { card: number(view.my_bid) })));
  root.replaceChildren(board);
}

// Optional: the label of a move in the frame's list of moves.
export function moveLabel(move, { t }) {
  if (move.type === "bid") return t("sealedbids.bid_card", { card: number(move.card) });
  if (move.type === "pass") return t("sealedbids.pass");
  return null;
}

// Optional: each seat's key resources for its seat panel.
export function resources(view, seat, { t }) {
  const hand = view.hands[seat];
  return [
    { key: "points", label: t("sealedbids.res_points"), value: view.points[seat] },
    { key: "cards", label: t("sealedbids.res_cards"), value: Array.isArray(hand) ? hand.length : hand },
  ];
}

// Optional: each seat's score for the seat panels while the game runs.
export function scores(view) {
  return view.points;
}
