// A player's profile: games played, results and ratings per game.
import * as api from "../api.js";
import { h } from "../dom.js";
import { language, t } from "../i18n.js";
import { list } from "../model.js";
import { gameLabel } from "./lobby.js";

export async function mount(main, { name }) {
  let data;
  try {
    data = await api.player(name);
  } catch (e) {
    main.append(h("p", { class: "message error", role: "alert" }, e.status === 404 ? t("profile.not_found") : e.message));
    return {};
  }
  const games = list(await api.games().catch(() => []), "games");
  const label = (id) => gameLabel(games.find((g) => g.id === id) || { id });
  const ratings = Object.entries(data.ratings || {});
  const played = Object.entries(data.played_by_game || {});
  const recent = data.recent || data.tables || [];
  main.append(h("section", { class: "panel" },
    h("h1", {}, data.username, data.guest ? ` (${t("auth.guest")})` : ""),
    h("p", {}, t("profile.games_played", { n: data.games_played ?? 0 })),
    played.length ? h("ul", {}, played.map(([g, n]) => h("li", {}, `${label(g)}: ${n}`))) : null,
    h("h2", {}, t("profile.ratings")),
    ratings.length
      ? h("table", { class: "tables" },
          h("thead", {}, h("tr", {}, h("th", {}, t("lobby.game")), h("th", {}, t("profile.rating")), h("th", {}, t("profile.rated_games")))),
          h("tbody", {}, ratings.map(([g, r]) => h("tr", {}, h("td", {}, h("a", { href: `#/leaderboard/${g}` }, label(g))),
            h("td", {}, String(r.rating)), h("td", {}, String(r.played))))))
      : h("p", { class: "muted" }, t("profile.no_ratings")),
    recent.length ? [h("h2", {}, t("profile.recent")), h("ul", { id: "recent" }, recent.map((r) => h("li", {},
      h("a", { href: `#/replay/${r.id}` }, label(r.game)), r.rank ? ` — ${t("profile.rank", { rank: r.rank })}` : "",
      r.finished_at ? h("span", { class: "muted small" }, ` · ${t("profile.finished", { date: new Date(r.finished_at).toLocaleDateString(language()) })}`) : null)))] : null));
  return {};
}
