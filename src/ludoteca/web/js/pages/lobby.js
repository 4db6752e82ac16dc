// Home and lobby: the games, open tables to join, tables in play to watch, finished
// ones to replay, and the form that creates a table.
import * as api from "../api.js";
import { clear, h } from "../dom.js";
import { loadModule } from "../gamemodule.js";
import { gameText, language, loadGameStrings, t } from "../i18n.js";
import { list, seatsOf } from "../model.js";
import { ratingText } from "../ratings.js";
import { friendsPanel, playNowPanel } from "./playnow.js";
import { seatBadge } from "../seats.js";
import { ensureUser, session } from "../session.js";
import { soonTournaments } from "../tournaments.js";

export function gameLabel(game) {
  return gameText(game.id, "game.name") ?? game.name ?? game.id;
}

export function gameDescription(game) {
  return gameText(game.id, "game.description") ?? game.description ?? "";
}

export function optionText(gameId, option) {
  const label = gameText(gameId, `option.${option.name}`) ?? option.name.replace(/_/g, " ");
  const hint = gameText(gameId, `option.${option.name}.help`) ?? option.description ?? "";
  return { label, hint };
}

export function choiceText(gameId, option, choice) {
  return gameText(gameId, `option.${option.name}.${choice}`) ?? gameText(gameId, `${option.name}.${choice}`) ?? choice;
}

// Tables per page of each list; the lobby asks for one more to know there is a next page.
export const PAGE = 10;
const STATUSES = ["open", "playing", "over"];

export async function mount(main) {
  // The panels of Play now and friends (pages/playnow.js), kept across redraws.
  const playnow = playNowPanel();
  const friends = friendsPanel();
  let games = [];
  let tables = { open: [], playing: [], over: [] };
  const filter = { game: "", status: "" }; // "": every game, every list
  const page = { open: 0, playing: 0, over: 0 };
  const more = { open: false, playing: false, over: false };
  let expiryHours = null; // the server's LUDOTECA_TABLE_EXPIRY_HOURS, for the lists' note
  let creating = null; // the game whose create form is open
  let formEl = null; // that form, kept across redraws so a half-filled form survives a refresh
  let formLang = "";
  let error = "";
  let timer = null;

  async function load() {
    try {
      games = list(await api.games(), "games");
      // Board modules may carry strings (names, descriptions) too.
      await Promise.all(games.flatMap((g) => [loadGameStrings(g.id), loadModule(g.id)]));
      if (expiryHours === null) expiryHours = await api.health().then((d) => d.table_expiry_hours ?? null).catch(() => null);
      const shown = STATUSES.filter((status) => !filter.status || filter.status === status);
      const pages = await Promise.all(shown.map((status) => api.tables({
        status, limit: PAGE + 1, offset: page[status] * PAGE, ...(filter.game ? { game: filter.game } : {}),
      }).then((d) => list(d, "tables")).catch(() => [])));
      tables = { open: [], playing: [], over: [] };
      shown.forEach((status, i) => {
        // The first page also carries one's own private tables, beyond the page's count.
        const rows = pages[i];
        const extra = rows.filter((r) => !r.private).slice(PAGE).map((r) => r.id);
        more[status] = extra.length > 0;
        tables[status] = rows.filter((r) => !extra.includes(r.id));
      });
      error = "";
    } catch (e) {
      error = e.message;
    }
    draw();
  }

  function draw() {
    clear(main,
      h("h1", { class: "visually-hidden" }, t("lobby.title")),
      error && h("p", { class: "message error", role: "alert" }, error),
      playnow.update(games), friends.element,
      h("section", { class: "panel", "aria-labelledby": "games-h" },
        h("h2", { id: "games-h" }, t("lobby.games")),
        h("div", { class: "games" }, games.map(gameCard))),
      creating && currentForm(),
      soonTournaments(),
      filterBar(),
      (!filter.status || filter.status === "open") && tableSection("open", t("lobby.open_tables"), t("lobby.no_open_tables"), t("lobby.open_note")),
      (!filter.status || filter.status === "playing") && tableSection("playing", t("lobby.in_progress"), t("lobby.none_in_progress"),
        expiryHours ? t("lobby.in_progress_note", { hours: expiryHours }) : null),
      (!filter.status || filter.status === "over") && tableSection("over", t("lobby.finished"), t("lobby.none_finished")));
  }

  // Which lists, for which game: choosing goes back to each list's first page.
  function filterBar() {
    const choose = (key) => (e) => {
      filter[key] = e.target.value;
      for (const status of STATUSES) page[status] = 0;
      load();
    };
    return h("section", { class: "panel lobby-filter", id: "lobby-filter", role: "search", "aria-label": t("lobby.filter") },
      h("div", { class: "row" },
        h("label", { for: "filter-game" }, t("lobby.game")),
        h("select", { id: "filter-game", onchange: choose("game") },
          h("option", { value: "", selected: !filter.game }, t("lobby.all_games")),
          games.map((g) => h("option", { value: g.id, selected: filter.game === g.id }, gameLabel(g)))),
        h("label", { for: "filter-status" }, t("lobby.list")),
        h("select", { id: "filter-status", onchange: choose("status") },
          h("option", { value: "", selected: !filter.status }, t("lobby.all_lists")),
          STATUSES.map((st) => h("option", { value: st, selected: filter.status === st }, t(`status.${st}`))))),
      h("p", { class: "small muted", id: "modes-note" }, t("lobby.modes_note")));
  }

  function pager(status) {
    if (!page[status] && !more[status]) return null;
    const go = (step) => () => {
      page[status] = Math.max(0, page[status] + step);
      load();
    };
    return h("div", { class: "row pager", dataset: { status } },
      h("button", { type: "button", class: "page-prev", disabled: page[status] === 0, onclick: go(-1) }, t("lobby.previous")),
      h("span", { class: "small", "aria-live": "polite" }, t("lobby.page", { n: page[status] + 1 })),
      h("button", { type: "button", class: "page-next", disabled: !more[status], onclick: go(1) }, t("lobby.next")));
  }

  function gameCard(game) {
    return h("article", { class: "panel game-card", dataset: { game: game.id } },
      h("h3", {}, gameLabel(game)),
      h("p", { class: "small" }, gameDescription(game)),
      h("p", { class: "small muted" }, t("lobby.players_range", { min: game.min_seats, max: game.max_seats })),
      h("div", { class: "row" },
        h("button", { type: "button", class: "primary", onclick: () => openCreate(game) }, t("lobby.create")),
        h("a", { href: `#/help/${game.id}` }, t("nav.rules"))));
  }

  function currentForm() {
    if (!formEl || formEl.dataset.game !== creating.id || formLang !== language()) {
      formEl = createForm(creating);
      formEl.dataset.game = creating.id;
      formLang = language();
    }
    return formEl;
  }

  function openCreate(game) {
    creating = game;
    draw();
    const form = main.querySelector(".create-form");
    form.scrollIntoView({ block: "nearest" });
    form.querySelector("select, input, button").focus();
  }

  function tableSection(status, title, empty, note = null) {
    const rows = tables[status] || [];
    return h("section", { class: "panel", id: `tables-${status}` },
      h("h2", {}, title),
      note && h("p", { class: "small muted note" }, note),
      rows.length
        ? h("div", { class: "table-scroll" }, h("table", { class: "tables" },
            h("thead", {}, h("tr", {}, h("th", {}, t("lobby.game")), h("th", {}, t("lobby.players")), h("th", {}, t("lobby.mode")), h("th", {}, ""))),
            h("tbody", {}, rows.map((row) => tableRow(row, status)))))
        : h("p", { class: "muted" }, empty),
      pager(status));
  }

  function tableRow(row, status) {
    const game = games.find((g) => g.id === row.game) || { id: row.game };
    const seats = seatsOf(row);
    const mine = session.user && seats.some((s) => s.username === session.user.username);
    const people = seats.map((s) => h("span", { class: "row", style: { gap: "3px", display: "inline-flex", marginRight: "8px" } },
      seatBadge(s.seat, 14), s.username || (s.bot ? t("seat.bot") : t("seat.empty"))));
    let action;
    if (status === "open") {
      action = mine
        ? h("a", { class: "button", href: `#/table/${row.id}` }, t("lobby.open"))
        : h("button", { type: "button", class: "primary", onclick: () => joinTable(row.id) }, t("lobby.join"));
    } else if (status === "playing") {
      action = h("a", { class: "button", href: `#/table/${row.id}` }, mine ? t("lobby.open") : t("lobby.watch"));
    } else {
      action = h("a", { class: "button", href: `#/replay/${row.id}` }, t("lobby.replay"));
    }
    return h("tr", { dataset: { table: row.id } },
      h("td", {}, gameLabel(game), row.private ? h("span", { class: "tag" }, t("lobby.private")) : null),
      h("td", {}, people),
      h("td", { class: "small" }, t(`mode.${row.mode || "realtime"}`)),
      h("td", {}, action));
  }

  async function joinTable(id) {
    try {
      await ensureUser();
      await api.join(id);
      location.hash = `#/table/${id}`;
    } catch (e) {
      error = e.message;
      draw();
    }
  }

  function createForm(game) {
    const form = h("form", { class: "panel create-form", id: "create-form", "aria-labelledby": "create-h" });
    const seatSelect = h("select", { id: "create-seats", name: "seats" });
    for (let n = game.min_seats; n <= game.max_seats; n++) seatSelect.append(h("option", { value: n }, String(n)));
    const optionBox = h("div");
    const botBox = h("div", { class: "seat-rows" });
    const clockBox = h("div", { class: "row" });
    const mode = { value: "realtime" };
    const message = h("p", { class: "message error", role: "alert", hidden: true });
    // Bots are never rated (ratings.py rates people only): a rated table with bots says
    // what that means before it is made, never silently after.
    const ratedHint = h("p", { class: "hint", id: "create-rated-hint", role: "status", hidden: true });
    const drawRatedHint = () => {
      const bots = form.querySelectorAll("input[name=bot]:checked").length;
      const rated = form.querySelector("input[name=rated]");
      ratedHint.hidden = !(rated && rated.checked && bots);
      ratedHint.textContent = bots >= Number(seatSelect.value) - 1 ? t("table.rated_bots_alone") : t("table.rated_bots_people");
    };
    form.addEventListener("change", drawRatedHint);

    function drawOptions() {
      const seats = Number(seatSelect.value);
      clear(optionBox, (game.options || []).filter((o) => !o.seats || o.seats.includes(seats)).map((o) => optionField(game.id, o, seats)));
      clear(botBox, Array.from({ length: seats }, (_, seat) => h("div", { class: "row" },
        seatBadge(seat),
        seat === 0
          ? h("span", {}, t("create.you"))
          : h("label", {}, h("input", { type: "checkbox", name: "bot", value: seat, checked: true, "data-seat": seat }), t("create.bot_in_seat", { seat: seat + 1 })))));
    }

    function drawClock() {
      clear(clockBox, mode.value === "realtime"
        ? [h("label", {}, t("create.minutes"), h("input", { type: "number", name: "minutes", min: 1, max: 180, value: 20, style: { width: "5em" } })),
           h("label", {}, t("create.increment"), h("input", { type: "number", name: "increment", min: 0, max: 120, value: 10, style: { width: "5em" } }))]
        : [h("label", {}, t("create.hours"), h("input", { type: "number", name: "hours", min: 1, max: 240, value: 24, style: { width: "5em" } }))]);
    }

    seatSelect.addEventListener("change", drawOptions);
    append(form,
      h("h2", { id: "create-h" }, t("create.title", { game: gameLabel(game) })),
      h("div", { class: "field" }, h("label", { for: "create-seats" }, t("create.seats")), seatSelect),
      h("fieldset", {}, h("legend", {}, t("create.options")), optionBox),
      h("fieldset", {}, h("legend", {}, t("create.seating")), botBox,
        h("div", { class: "field", style: { marginTop: "6px" } },
          h("label", { for: "create-bot" }, t("create.bot_level")),
          h("select", { id: "create-bot", name: "bot_level", style: { maxWidth: "16em" } },
            botLevels(game).map(({ level, rating, provisional }) => h("option", { value: level, selected: level === "easy" },
              rating == null ? t(`bots.${level}`) : t("bots.rated", { level: t(`bots.${level}`), rating: ratingText(rating, provisional) }))))),
        // Who plays a seat whose player leaves or runs out of time (docs/bots.md).
        h("div", { class: "field", style: { marginTop: "6px" } },
          h("label", { for: "create-zombie" }, t("ratings.zombie_level")),
          h("select", { id: "create-zombie", name: "zombie_level", style: { maxWidth: "16em" }, "aria-describedby": "create-zombie-hint" },
            h("option", { value: "", selected: true }, t("ratings.zombie_auto")),
            botLevels(game).map(({ level }) => h("option", { value: level }, t(`bots.${level}`)))),
          h("span", { class: "hint", id: "create-zombie-hint" }, t("ratings.zombie_hint")))),
      h("fieldset", {}, h("legend", {}, t("create.mode")),
        h("div", { class: "row" }, ["realtime", "turn-based"].map((m) => h("label", {},
          h("input", { type: "radio", name: "mode", value: m, checked: m === "realtime", onchange: () => { mode.value = m; drawClock(); } }),
          t(`mode.${m}`)))),
        clockBox),
      h("div", { class: "row" },
        h("label", {}, h("input", { type: "checkbox", name: "private" }), t("create.private")),
        h("label", {}, h("input", { type: "checkbox", name: "rated", "aria-describedby": "create-rated-hint" }), t("create.rated"))),
      ratedHint,
      message,
      h("div", { class: "row" },
        h("button", { type: "submit", class: "primary", id: "create-submit" }, t("create.submit")),
        h("button", { type: "button", onclick: () => { creating = null; draw(); } }, t("common.cancel"))));
    drawOptions();
    drawClock();

    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const data = new FormData(form);
      const seats = Number(seatSelect.value);
      const options = {};
      for (const o of game.options || []) {
        const el = form.elements[`opt-${o.name}`];
        if (!el) continue;
        options[o.name] = o.type === "bool" ? el.checked : o.type === "int" ? Number(el.value) : el.value;
      }
      const bots = [...form.querySelectorAll("input[name=bot]:checked")].map((el) => Number(el.value));
      const clock = mode.value === "realtime"
        ? { initial_seconds: Number(data.get("minutes")) * 60, increment_seconds: Number(data.get("increment")) }
        : { turn_seconds: Number(data.get("hours")) * 3600 };
      form.querySelector("#create-submit").disabled = true;
      try {
        await ensureUser();
        const made = await api.createTable({
          game: game.id, seats, options, mode: mode.value, clock,
          private: data.get("private") === "on", rated: data.get("rated") === "on",
          ...(data.get("zombie_level") ? { zombie_level: data.get("zombie_level") } : {}),
        });
        const id = made.id || (made.table && made.table.id);
        for (const seat of bots) await addBot(id, seat, data.get("bot_level"));
        location.hash = `#/table/${id}`;
      } catch (err) {
        message.hidden = false;
        message.textContent = err.message;
        form.querySelector("#create-submit").disabled = false;
      }
    });
    return form;
  }

  await load();
  // The lobby refreshes itself while on screen, so new tables show up without reloading.
  timer = setInterval(load, 15000);
  return {
    unmount: () => { clearInterval(timer); playnow.stop(); friends.stop(); },
    relabel: () => { playnow.relabel(); friends.relabel(); draw(); },
  };
}

// The bot strengths offered; "random" is the one every server has.
export const BOT_LEVELS = ["random", "easy", "normal", "hard"];

// The game's levels with their ratings against each other (as lichess shows its engine
// levels), or the plain list from a server that does not send them.
function botLevels(game) {
  return game.bot_levels || BOT_LEVELS.map((level) => ({ level, rating: null }));
}

export async function addBot(tableId, seat, level) {
  try {
    return await api.addBot(tableId, seat, level || "random");
  } catch (e) {
    if (e.code === "no_bot" && level !== "random") return api.addBot(tableId, seat, "random");
    throw e;
  }
}

function append(el, ...children) {
  el.append(...children.flat().filter(Boolean));
}

// A choice naming seats (seat_numbers: "1" is the first seat) offers only the seats the table has.
const choicesAt = (option, seats) => (option.choices || []).filter((c) => !option.seat_numbers || !/^\d+$/.test(c) || Number(c) <= seats);

function optionField(gameId, option, seats) {
  const { label, hint } = optionText(gameId, option);
  const name = `opt-${option.name}`;
  const id = `opt-${option.name}`;
  let input;
  if (option.type === "bool") {
    return h("div", { class: "field" },
      h("label", {}, h("input", { type: "checkbox", name, id, checked: Boolean(option.default) }), label),
      hint && h("span", { class: "hint" }, hint));
  }
  if (option.type === "int") {
    input = h("input", { type: "number", name, id, value: option.default, min: option.minimum, max: option.maximum, style: { width: "6em" } });
  } else {
    input = h("select", { name, id }, choicesAt(option, seats).map((c) => h("option", { value: c, selected: c === option.default },
      choiceText(gameId, option, c))));
  }
  return h("div", { class: "field" }, h("label", { for: id }, label), input, hint && h("span", { class: "hint" }, hint));
}
