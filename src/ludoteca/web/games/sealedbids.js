// The example board module, for the test-only game Sealed Bids
// (tests/engine/sealed_bids.py). It shows the whole interface in a few lines: draw the
// view in SVG, make the legal moves clickable on the board, and call ctx.play(move).
// See README.md in this folder.
import { clickable, svg } from "/js/dom.js";
import { seatShape } from "/js/seats.js";

const CARD_W = 54;
const CARD_H = 78;

function card(x, y, label, attrs = {}) {
  return svg("g", { transform: `translate(${x},${y})`, ...attrs },
    svg("rect", { width: CARD_W, height: CARD_H, rx: 6, fill: "#fffdf6", stroke: "#3a3a3a", "stroke-width": 1.5 }),
    svg("text", { x: CARD_W / 2, y: CARD_H / 2 + 7, "text-anchor": "middle", "font-size": 22, "font-weight": 700, fill: "#1d1d1f" }, label));
}

const number = (id) => id.split("-").pop();

export function render(root, { view, legal, seat, seats, t, play }) {
  const hand = seat !== null && seat !== undefined && Array.isArray(view.hands[seat]) ? view.hands[seat] : [];
  const width = Math.max(360, 40 + hand.length * (CARD_W + 10));
  // A group, not an image: its cards are buttons that assistive tech must reach.
  const board = svg("svg", { viewBox: `0 0 ${width} 250`, width, role: "group", "aria-label": t("sealedbids.board") });

  // The prize in the middle, the seats' points along the top.
  if (view.prize) board.append(svg("text", { x: 20, y: 24, "font-size": 14, fill: "#5c5c66" }, t("sealedbids.round", { n: view.round + 1 })));
  view.points.forEach((points, s) => {
    const x = 20 + s * 80;
    board.append(seatShape(s, x + 8, 48, 8), svg("text", { x: x + 22, y: 54, "font-size": 16, "font-weight": 700 }, String(points)));
    if (view.bid[s]) board.append(svg("text", { x: x + 40, y: 54, "font-size": 13, fill: "#009E73" }, "✔"));
  });
  if (view.prize) {
    board.append(svg("text", { x: width - 20 - CARD_W, y: 24, "font-size": 14, fill: "#5c5c66" }, t("sealedbids.prize")));
    board.append(card(width - 20 - CARD_W, 32, number(view.prize), { class: "prize" }));
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

// Optional: strings for a game that has no i18n files of its own (only this test game;
// real games keep theirs in games/<id>/i18n/<lang>.json, served by the server).
export const strings = {
  en: { game: { name: "Sealed Bids", description: "A tiny test game: bid a card for each prize; the highest bid takes it." }, sealedbids: {
    board: "The table", round: "Round {n}", prize: "Prize", bid_card: "Bid {card}", pass: "Pass", your_bid: "Your bid: {card}",
    bid: "Bid a card for the prize {prize}", bid_placed: "{seat} has bid.", you_bid: "You bid {card}.",
    revealed: "The bids are revealed: {bids}", won: "{seat} wins the prize {prize}.", breakdown: { prizes: "Prizes" } } },
  ja: { game: { name: "シールド・ビッド", description: "小さなテスト用ゲーム：賞品ごとにカードで入札し、最高値が獲得します。" }, sealedbids: {
    board: "テーブル", round: "第{n}ラウンド", prize: "賞品", bid_card: "{card}で入札", pass: "パス", your_bid: "あなたの入札：{card}",
    bid: "賞品{prize}にカードで入札してください", bid_placed: "{seat}が入札しました。", you_bid: "{card}で入札しました。",
    revealed: "入札が公開されました：{bids}", won: "{seat}が賞品{prize}を獲得。", breakdown: { prizes: "賞品" } } },
  vi: { game: { name: "Đấu giá kín", description: "Trò chơi thử nhỏ: trả giá bằng một lá bài cho mỗi giải; giá cao nhất thắng." }, sealedbids: {
    board: "Bàn chơi", round: "Vòng {n}", prize: "Giải thưởng", bid_card: "Trả giá {card}", pass: "Bỏ lượt", your_bid: "Giá của bạn: {card}",
    bid: "Trả giá một lá bài cho giải {prize}", bid_placed: "{seat} đã trả giá.", you_bid: "Bạn trả giá {card}.",
    revealed: "Các giá được lật: {bids}", won: "{seat} thắng giải {prize}.", breakdown: { prizes: "Giải thưởng" } } },
};

// Optional: each seat's score for the seat panels while the game runs.
export function scores(view) {
  return view.points;
}
