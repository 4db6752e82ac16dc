// A player's profile: games played, results and ratings per game.
import * as api from "../api.js";
import { h } from "../dom.js";
import { language, t } from "../i18n.js";
import { list } from "../model.js";
import { historySection, playerStats, ratingBadge, statsSection } from "../ratings.js";
import { session } from "../session.js";
import { tournamentResults } from "../tournaments.js";
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
  // Lifetime statistics (ratings.js); a server without them shows the page without.
  const stats = await playerStats(name).catch(() => null);
  main.append(h("section", { class: "panel" },
    h("h1", {}, data.username, data.guest ? ` (${t("auth.guest")})` : ""),
    session.user && session.user.username !== data.username ? playerActions(data.username) : null,
    h("p", {}, t("profile.games_played", { n: data.games_played ?? 0 })),
    played.length ? h("ul", {}, played.map(([g, n]) => h("li", {}, `${label(g)}: ${n}`))) : null,
    h("h2", {}, t("profile.ratings")),
    ratings.length
      ? h("table", { class: "tables keep-columns" },
          h("thead", {}, h("tr", {}, h("th", {}, t("lobby.game")), h("th", {}, t("profile.rating")), h("th", {}, t("profile.rated_games")))),
          h("tbody", {}, ratings.map(([g, r]) => h("tr", {}, h("td", {}, h("a", { href: `#/leaderboard/${g}` }, label(g))),
            h("td", {}, ratingBadge(r.rating, r.provisional)), h("td", {}, String(r.played))))))
      : h("p", { class: "muted" }, t("profile.no_ratings")),
    ratings.length ? h("p", { class: "small muted", id: "rating-note" }, t("ratings.scale_note")) : null,
    stats && statsSection(stats, label),
    tournamentResults(data.username),
    ratings.length ? historySection(data.username, ratings.map(([g]) => g), label) : null,
    recent.length ? [h("h2", {}, t("profile.recent")), h("ul", { id: "recent" }, recent.map((r) => h("li", {},
      h("a", { href: `#/replay/${r.id}` }, label(r.game)), r.rank ? ` — ${t("profile.rank", { rank: r.rank })}` : "",
      r.finished_at ? h("span", { class: "muted small" }, ` · ${t("profile.finished", { date: new Date(r.finished_at).toLocaleDateString(language()) })}`) : null)))] : null));
  return {};
}

// Block (their chat hidden, no seat at your tables) and report, for another player.
function playerActions(name) {
  const note = h("p", { class: "small muted", id: "blocked-note", hidden: true }, t("profile.blocked_note"));
  const said = h("p", { class: "message", role: "status", hidden: true });
  const tell = (text, error = false) => {
    said.hidden = false;
    said.className = `message${error ? " error" : ""}`;
    said.textContent = text;
  };
  const failed = (e) => tell(e.code && t(`errors.${e.code}`) !== e.code.replace(/_/g, " ") ? t(`errors.${e.code}`) : e.message, true);
  let blocked = false;
  let acted = false; // the reader pressed the button: the first look-up's answer is older
  const blockButton = h("button", { type: "button", id: "block", onclick: async () => {
    acted = true;
    try {
      await (blocked ? api.unblock(name) : api.block(name));
      show(!blocked);
    } catch (e) {
      failed(e);
    }
  } });
  const show = (now) => {
    blocked = now;
    blockButton.textContent = t(now ? "profile.unblock" : "profile.block");
    note.hidden = !now;
  };
  show(false);
  api.blocks().then((b) => { if (!acted) show(b.blocked.includes(name)); }).catch(() => {});
  const reason = h("input", { id: "report-reason", maxlength: 500, required: true, "aria-label": t("profile.report_reason"),
    placeholder: t("profile.report_reason") });
  const form = h("form", { id: "report-form", class: "row", hidden: true }, reason,
    h("button", { type: "submit", class: "primary" }, t("profile.send")),
    h("button", { type: "button", onclick: () => { form.hidden = true; } }, t("profile.cancel")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await api.report({ kind: "player", username: name, reason: reason.value.trim() });
      form.hidden = true;
      reason.value = "";
      tell(t("profile.report_sent"));
    } catch (err) {
      failed(err);
    }
  });
  const reportButton = h("button", { type: "button", id: "report", onclick: () => { form.hidden = false; reason.focus(); } },
    t("profile.report"));
  return h("div", { class: "player-actions" }, h("div", { class: "row" }, blockButton, reportButton), note, form, said);
}
