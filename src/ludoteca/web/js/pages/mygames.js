// My games (#/my): the tables waiting for my decision first, with the time left; then my
// other open and running tables (an open one takes invitations by name, or a friend in
// one tap); then the finished ones with my result. Redrawn when the badge moves.
import * as api from "../api.js";
import { invite, myTables, social, timeLeft } from "../social.js";
import { clear, h } from "../dom.js";
import { loadGameStrings, t } from "../i18n.js";
import { list } from "../model.js";
import { session } from "../session.js";
import { gameLabel } from "./lobby.js";

export async function mount(main) {
  let games = [];
  let mine = null;
  let error = "";
  const notes = {}; // table id -> what its invitation form last said

  async function load() {
    if (!session.user) {
      draw();
      return;
    }
    try {
      if (!games.length) {
        games = list(await api.games(), "games");
        await Promise.all(games.map((g) => loadGameStrings(g.id)));
      }
      mine = await myTables();
      error = "";
    } catch (e) {
      error = e.message;
    }
    draw();
  }

  const label = (id) => gameLabel(games.find((g) => g.id === id) || { id });
  const names = (row) => row.players.map((p) => p.username || (p.bot ? t("seat.bot") : t("seat.empty"))).join(", ");

  function inviteForm(row) {
    const input = h("input", { id: `invite-${row.id}`, name: "username", autocomplete: "off", maxlength: 40, required: true });
    const note = h("p", { class: "small", role: "status" }, notes[row.id] || "");
    const send = async (name) => {
      try {
        await invite(row.id, name);
        notes[row.id] = t("arena.invited", { name });
        input.value = "";
      } catch (e) {
        notes[row.id] = e.message;
      }
      note.textContent = notes[row.id];
    };
    const form = h("form", { class: "row invite-form", dataset: { table: row.id } },
      h("label", { for: `invite-${row.id}` }, t("arena.invite_label")), input,
      h("button", { type: "submit" }, t("arena.invite")),
      social.friendsOnline.map((name) => h("button", { type: "button", class: "friend-chip", onclick: () => send(name) },
        t("arena.invite_name", { name }))));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      send(input.value.trim());
    });
    return h("div", {}, form, note);
  }

  function row(item, kind) {
    let detail = t(`status.${item.status}`);
    if (kind === "waiting") detail = item.time_left_ms == null ? t("arena.your_turn") : t("arena.time_left", { time: timeLeft(item.time_left_ms) });
    if (kind === "finished" && item.result) {
      detail = item.result.won ? t("arena.won") : t("arena.ranked", { rank: item.result.rank ?? "?", of: item.result.of });
    }
    const href = kind === "finished" ? `#/replay/${item.id}` : `#/table/${item.id}`;
    return h("li", { class: ["my-table", kind], dataset: { table: item.id } },
      h("div", { class: "row" },
        h("strong", {}, label(item.game)),
        h("span", { class: "small muted" }, t(`mode.${item.mode}`)),
        h("span", { class: kind === "waiting" ? "tag urgent" : "tag" }, detail),
        h("a", { class: "button", href }, kind === "finished" ? t("lobby.replay") : t("lobby.open"))),
      h("p", { class: "small" }, names(item)),
      item.status === "open" && item.players.some((p) => !p.username && !p.bot) ? inviteForm(item) : null);
  }

  function section(id, title, rows, empty, kind) {
    return h("section", { class: "panel", id },
      h("h2", {}, title),
      rows.length ? h("ul", { class: "my-tables" }, rows.map((r) => row(r, kind))) : h("p", { class: "muted" }, empty));
  }

  function draw() {
    if (!session.user) {
      clear(main, h("section", { class: "panel" }, h("h1", {}, t("arena.my_games")),
        h("p", {}, t("arena.sign_in_for_games")), h("a", { href: "#/login" }, t("auth.log_in"))));
      return;
    }
    clear(main,
      h("h1", {}, t("arena.my_games")),
      error && h("p", { class: "message error", role: "alert" }, error),
      mine && [
        section("my-waiting", t("arena.waiting_for_me"), mine.waiting, t("arena.none_waiting"), "waiting"),
        section("my-running", t("arena.my_running"), mine.running, t("arena.none_running"), "running"),
        section("my-finished", t("arena.my_finished"), mine.finished, t("arena.none_finished"), "finished"),
      ]);
  }

  let last = social.badge;
  const onSocial = () => {
    if (social.badge !== last) {
      last = social.badge;
      load();
    }
  };
  window.addEventListener("ludoteca:social", onSocial);
  await load();
  const timer = setInterval(load, 30000); // the times left move on
  return {
    unmount: () => {
      clearInterval(timer);
      window.removeEventListener("ludoteca:social", onSocial);
    },
    relabel: draw,
  };
}
