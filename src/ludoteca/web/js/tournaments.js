// Player tournaments: the API calls, and the small parts other pages show (the lobby's
// "about to start" list, a profile's results). The pages are pages/tournaments.js (the
// list and the create form) and pages/tournament.js (one tournament, live).
import { request } from "./api.js";
import { h } from "./dom.js";
import { language, t } from "./i18n.js";

const enc = encodeURIComponent;
const query = (params) => {
  const q = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ""));
  return q.toString() ? `?${q}` : "";
};

export const list = (params = {}) => request("GET", `/api/tournaments${query(params)}`);
export const one = (id, invite) => request("GET", `/api/tournaments/${enc(id)}${query({ invite })}`);
export const create = (body) => request("POST", "/api/tournaments", body);
export const edit = (id, body) => request("PATCH", `/api/tournaments/${enc(id)}`, body);
export const join = (id, invite) => request("POST", `/api/tournaments/${enc(id)}/join`, invite ? { invite } : {});
export const leave = (id) => request("POST", `/api/tournaments/${enc(id)}/leave`, {});
export const cancel = (id) => request("POST", `/api/tournaments/${enc(id)}/cancel`, {});
export const addBot = (id, bot) => request("POST", `/api/tournaments/${enc(id)}/bots`, { bot });
export const resultsOf = (name) => request("GET", `/api/players/${enc(name)}/tournaments`);
export const liveUrl = (id, invite) =>
  `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/tournaments/${enc(id)}/live${query({ invite })}`;

export function when(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
}

export function formatName(format) {
  return t(`tournaments.format_${format}`);
}

// The lobby's list of tournaments about to start (the next few upcoming ones, and those
// running now); fetched at most every 30 s however often the lobby redraws.
let soonCache = { at: 0, rows: null };

export function soonTournaments() {
  // The heading is there from the start: a section named by a heading that does not exist
  // yet is a nameless region, on which aria-labelledby is not allowed.
  const heading = () => h("h2", { id: "lobby-tournaments-h" }, t("tournaments.soon"));
  const box = h("section", { class: "panel", id: "lobby-tournaments", "aria-labelledby": "lobby-tournaments-h" },
    heading());
  const fill = (rows) => {
    box.replaceChildren(heading(),
      rows.length
        ? h("ul", { class: "tournament-soon" }, rows.map((r) => h("li", {},
            h("a", { href: `#/tournament/${enc(r.id)}`, class: "user-text" }, r.name), " — ", formatName(r.format), " · ",
            r.status === "running" ? t("tournaments.status_running") : t("tournaments.starts", { when: when(r.starts_at) }),
            " · ", t("tournaments.players_n", { n: r.players }))))
        : h("p", { class: "muted" }, t("tournaments.none_soon")),
      h("p", {}, h("a", { href: "#/tournaments", class: "button" }, t("tournaments.all"))));
  };
  if (soonCache.rows && Date.now() - soonCache.at < 30_000) {
    fill(soonCache.rows);
  } else {
    Promise.all([list({ status: "upcoming", limit: 5 }), list({ status: "running", limit: 5 })])
      .then(([upcoming, running]) => {
        soonCache = { at: Date.now(), rows: [...running, ...upcoming] };
        fill(soonCache.rows);
      })
      .catch(() => box.remove());
  }
  return box;
}

// A profile's tournaments: each finished one with the player's final rank.
export function tournamentResults(name) {
  const box = h("div", { id: "profile-tournaments" });
  resultsOf(name).then((rows) => {
    if (!rows.length) return;
    box.append(h("h2", {}, t("tournaments.results")), h("ul", {}, rows.map((r) => h("li", {},
      h("a", { href: `#/tournament/${enc(r.id)}`, class: "user-text" }, r.name), " — ",
      t("tournaments.rank_of", { rank: r.rank ?? "?", n: r.players }),
      r.finished_at ? h("span", { class: "muted small" }, ` · ${when(r.finished_at)}`) : null))));
  }).catch(() => {});
  return box;
}
