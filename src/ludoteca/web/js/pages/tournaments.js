// The tournaments: upcoming, running and finished ones, and the form that creates one.
import * as api from "../api.js";
import { clear, h } from "../dom.js";
import { loadGameStrings, t } from "../i18n.js";
import { list as listOf } from "../model.js";
import { session } from "../session.js";
import { create, formatName, list, when } from "../tournaments.js";
import { BOT_LEVELS, gameLabel } from "./lobby.js";

const STATUSES = ["upcoming", "running", "finished"];

export async function mount(main) {
  let games = [];
  let rows = { upcoming: [], running: [], finished: [] };
  let error = "";
  let formOpen = false;
  let form = null;

  async function load() {
    try {
      games = listOf(await api.games(), "games");
      await Promise.all(games.map((g) => loadGameStrings(g.id)));
      const pages = await Promise.all(STATUSES.map((status) => list({ status, limit: 50 })));
      STATUSES.forEach((status, i) => { rows[status] = pages[i]; });
      error = "";
    } catch (e) {
      error = e.message;
    }
    draw();
  }

  const label = (id) => gameLabel(games.find((g) => g.id === id) || { id });

  function draw() {
    clear(main,
      h("section", { class: "panel tournaments-page" },
        h("h1", {}, t("tournaments.title")),
        h("p", { class: "muted" }, t("tournaments.intro")),
        error && h("p", { class: "message error", role: "alert" }, error),
        session.user && !session.user.guest
          ? h("button", { type: "button", id: "tournament-new", class: "primary", "aria-expanded": String(formOpen),
              onclick: () => { formOpen = !formOpen; draw(); } }, t("tournaments.create"))
          : h("p", { class: "small muted" }, t("tournaments.sign_in_to_create"))),
      formOpen && (form || (form = createForm())),
      STATUSES.map((status) => h("section", { class: "panel", id: `tournaments-${status}`, "aria-labelledby": `th-${status}` },
        h("h2", { id: `th-${status}` }, t(`tournaments.list_${status}`)),
        rows[status].length
          ? h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": t(`tournaments.list_${status}`) }, h("table", { class: "tables keep-columns" },
              h("thead", {}, h("tr", {}, h("th", {}, t("tournaments.name")), h("th", {}, t("tournaments.game")),
                h("th", {}, t("tournaments.format")), h("th", {}, t("tournaments.when")), h("th", {}, t("tournaments.players")))),
              h("tbody", {}, rows[status].map((r) => h("tr", {},
                h("td", {}, h("a", { href: `#/tournament/${encodeURIComponent(r.id)}`, class: "user-text" }, r.name)),
                h("td", {}, label(r.game)), h("td", {}, formatName(r.format)),
                h("td", {}, when(status === "finished" ? r.ends_at || r.starts_at : r.starts_at)),
                h("td", {}, `${r.players}/${r.max_players}`))))))
          : h("p", { class: "muted" }, t("tournaments.none")))));
  }

  function createForm() {
    const field = (id, text, input) => h("div", { class: "field" }, h("label", { for: id }, text), input);
    const game = h("select", { id: "tf-game" }, games.map((g) => h("option", { value: g.id }, label(g.id))));
    const format = h("select", { id: "tf-format" },
      ["swiss", "elimination", "arena"].map((f) => h("option", { value: f }, formatName(f))));
    const name = h("input", { id: "tf-name", maxlength: 80, required: true, value: "" });
    const seats = h("input", { id: "tf-seats", type: "number", min: 2, max: 6, value: 2 });
    const rounds = h("input", { id: "tf-rounds", type: "number", min: 1, max: 30, value: 4 });
    const advance = h("input", { id: "tf-advance", type: "number", min: 1, max: 5, value: 1 });
    const minutes = h("input", { id: "tf-minutes", type: "number", min: 1, max: 1440, value: 30 });
    const start = new Date(Date.now() + 15 * 60_000);
    start.setSeconds(0, 0);
    const local = new Date(start.getTime() - start.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    const starts = h("input", { id: "tf-starts", type: "datetime-local", value: local, required: true });
    const minPlayers = h("input", { id: "tf-min", type: "number", min: 2, max: 1000, value: 2 });
    const maxPlayers = h("input", { id: "tf-max", type: "number", min: 2, max: 1000, value: 32 });
    const points = h("input", { id: "tf-points", placeholder: "3, 2, 1, 0", inputmode: "decimal", maxlength: 60 });
    const rated = h("input", { id: "tf-rated", type: "checkbox" });
    const priv = h("input", { id: "tf-private", type: "checkbox" });
    const bots = BOT_LEVELS.map((level) => h("input", { type: "checkbox", id: `tf-bot-${level}`, value: level }));
    const said = h("p", { class: "message", role: "status", hidden: true });
    const byFormat = () => {
      rounds.closest(".field").hidden = format.value !== "swiss";
      advance.closest(".field").hidden = format.value !== "elimination";
      minutes.closest(".field").hidden = format.value !== "arena";
    };
    format.addEventListener("change", byFormat);
    const el = h("form", { class: "panel tournament-form", id: "tournament-form", "aria-label": t("tournaments.create") },
      field("tf-name", t("tournaments.name"), name), field("tf-game", t("tournaments.game"), game),
      field("tf-format", t("tournaments.format"), format), field("tf-seats", t("tournaments.seats"), seats),
      field("tf-rounds", t("tournaments.rounds"), rounds), field("tf-advance", t("tournaments.advance"), advance),
      field("tf-minutes", t("tournaments.minutes"), minutes), field("tf-starts", t("tournaments.starts_at"), starts),
      field("tf-min", t("tournaments.min_players"), minPlayers), field("tf-max", t("tournaments.max_players"), maxPlayers),
      field("tf-points", t("tournaments.points_list"), points),
      h("div", { class: "field check" }, rated, h("label", { for: "tf-rated" }, t("tournaments.rated"))),
      h("div", { class: "field check" }, priv, h("label", { for: "tf-private" }, t("tournaments.private"))),
      h("fieldset", {}, h("legend", {}, t("tournaments.bots_allowed")),
        bots.map((b) => h("span", { class: "check" }, b, h("label", { for: b.id }, t(`bots.${b.value}`))))),
      h("div", { class: "row" }, h("button", { type: "submit", class: "primary" }, t("tournaments.create_go"))), said);
    el.addEventListener("submit", async (e) => {
      e.preventDefault();
      const body = {
        name: name.value.trim() || label(game.value), game: game.value, format: format.value,
        seats: Number(seats.value), starts_at: new Date(starts.value).toISOString(),
        min_players: Number(minPlayers.value), max_players: Number(maxPlayers.value),
        rated: rated.checked, private: priv.checked, bots: bots.filter((b) => b.checked).map((b) => b.value),
      };
      if (format.value === "swiss") body.rounds = Number(rounds.value);
      if (format.value === "elimination") body.advance = Number(advance.value);
      if (format.value === "arena") body.minutes = Number(minutes.value);
      if (points.value.trim()) body.points = points.value.split(/[,\s]+/).filter(Boolean).map(Number);
      try {
        const made = await create(body);
        location.hash = `#/tournament/${encodeURIComponent(made.id)}${made.invite ? `?invite=${encodeURIComponent(made.invite)}` : ""}`;
      } catch (err) {
        said.hidden = false;
        said.className = "message error";
        said.textContent = err.message;
        said.setAttribute("role", "alert");
      }
    });
    byFormat();
    return el;
  }

  await load();
  const timer = setInterval(load, 30_000);
  return { unmount: () => clearInterval(timer), relabel: () => { form = null; draw(); } };
}
