// The lobby's "Play now" panel and its friends panel. Each is made once per lobby and
// kept across the lobby's redraws (a half-chosen form, a running wait survive them).
import * as socialApi from "../social.js";
import { social, timeLeft } from "../social.js";
import { clear, h } from "../dom.js";
import { gameText, t } from "../i18n.js";
import { ensureUser, session } from "../session.js";

const WAITS = ["", "30", "60", "120", "300"]; // seconds before bots fill the seats; "": never
const POLL_MS = 2000;

const label = (game) => gameText(game.id, "game.name") ?? game.name ?? game.id;

export function playNowPanel() {
  const panel = h("section", { class: "panel playnow", id: "playnow", "aria-labelledby": "playnow-h" });
  const message = h("p", { class: "message error", role: "alert", hidden: true });
  const status = h("p", { class: "playnow-status", role: "status", "aria-live": "polite" });
  let games = [];
  let timer = null;
  let entry = { status: "idle" };
  let form = null;

  function field(id, text, control) {
    return h("div", { class: "field" }, h("label", { for: id }, text), control);
  }

  function makeForm() {
    const game = h("select", { id: "playnow-game", onchange: () => seats(game.value) });
    const seatSelect = h("select", { id: "playnow-seats" });
    const mode = h("select", { id: "playnow-mode" },
      ["realtime", "turn-based"].map((m) => h("option", { value: m }, t(`mode.${m}`))));
    const wait = h("select", { id: "playnow-bots" },
      WAITS.map((w) => h("option", { value: w }, w ? t("arena.bots_after", { s: w }) : t("arena.no_bots"))));
    const level = h("select", { id: "playnow-level" },
      ["random", "easy", "normal", "hard"].map((l) => h("option", { value: l, selected: l === "easy" }, t(`bots.${l}`))));
    // The bots' strength matters only when bots may come.
    const levelField = field("playnow-level", t("create.bot_level"), level);
    levelField.hidden = !wait.value;
    wait.addEventListener("change", () => { levelField.hidden = !wait.value; });
    function seats(gameId) {
      const g = games.find((x) => x.id === gameId);
      clear(seatSelect, h("option", { value: "" }, t("arena.any_seats")),
        g ? Array.from({ length: g.max_seats - g.min_seats + 1 }, (_, i) => g.min_seats + i)
          .map((n) => h("option", { value: n }, t("arena.seats_n", { n }))) : []);
    }
    const el = h("form", { class: "playnow-form" },
      h("div", { class: "row" },
        field("playnow-game", t("lobby.game"), game),
        field("playnow-seats", t("create.seats"), seatSelect),
        field("playnow-mode", t("create.mode"), mode),
        field("playnow-bots", t("arena.bots"), wait),
        levelField),
      h("button", { type: "submit", class: "primary", id: "playnow-go" }, t("arena.play_now")));
    el.addEventListener("submit", async (e) => {
      e.preventDefault();
      message.hidden = true;
      const body = { game: game.value, mode: mode.value };
      if (seatSelect.value) body.seats = Number(seatSelect.value);
      if (wait.value) {
        body.bots_after = Number(wait.value);
        body.bot_level = level.value;
      }
      try {
        await ensureUser();
        show(await socialApi.playNow(body));
      } catch (err) {
        message.hidden = false;
        message.textContent = err.message;
      }
    });
    el.fill = () => {
      const chosen = game.value;
      const count = seatSelect.value;
      clear(game, games.map((g) => h("option", { value: g.id, selected: g.id === chosen }, label(g))));
      seats(game.value);
      if (count && chosen === game.value) seatSelect.value = count;
    };
    return el;
  }

  function show(now) {
    entry = now || { status: "idle" };
    clearTimeout(timer);
    if (entry.status === "matched" && entry.table) {
      location.hash = `#/table/${entry.table}`;
      return;
    }
    draw();
    if (entry.status === "waiting") timer = setTimeout(poll, POLL_MS);
  }

  async function poll() {
    if (!panel.isConnected) return;
    try {
      show(await socialApi.playNowStatus());
    } catch {
      timer = setTimeout(poll, POLL_MS);
    }
  }

  function draw() {
    const waiting = entry.status === "waiting";
    if (!form) form = makeForm();
    form.hidden = waiting;
    status.hidden = !waiting;
    if (waiting) status.textContent = t("arena.waiting", { time: timeLeft(entry.waited_ms) });
    clear(panel, h("h2", { id: "playnow-h" }, t("arena.play_now")),
      h("p", { class: "small muted" }, t("arena.play_now_note")),
      form, status,
      waiting && h("button", { type: "button", id: "playnow-cancel", onclick: cancel }, t("common.cancel")),
      message);
  }

  async function cancel() {
    try {
      show(await socialApi.playNowCancel());
    } catch (err) {
      if (err.code === "already_matched" && err.body.table) location.hash = `#/table/${err.body.table}`;
      else show({ status: "idle" });
    }
  }

  return {
    element: panel,
    update(list) {
      const first = !games.length;
      games = list;
      if (!form) form = makeForm();
      form.fill();
      draw();
      if (first && session.user) poll();
      return panel;
    },
    relabel() {
      form = null;
      if (games.length) this.update(games);
    },
    stop() {
      clearTimeout(timer);
    },
  };
}

// Friends online and following by name; a friend is invited in one tap to my newest
// open table with a free seat.
export function friendsPanel() {
  const panel = h("section", { class: "panel friends", id: "friends", "aria-labelledby": "friends-h" });
  const message = h("p", { class: "message", role: "status", hidden: true });
  let friends = [];

  async function load() {
    if (!session.user) {
      friends = [];
      return draw();
    }
    try {
      friends = (await socialApi.follows()).friends || [];
    } catch {
      friends = [];
    }
    draw();
  }

  function say(text, error = false) {
    message.hidden = false;
    message.className = error ? "message error" : "message";
    message.textContent = text;
  }

  async function inviteFriend(name) {
    try {
      const mine = await socialApi.myTables();
      const open = [...mine.waiting, ...mine.running].find((tb) => tb.status === "open"
        && tb.players.some((p) => !p.username && !p.bot));
      if (!open) return say(t("arena.no_open_table"), true);
      await socialApi.invite(open.id, name);
      say(t("arena.invited", { name }));
    } catch (e) {
      say(e.message, true);
    }
  }

  const input = h("input", { id: "follow-name", name: "follow", autocomplete: "off", maxlength: 40, required: true });
  const form = h("form", { class: "row", id: "follow-form" });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const done = await socialApi.follow(input.value.trim());
      say(done.friend ? t("arena.now_friends", { name: done.username }) : t("arena.following", { name: done.username }));
      input.value = "";
      load();
    } catch (err) {
      say(err.message, true);
    }
  });

  function draw() {
    const online = new Set(social.friendsOnline);
    clear(form, h("label", { for: "follow-name" }, t("arena.follow_label")), input,
      h("button", { type: "submit" }, t("arena.follow")));
    const sorted = [...friends].sort((a, b) => Number(online.has(b.username) || b.online) - Number(online.has(a.username) || a.online));
    clear(panel, h("h2", { id: "friends-h" }, t("arena.friends")),
      session.user
        ? [sorted.length
            ? h("ul", { class: "friend-list" }, sorted.map((f) => {
                const on = online.has(f.username) || f.online;
                return h("li", { class: on ? "online" : "offline", dataset: { friend: f.username } },
                  h("span", { class: "dot", "aria-hidden": "true" }),
                  h("a", { href: `#/player/${encodeURIComponent(f.username)}` }, f.username),
                  h("span", { class: "small muted" }, on ? t("arena.online") : t("arena.offline")),
                  h("button", { type: "button", class: "invite-friend", onclick: () => inviteFriend(f.username) },
                    t("arena.invite")));
              }))
            : h("p", { class: "muted" }, t("arena.no_friends")),
          form]
        : h("p", { class: "muted" }, t("arena.sign_in_for_friends")),
      message);
    return panel;
  }

  const redraw = () => draw();
  window.addEventListener("ludoteca:social", redraw);
  load();
  return {
    element: panel,
    update: () => panel,
    relabel: draw,
    stop: () => window.removeEventListener("ludoteca:social", redraw),
  };
}
