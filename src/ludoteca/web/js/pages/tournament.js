// One tournament: its rules, players, live standings (over its WebSocket), rounds and
// their tables (each links to the table to watch or play), the crosstable and the podium.
import * as api from "../api.js";
import { clear, h } from "../dom.js";
import { has, loadGameStrings, t } from "../i18n.js";
import { Live } from "../live.js";
import { list as listOf } from "../model.js";
import { ensureUser, session } from "../session.js";
import { addBot, cancel, formatName, join, leave, liveUrl, one, when } from "../tournaments.js";
import { gameLabel } from "./lobby.js";

export async function mount(main, { id }) {
  const invite = new URLSearchParams(location.hash.split("?")[1] || "").get("invite") || undefined;
  let data = null;
  let games = [];
  let said = { text: "", error: false };
  let link = "connecting";
  try {
    games = listOf(await api.games(), "games");
    data = await one(id, invite);
    await loadGameStrings(data.game);
  } catch (e) {
    main.append(h("p", { class: "message error", role: "alert" }, e.status === 404 ? t("tournaments.not_found") : e.message));
    return {};
  }
  const label = (g) => gameLabel(games.find((x) => x.id === g) || { id: g });
  const names = () => Object.fromEntries(data.entrants.map((e) => [e.id, e.name]));

  let live = null;
  const act = (fn) => async () => {
    try {
      const signedIn = Boolean(session.user);
      if (!signedIn) await ensureUser();
      data = await fn();
      said = { text: "", error: false };
      // The socket knows who reads it from when it connected: a newcomer's is made again.
      if (!signedIn && live) live.restart();
    } catch (e) {
      // The server's refusals read in the reader's language where we have their words.
      const key = `tournaments.error_${e.code}`;
      said = { text: e.code && has(key) ? t(key) : e.message, error: true };
    }
    draw();
  };

  function rules() {
    const row = (k, v) => (v === null || v === undefined || v === "" ? null : [h("dt", {}, k), h("dd", {}, String(v))]);
    return h("dl", { class: "tournament-rules" },
      row(t("tournaments.game"), label(data.game)),
      row(t("tournaments.format"), formatName(data.format)),
      row(t("tournaments.seats"), data.min_seats < data.seats ? `${data.min_seats}–${data.seats}` : data.seats),
      data.format === "swiss" ? row(t("tournaments.rounds"), data.rounds) : null,
      data.format === "elimination" ? row(t("tournaments.advance"), data.advance) : null,
      data.format === "arena" ? row(t("tournaments.minutes"), data.minutes) : null,
      row(t("tournaments.starts_at"), when(data.starts_at)),
      data.ends_at ? row(t("tournaments.ends_at"), when(data.ends_at)) : null,
      row(t("tournaments.points_list"), (data.points || defaultPoints(data.seats)).join(", ")),
      data.format === "swiss" ? row(t("tournaments.bye_points"), data.bye_points) : null,
      row(t("tournaments.players"), `${data.players} (${data.min_players}–${data.max_players})`),
      row(t("tournaments.clock"), clockText(data)),
      row(t("tournaments.rated"), data.rated ? t("tournaments.yes") : t("tournaments.no")),
      row(t("tournaments.bots_allowed"), data.bots.length ? data.bots.map((b) => t(`bots.${b}`)).join(", ") : t("tournaments.no")),
      data.format === "swiss" ? row(t("tournaments.avoid_repeats"), data.avoid_repeats ? t("tournaments.yes") : t("tournaments.no")) : null,
      row(t("tournaments.organiser"), data.organiser));
  }

  function actions() {
    if (data.status !== "upcoming" && !(data.status === "running" && data.me)) return null;
    const mine = data.me !== null && data.me !== undefined;
    const me = mine ? data.entrants.find((e) => e.id === data.me) : null;
    const buttons = [];
    if (data.status === "upcoming") {
      buttons.push(mine
        ? h("button", { type: "button", id: "tournament-leave", onclick: act(() => leave(id)) }, t("tournaments.leave"))
        : h("button", { type: "button", id: "tournament-join", class: "primary", onclick: act(() => join(id, invite)) }, t("tournaments.join")));
    } else if (me && !me.withdrawn) {
      buttons.push(h("button", { type: "button", id: "tournament-leave", onclick: act(() => leave(id)) }, t("tournaments.withdraw")));
    }
    let botControls = null;
    if (data.is_organiser && data.status === "upcoming" && data.bots.length) {
      const level = h("select", { id: "tournament-bot-level", "aria-label": t("tournaments.bot_level") },
        data.bots.map((b) => h("option", { value: b }, t(`bots.${b}`))));
      botControls = [level, h("button", { type: "button", id: "tournament-add-bot", onclick: act(() => addBot(id, level.value)) },
        t("tournaments.add_bot"))];
    }
    const cancelButton = data.is_organiser && data.status === "upcoming"
      ? h("button", { type: "button", id: "tournament-cancel", onclick: act(() => cancel(id)) }, t("tournaments.cancel"))
      : null;
    return h("div", { class: "row tournament-actions" }, buttons, botControls, cancelButton);
  }

  function myTable() {
    if (data.status !== "running" || data.me === null) return null;
    for (const rnd of [...data.rounds_played].reverse()) {
      const table = rnd.tables.find((x) => x.players.includes(data.me) && x.status === "playing");
      if (table) return h("p", { class: "message", id: "tournament-my-table" },
        h("a", { href: `#/table/${encodeURIComponent(table.table)}`, class: "button primary" }, t("tournaments.your_table")));
    }
    return null;
  }

  function standings() {
    if (!data.standings.length) return h("p", { class: "muted" }, t("tournaments.no_players"));
    return h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": t("tournaments.standings") }, h("table", { class: "tables keep-columns", id: "tournament-standings" },
      h("caption", { class: "visually-hidden" }, t("tournaments.standings")),
      h("thead", {}, h("tr", {}, ["rank", "player", "points", "played", "opponents_points", "opponents_average", "rating"]
        .map((k) => h("th", { scope: "col" }, t(`tournaments.col_${k}`))))),
      h("tbody", {}, data.standings.map((s) => h("tr", { class: s.player === data.me ? "mine" : null, dataset: { player: String(s.player) } },
        h("td", {}, String(s.rank)),
        h("td", {}, s.name, s.withdrawn ? h("span", { class: "muted small" }, ` (${t("tournaments.withdrawn")})`) : null),
        h("td", { class: "points" }, fmt(s.points)), h("td", {}, String(s.played)),
        h("td", {}, fmt(s.opponents_points)), h("td", {}, fmt(s.opponents_average)), h("td", {}, fmt(s.rating)))))));
  }

  function rounds() {
    if (!data.rounds_played.length) return null;
    const n = names();
    return [h("h2", {}, t("tournaments.rounds_played")),
      data.rounds_played.map((rnd) => h("section", { class: "tournament-round", dataset: { round: String(rnd.number) } },
        h("h3", {}, data.format === "arena" ? t("tournaments.games") : t("tournaments.round_n", { n: rnd.number })),
        h("ul", {}, rnd.tables.map((table) => h("li", {},
          h("a", { href: `#/table/${encodeURIComponent(table.table)}` }, t("tournaments.board_n", { n: table.board })), ": ",
          table.players.map((p, i) => `${n[p] || "?"}${table.points ? ` (${fmt(table.points[i])})` : ""}`).join(", "),
          table.status === "playing" ? h("span", { class: "muted small" }, ` · ${t("tournaments.in_play")}`) : null)),
        rnd.byes.map((b) => h("li", { class: "muted" }, `${b.name}: ${t(`tournaments.bye_${b.kind}`)} (${fmt(b.points)})`)))))];
  }

  function crosstable() {
    if (data.format === "arena" || !data.rounds_played.length) return null;
    const points = {};
    for (const rnd of data.rounds_played) {
      for (const table of rnd.tables) {
        table.players.forEach((p, i) => { points[`${p}:${rnd.number}`] = table.points ? fmt(table.points[i]) : "…"; });
      }
      for (const b of rnd.byes) points[`${b.player}:${rnd.number}`] = `${fmt(b.points)}*`;
    }
    return [h("h2", {}, t("tournaments.crosstable")),
      h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": t("tournaments.crosstable") }, h("table", { class: "tables keep-columns", id: "tournament-crosstable" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("tournaments.col_player")),
          data.rounds_played.map((r) => h("th", { scope: "col" }, t("tournaments.round_short", { n: r.number }))),
          h("th", { scope: "col" }, t("tournaments.col_points")))),
        h("tbody", {}, data.standings.map((s) => h("tr", {}, h("th", { scope: "row" }, s.name),
          data.rounds_played.map((r) => h("td", {}, points[`${s.player}:${r.number}`] ?? "–")),
          h("td", {}, fmt(s.points))))))),
      h("p", { class: "small muted" }, t("tournaments.crosstable_note"))];
  }

  function podium() {
    if (!data.podium.length) return null;
    return h("section", { class: "panel tournament-podium", id: "tournament-podium", "aria-labelledby": "podium-h" },
      h("h2", { id: "podium-h" }, t("tournaments.podium")),
      h("ol", {}, data.podium.map((p) => h("li", {}, p.name))));
  }

  function draw() {
    const inviteLink = data.invite ? `${location.origin}${location.pathname}#/tournament/${encodeURIComponent(data.id)}?invite=${encodeURIComponent(data.invite)}` : null;
    clear(main,
      h("section", { class: "panel tournament-page" },
        h("p", {}, h("a", { href: "#/tournaments", id: "tournament-back" }, t("tournaments.title"))),
        h("h1", { class: "user-text" }, data.name),
        h("p", { id: "tournament-status" }, t(`tournaments.status_${data.status}`),
          data.status === "running" && data.format !== "arena" ? ` · ${t("tournaments.round_of", { n: data.round, total: data.rounds })}` : "",
          " · ", h("span", { class: "small muted", id: "tournament-link" }, t(`link.${link}`))),
        said.text ? h("p", { class: `message${said.error ? " error" : ""}`, role: said.error ? "alert" : "status" }, said.text) : null,
        actions(), myTable(),
        inviteLink ? h("p", { class: "small" }, t("tournaments.invite_link"), " ", h("input", { readonly: true, value: inviteLink, id: "tournament-invite", "aria-label": t("tournaments.invite_link") })) : null,
        rules()),
      podium(),
      h("section", { class: "panel", "aria-labelledby": "standings-h" }, h("h2", { id: "standings-h" }, t("tournaments.standings")),
        h("div", { "aria-live": "polite" }, standings()), rounds()),
      crosstable() && h("section", { class: "panel" }, crosstable()));
  }

  draw();
  live = new Live(() => liveUrl(id, invite), {
    onMessage: (message) => {
      if (message.type !== "tournament") return;
      data = message.tournament;
      draw();
    },
    onStatus: (status) => {
      link = status;
      const el = main.querySelector("#tournament-link");
      if (el) el.textContent = t(`link.${status}`);
    },
  });
  live.start();
  return { unmount: () => live.stop(), relabel: draw };
}

function fmt(x) {
  return Number.isInteger(x) ? String(x) : Number(x).toFixed(2).replace(/0$/, "");
}

function defaultPoints(seats) {
  return Array.from({ length: seats }, (_, i) => seats - 1 - i);
}

function clockText(d) {
  const c = d.clock || {};
  if (d.mode === "turn-based") return t("tournaments.clock_turn", { hours: Math.round((c.turn_seconds || 0) / 3600) });
  return t("tournaments.clock_realtime", { minutes: Math.round((c.initial_seconds || 0) / 60), seconds: c.increment_seconds || 0 });
}
