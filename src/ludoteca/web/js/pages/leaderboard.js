// The leaderboard of one game (rated tables only), with a picker for the game.
import * as api from "../api.js";
import { clear, h } from "../dom.js";
import { t } from "../i18n.js";
import { list } from "../model.js";
import { ratingBadge } from "../ratings.js";
import { gameLabel } from "./lobby.js";

export async function mount(main, { game: gameId }) {
  const games = list(await api.games().catch(() => []), "games");
  const chosen = gameId || (games[0] && games[0].id);
  const body = h("div");
  const picker = h("select", { id: "leaderboard-game", "aria-label": t("lobby.game"), onchange: (e) => { location.hash = `#/leaderboard/${e.target.value}`; } },
    games.map((g) => h("option", { value: g.id, selected: g.id === chosen }, gameLabel(g))));
  main.append(h("section", { class: "panel" }, h("h1", {}, t("nav.leaderboard")), picker, body,
    h("p", { class: "small muted", id: "rating-note" }, t("ratings.scale_note"))));
  if (!chosen) return {};
  try {
    const rows = list(await api.leaderboard(chosen), "players");
    clear(body, rows.length
      ? h("table", { class: "tables keep-columns" },
          h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("score.player")), h("th", {}, t("profile.rating")), h("th", {}, t("profile.rated_games")))),
          h("tbody", {}, rows.map((r, i) => h("tr", {}, h("td", {}, String(r.rank ?? i + 1)),
            h("td", {}, h("a", { href: `#/player/${encodeURIComponent(r.username)}` }, r.username)),
            h("td", {}, ratingBadge(r.rating, r.provisional)), h("td", {}, String(r.played ?? ""))))))
      : h("p", { class: "muted" }, t("profile.no_ratings")));
  } catch (e) {
    clear(body, h("p", { class: "message error" }, e.message));
  }
  return {};
}
