// The final scoreboard: rank, player, score, then each game's breakdown columns.
import { h } from "../dom.js";
import { seatName } from "../gamemodule.js";
import { argName, gameText, has, t } from "../i18n.js";
import { seatBadge } from "../seats.js";

function columnLabel(gameId, key) {
  key = String(key);
  return gameText(gameId, `breakdown.${key}`) ?? (has(`scoring.${key}`) ? t(`scoring.${key}`) : key.replace(/_/g, " "));
}

const isPlain = (v) => v === null || v === undefined || typeof v !== "object";
const plain = (v) => (v === null || v === undefined ? "—" : String(v));

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

export function scoreboard(game, result, seats) {
  const n = (result.scores || []).length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => result.ranks[a] - result.ranks[b] || a - b);
  const breakdown = result.breakdown || [];
  const keys = [...new Set(breakdown.flatMap((b) => Object.keys(b || {})))];
  const winners = result.winners || order.filter((i) => result.ranks[i] === 1);
  const head = h("tr", {},
    h("th", { scope: "col" }, t("score.rank")),
    h("th", { scope: "col" }, t("score.player")),
    h("th", { scope: "col" }, t("score.score")),
    keys.map((k) => h("th", { scope: "col" }, columnLabel(game.id, k))));
  const rows = order.map((seat) => h("tr", { class: [result.ranks[seat] === 1 && "winner"], dataset: { seat } },
    h("td", {}, String(result.ranks[seat])),
    h("td", {}, h("span", { class: "row", style: { gap: "6px" } }, seatBadge(seat, 16), seatName(seats, seat))),
    h("td", {}, String(result.scores[seat])),
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
    h("div", { class: "table-scroll" }, h("table", {}, h("thead", {}, head), h("tbody", {}, rows))),
  ];
}
