// Ratings as players read them, everywhere one appears: a rounded number on the
// server's display scale (1500 at the start, as lichess), with "?" while provisional
// (docs/web.md, "Ratings"); and the rating history chart of the profile, drawn as our
// own SVG with a table beside it for screen readers and keyboards.
import { request } from "./api.js";
import { h, svg } from "./dom.js";
import { language, t } from "./i18n.js";

const enc = encodeURIComponent;

export const ratingHistory = (name, gameId, limit = 200) =>
  request("GET", `/api/players/${enc(name)}/ratings/${enc(gameId)}?limit=${limit}`);
export const playerStats = (name) => request("GET", `/api/players/${enc(name)}/stats`);

// "1523" or "1523?" (provisional); "" when there is no rating.
export function ratingText(rating, provisional) {
  if (rating === null || rating === undefined || rating === "") return "";
  return `${Math.round(Number(rating))}${provisional ? "?" : ""}`;
}

// The same, with a tooltip and a spoken form that say what "?" means.
export function ratingBadge(rating, provisional) {
  const text = ratingText(rating, provisional);
  if (!text) return h("span", { class: "rating muted" }, "–");
  return h("span", { class: "rating", dataset: { provisional: provisional ? "1" : "0" },
    title: provisional ? t("ratings.provisional_hint") : null,
    "aria-label": provisional ? t("ratings.provisional_label", { rating: Math.round(Number(rating)) }) : null }, text);
}

// The drawing's own units: small enough that its labels stay readable when a phone
// shrinks it to its width, and the page caps its width on wide screens.
const W = 400;
const H = 200;
const PAD = { left: 44, right: 12, top: 12, bottom: 26 };

// Round tick steps (50, 100, 200...) so the grid reads at a glance.
function ticks(lo, hi) {
  const span = Math.max(hi - lo, 1);
  const step = [10, 20, 25, 50, 100, 200, 250, 500, 1000].find((s) => span / s <= 5) || 1000;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) out.push(v);
  return out;
}

function dateText(at) {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleDateString(language());
}

function pointText(p, gameName) {
  return t("ratings.point", { game: gameName, rating: ratingText(p.rating, p.provisional), date: dateText(p.at),
    rank: p.rank, seats: p.seats, change: signed(p.change) });
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

// The chart: one point per rated game (the rating after it), oldest on the left, a line
// through them; provisional points hollow. ``id`` makes its title and description unique.
export function ratingChart(points, { id, gameName }) {
  const ratings = points.map((p) => p.rating);
  const starts = points.length ? [points[0].rating_before] : [];
  const lo0 = Math.min(...ratings, ...starts);
  const hi0 = Math.max(...ratings, ...starts);
  const margin = Math.max(20, (hi0 - lo0) * 0.1);
  const lo = lo0 - margin;
  const hi = hi0 + margin;
  const x = (i) => points.length <= 1 ? (PAD.left + W - PAD.right) / 2
    : PAD.left + (i * (W - PAD.left - PAD.right)) / (points.length - 1);
  const y = (v) => PAD.top + ((hi - v) * (H - PAD.top - PAD.bottom)) / (hi - lo);
  const first = points[0];
  const last = points[points.length - 1];
  const summary = t("ratings.chart_desc", {
    game: gameName, n: points.length, from: first ? first.rating_before : "", to: last ? ratingText(last.rating, last.provisional) : "",
    high: Math.max(...ratings), low: Math.min(...ratings),
  });
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  const grid = ticks(lo, hi).map((v) => [
    svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: "grid" }),
    svg("text", { x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, String(v)),
  ]);
  const line = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const dots = points.map((p, i) => svg("circle", {
    cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: points.length > 60 ? 2.5 : 4,
    class: p.provisional ? "point provisional" : "point", "data-rating": p.rating,
  }, svg("title", {}, pointText(p, gameName))));
  return svg("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", id,
    "aria-labelledby": titleId, "aria-describedby": descId, preserveAspectRatio: "xMidYMid meet",
  },
  svg("title", { id: titleId }, t("ratings.chart_title", { game: gameName })),
  svg("desc", { id: descId }, summary),
  grid.flat(),
  svg("line", { x1: PAD.left, x2: W - PAD.right, y1: H - PAD.bottom, y2: H - PAD.bottom, class: "axis" }),
  svg("text", { x: PAD.left, y: H - 8, class: "tick" }, first ? dateText(first.at) : ""),
  svg("text", { x: W - PAD.right, y: H - 8, "text-anchor": "end", class: "tick" }, last ? dateText(last.at) : ""),
  points.length > 1 ? svg("path", { d: line, class: "line" }) : null,
  dots);
}

// The text alternative: every point of the chart as a table row, newest first.
export function ratingTable(points, { id }) {
  return h("details", { class: "rating-table" },
    h("summary", {}, t("ratings.as_table")),
    h("div", { class: "table-scroll" }, h("table", { class: "tables keep-columns", id },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("ratings.date")), h("th", { scope: "col" }, t("ratings.rank")),
        h("th", { scope: "col" }, t("ratings.rating")), h("th", { scope: "col" }, t("ratings.change")))),
      h("tbody", {}, [...points].reverse().map((p) => h("tr", {},
        h("td", {}, h("a", { href: `#/replay/${enc(p.table)}` }, dateText(p.at))),
        h("td", {}, t("ratings.rank_of", { rank: p.rank, seats: p.seats })),
        h("td", {}, ratingText(p.rating, p.provisional)),
        h("td", {}, signed(p.change))))))));
}

// Lifetime statistics: all games, then one row per game.
export function statsSection(stats, label) {
  const avg = (v) => (v === null || v === undefined ? "–" : Number(v).toLocaleString(language(), { maximumFractionDigits: 2 }));
  return h("section", { id: "stats", "aria-labelledby": "stats-h" },
    h("h2", { id: "stats-h" }, t("ratings.stats")),
    h("p", { class: "small muted" }, t("ratings.stats_note")),
    h("dl", { class: "stats-total" },
      h("dt", {}, t("ratings.games")), h("dd", { id: "stats-games" }, String(stats.games)),
      h("dt", {}, t("ratings.wins")), h("dd", { id: "stats-wins" }, String(stats.wins)),
      h("dt", {}, t("ratings.average_rank")), h("dd", {}, avg(stats.average_rank)),
      h("dt", {}, t("ratings.rated_games")), h("dd", {}, String(stats.rated_games))),
    stats.by_game.length ? h("div", { class: "table-scroll" }, h("table", { class: "tables keep-columns", id: "stats-by-game" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("ratings.game")), h("th", { scope: "col" }, t("ratings.games")),
        h("th", { scope: "col" }, t("ratings.wins")), h("th", { scope: "col" }, t("ratings.average_rank")),
        h("th", { scope: "col" }, t("ratings.rating")), h("th", { scope: "col" }, t("ratings.best")))),
      h("tbody", {}, stats.by_game.map((g) => h("tr", { dataset: { game: g.game } },
        h("th", { scope: "row" }, h("a", { href: `#/leaderboard/${enc(g.game)}` }, label(g.game))),
        h("td", {}, String(g.games)), h("td", {}, String(g.wins)), h("td", {}, avg(g.average_rank)),
        h("td", {}, ratingBadge(g.rating, g.provisional)),
        h("td", {}, g.best_rating === null ? "–" : String(g.best_rating))))))) : null);
}

// One chart and its table per rated game, fetched after the page shows.
export function historySection(name, gameIds, label) {
  const box = h("section", { id: "rating-history", "aria-labelledby": "history-h" },
    h("h2", { id: "history-h" }, t("ratings.history")));
  for (const gameId of gameIds) {
    const slot = h("figure", { class: "rating-figure", dataset: { game: gameId } },
      h("figcaption", {}, h("h3", {}, label(gameId))),
      h("p", { class: "muted small" }, t("ratings.loading")));
    box.append(slot);
    ratingHistory(name, gameId).then((data) => {
      const points = data.points || [];
      slot.replaceChildren(h("figcaption", {}, h("h3", {}, label(gameId), " ", ratingBadge(data.rating, data.provisional))));
      if (!points.length) {
        slot.append(h("p", { class: "muted small" }, t("ratings.no_history")));
        return;
      }
      slot.append(ratingChart(points, { id: `chart-${gameId}`, gameName: label(gameId) }),
        ratingTable(points, { id: `history-${gameId}` }));
    }).catch((e) => {
      slot.replaceChildren(h("p", { class: "message error" }, e.message));
    });
  }
  return box;
}

// A player's rating in one game beside their name at a table, as lichess shows it:
// fetched once per page (name, game), then drawn from memory. ``redraw`` runs once when
// the figure arrives. Guests and players with no rated game show nothing.
const known = new Map();

export function seatRating(name, gameId, redraw) {
  if (!name || !gameId) return null;
  const key = `${gameId}\n${name}`;
  if (!known.has(key)) {
    known.set(key, null);
    ratingHistory(name, gameId, 1).then((data) => {
      if (data.rating === null || data.rating === undefined) return;
      known.set(key, data);
      redraw();
    }).catch(() => {});
  }
  const data = known.get(key);
  return data ? h("span", { class: "seat-rating" }, ratingBadge(data.rating, data.provisional)) : null;
}
