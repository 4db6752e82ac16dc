// The final scoreboard: rank, player, score, then each game's breakdown columns.
import { h } from "../dom.js";
import { seatName } from "../gamemodule.js";
import { argName, gameText, has, signed, t } from "../i18n.js";
import { seatBadge } from "../seats.js";

function columnLabel(gameId, key) {
  key = String(key);
  return gameText(gameId, `breakdown.${key}`) ?? (has(`scoring.${key}`) ? t(`scoring.${key}`) : key.replace(/_/g, " "));
}

const isPlain = (v) => v === null || v === undefined || typeof v !== "object";
const plain = (v) => (v === null || v === undefined ? "—" : signed(v));

// A breakdown value: a number or a word as it is; a list of plain values joined; an
// object of at most three plain values (or lists of them) inline; anything deeper (Iwari's points per
// territory, its settlements) behind a disclosure whose summary is the total when
// there is one, with a nested definition list (objects) or list (lists) inside. No
// nested <table>: "#scoreboard tbody tr" stays one row per seat.
function cell(gameId, value, depth = 0) {
  if (isPlain(value)) return plain(value);
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  if (!entries.length) return "—";
  if (Array.isArray(value) && entries.every(([, v]) => isPlain(v))) return value.map(plain).join(", ");
  const shallow = (v) => isPlain(v) || (Array.isArray(v) && v.every(isPlain));
  if (!Array.isArray(value) && entries.length <= 3 && entries.every(([, v]) => shallow(v))) {
    return entries.map(([k, v]) => `${columnLabel(gameId, k)} ${Array.isArray(v) ? v.map(plain).join(", ") : plain(v)}`)
      .join(" · ");
  }
  if (depth > 4) return JSON.stringify(value);
  const total = !Array.isArray(value) && isPlain(value.total) ? value.total : undefined;
  const inner = Array.isArray(value)
    ? h("ol", { class: "breakdown-list" }, entries.map(([, v]) => h("li", {}, cell(gameId, v, depth + 1))))
    : h("dl", { class: "breakdown-nested" }, entries.map(([k, v]) => [
        h("dt", {}, columnLabel(gameId, k)), h("dd", {}, cell(gameId, v, depth + 1))]));
  return h("details", { class: "breakdown" },
    h("summary", {}, total !== undefined ? t("score.total", { n: total }) : t("score.entries", { n: entries.length })),
    inner);
}

// A breakdown column says something when some seat has a value in it (not an empty
// list or object), and is not the score again under another name ("total").
function worthAColumn(result, breakdown, key) {
  const values = breakdown.map((b) => (b || {})[key]);
  const empty = (v) => v === null || v === undefined || (typeof v === "object" && !Object.keys(v).length);
  if (values.every(empty)) return false;
  return !(key === "total" && values.every((v, seat) => v === result.scores[seat]));
}

// Board Game Arena's end-of-game statistics: one row per source of points (the game's
// module says which, from the result's breakdown), one column per player, and the total.
function statisticsTable(game, module, result, seats, view) {
  if (!module || typeof module.statistics !== "function") return null;
  // A game ended by resignation was never scored: there are no points to take apart.
  if (result.ended === "resigned" || !(result.breakdown || []).length) return null;
  let rows;
  try {
    rows = module.statistics(result, { t, view, seats, game: game.id }) || [];
  } catch {
    return null; // the scores and ranks still show
  }
  if (!rows.length) return null;
  const n = (result.scores || []).length;
  const order = Array.from({ length: n }, (_, i) => i);
  return h("div", { class: "statistics-box" },
    h("h3", { id: "statistics-h" }, t("score.statistics")),
    h("div", { class: "table-scroll" }, h("table", { id: "statistics", class: "statistics", "aria-labelledby": "statistics-h" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("score.source")),
        order.map((seat) => h("th", { scope: "col", dataset: { seat } }, h("span", { class: "row", style: { gap: "4px" } }, seatBadge(seat, 14), seatName(seats, seat)))))),
      h("tbody", {},
        rows.map((row) => h("tr", {}, h("th", { scope: "row" }, row.label), order.map((seat) => h("td", { class: "num" }, plain(row.values[seat]))))),
        h("tr", { class: "total" }, h("th", { scope: "row" }, t("score.total_row")), order.map((seat) => h("td", { class: "num" }, plain(result.scores[seat]))))))));
}

// The final scores: rank, player, score; then, for a game whose module gives them, the
// points by source; otherwise the breakdown's own columns.
export function scoreboard(game, result, seats, module = null, view = null) {
  const n = (result.scores || []).length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => result.ranks[a] - result.ranks[b] || a - b);
  const breakdown = result.breakdown || [];
  const statistics = statisticsTable(game, module, result, seats, view);
  // With the points by source below, the ranking keeps only the breakdown's words (a
  // title earned, such as Hadrian's Wall's solo rank): its numbers are in the statistics.
  const words = (k) => breakdown.some((b) => typeof (b || {})[k] === "string");
  const keys = [...new Set(breakdown.flatMap((b) => Object.keys(b || {})))]
    .filter((k) => worthAColumn(result, breakdown, k) && (!statistics || words(k)));
  const winners = result.winners || order.filter((i) => result.ranks[i] === 1);
  const head = h("tr", {},
    h("th", { scope: "col" }, t("score.rank")),
    h("th", { scope: "col" }, t("score.player")),
    h("th", { scope: "col" }, t("score.score")),
    keys.map((k) => h("th", { scope: "col" }, columnLabel(game.id, k))));
  const rows = order.map((seat) => h("tr", { class: [result.ranks[seat] === 1 && "winner"], dataset: { seat } },
    h("td", {}, String(result.ranks[seat])),
    h("td", {}, h("span", { class: "row", style: { gap: "6px" } }, seatBadge(seat, 16), seatName(seats, seat))),
    h("td", {}, signed(result.scores[seat])),
    // A word (an id such as Hadrian's Wall's solo rank) reads as the name the game's
    // "_names" rules give it for that key; anything else as it is.
    keys.map((k) => {
      const v = (breakdown[seat] || {})[k];
      return h("td", {}, typeof v === "string" ? plain(argName(game.id, k, v)) : cell(game.id, v));
    })));
  const names = winners.map((w) => seatName(seats, w)).join(", ");
  return [
    h("h2", {}, t("score.title")),
    h("p", { class: "prompt", id: "winners" }, t(winners.length > 1 ? "score.winners_tied" : "score.winner", { names })),
    result.ended === "resigned" ? h("p", { class: "muted small", id: "by-resignation" }, t("score.by_resignation")) : null,
    h("div", { class: "table-scroll" }, h("table", { id: "ranking" }, h("thead", {}, head), h("tbody", {}, rows))),
    statistics,
  ];
}
