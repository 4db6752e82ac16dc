// The table: waiting room before the start, then the board, seats, prompt, the list of
// legal moves, the log, chat and the final scoreboard. Live over the WebSocket.
import * as api from "../api.js";
import { clear, h, svg } from "../dom.js";
import { errorText, eventSeat, eventText, genericBoard, loadModule, moveLabel, promptText, seatName } from "../gamemodule.js";
import { language, loadGameStrings, t, useGame } from "../i18n.js";
import { Live } from "../live.js";
import { wholeView } from "../statics.js";
import { canonical, list, seatsOf } from "../model.js";
import { seatBadge, seatStyle } from "../seats.js";
import { BoardView } from "../boardview.js";
import { ensureUser, session } from "../session.js";
import { addBot, gameLabel } from "./lobby.js";
import { scoreboard } from "./scoreboard.js";

// A clock face drawn inline: emoji clocks are missing from many system fonts.
function clockIcon() {
  return svg("svg", { width: 12, height: 12, viewBox: "0 0 12 12", "aria-hidden": "true", class: "clock-icon" },
    svg("circle", { cx: 6, cy: 6, r: 5, fill: "none", stroke: "currentColor", "stroke-width": 1.4 }),
    svg("path", { d: "M6 3v3l2 1.5", fill: "none", stroke: "currentColor", "stroke-width": 1.4, "stroke-linecap": "round" }));
}

export async function mount(main, { id }) {
  const s = {
    table: null, seat: null, yourSeats: [], version: -1, view: null, legal: [], pending: [],
    prompts: null, events: [], result: null, canUndo: false, clocks: null, clocksAt: 0,
    chat: [], games: [], module: null, refusal: "", notice: "", busy: false, link: "connecting", error: "",
    acks: 0, // moves this page has had accepted (tests wait on it)
  };
  let wasMyTurn = false;
  let ackTimer = null;
  // The version this page's last accepted move (or undo) made, and the last such version
  // the state shown has reached: a decision drawn after one's own move is a new one, even
  // when its moves read the same as the one before (a second forum gain in a row).
  let movedAt = -1;
  let shownMove = -1;

  // The skeleton is built once: the board root and the chat input keep their state
  // (the game's drawing, a half-typed message) across updates.
  const parts = {
    head: h("div", { class: "table-head" }),
    score: h("section", { class: "panel scoreboard", id: "scoreboard", hidden: true }),
    waiting: h("section", { class: "panel", id: "waiting", hidden: true }),
    prompt: h("section", { class: "panel", id: "prompt-panel", "aria-labelledby": "prompt" }),
    board: h("div", { class: "board", id: "board" }),
    seats: h("section", { class: "panel", id: "seats-panel" }),
    // Scrolling lists take the focus, so the keyboard can scroll them too.
    log: h("ol", { class: "log", id: "log", "aria-live": "polite", tabindex: "0", "aria-labelledby": "log-h" }),
    chatLines: h("ul", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", tabindex: "0", "aria-labelledby": "chat-h" }),
    chatInput: h("input", { type: "text", id: "chat-input", maxlength: 500, autocomplete: "off" }),
    refusal: h("p", { class: "refusal", id: "refusal", role: "alert", hidden: true }),
    moves: h("div", { class: "moves", id: "moves", role: "group" }),
  };
  let movesDrawn = ""; // what the move buttons show now; unchanged lists are not redrawn
  // The board pans and zooms on a phone (see boardview.js).
  const boardView = new BoardView(parts.board, t);
  const boardPanel = h("section", { class: "panel", id: "board-panel" }, boardView.element);
  const logPanel = h("section", { class: "panel log-panel" }, h("h2", { id: "log-h" }), parts.log);
  const chatForm = h("form", {}, parts.chatInput, h("button", { type: "submit", id: "chat-send" }));
  const chatPanel = h("section", { class: "panel chat" }, h("h2", { id: "chat-h" }), parts.chatLines, chatForm);
  const page = h("div", { class: "table-page" },
    parts.head, parts.score, parts.waiting,
    h("div", { class: "mainline" }, parts.prompt, boardPanel),
    h("div", { class: "side" }, parts.seats, logPanel, chatPanel));
  main.append(page);

  // On a phone the list of moves goes under the board, so that the prompt and the part of
  // the board it is about fit one screen; the board's box is as tall as the screen leaves
  // under the prompt.
  const oneColumn = matchMedia("(max-width: 899px)");
  function placeMoves() {
    const wanted = oneColumn.matches ? boardPanel : parts.prompt;
    if (parts.moves.parentElement === wanted) return;
    if (oneColumn.matches) boardPanel.append(parts.moves);
    else parts.refusal.after(parts.moves);
  }
  oneColumn.addEventListener("change", placeMoves);
  const promptSize = typeof ResizeObserver === "function"
    ? new ResizeObserver(() => page.style.setProperty("--prompt-h", `${parts.prompt.offsetHeight}px`)) : null;
  if (promptSize) promptSize.observe(parts.prompt);

  chatForm.addEventListener("submit", (e) => {
    e.preventDefault();
    sendChat(parts.chatInput.value);
  });

  // -- data in ----------------------------------------------------------------------

  // Everything that arrives goes through here, in order: a view that refers to static
  // parts the page has not fetched yet waits for them (once per table), and what came
  // after it waits its turn.
  let inbox = Promise.resolve();
  function absorb(data) {
    inbox = inbox.then(async () => {
      if (data && data.view) {
        try {
          data = { ...data, view: await wholeView(id, data.view) };
        } catch (e) {
          showRefusal(errorText(s.table && s.table.game, e));
          return;
        }
      }
      absorbWhole(data);
    });
    return inbox;
  }

  function absorbWhole(data) {
    if (!data) return;
    if (data.type === "chat") {
      if (!s.chat.some((c) => c.id === data.id)) s.chat.push(data);
      drawChat();
      return;
    }
    if (data.type === "error") {
      // A refusal on the socket (a chat line too long, a session gone): say so where
      // refusals are said.
      showRefusal(errorText(s.table && s.table.game, { code: data.code, message: data.message, body: data }));
      return;
    }
    if (data.type && data.type !== "update" && data.type !== "snapshot") return;
    const version = data.version ?? (data.table && data.table.version) ?? 0;
    // Versions only grow (an undo takes a new one), so an older snapshot is a late answer
    // that the socket overtook: an HTTP refresh sent before the last update came. It is
    // dropped whole, even though it resets the events (a plain GET always does): applied,
    // it would put back the moves of a turn already played.
    if (version < s.version) return;
    const reset = Boolean(data.events_reset);
    if (data.table) s.table = data.table;
    if ("seat" in data) s.seat = data.seat;
    if (data.your_seats) s.yourSeats = data.your_seats;
    if ("clocks" in data) {
      s.clocks = data.clocks;
      s.clocksAt = Date.now();
    }
    s.version = version;
    if (version >= movedAt) shownMove = movedAt;
    if ("view" in data) s.view = data.view;
    if ("legal" in data) s.legal = data.legal || [];
    if ("pending" in data) s.pending = data.pending || [];
    if ("prompts" in data || "decisions" in data) s.prompts = data.prompts || data.decisions;
    if ("can_undo" in data) s.canUndo = Boolean(data.can_undo);
    if ("result" in data) s.result = data.result;
    if (data.events) {
      if (reset) s.events = [];
      const last = s.events.length ? s.events[s.events.length - 1].number : 0;
      for (const e of data.events) if (reset || (e.number ?? 0) > last) s.events.push(e);
    }
    if (data.table && data.table.result) s.result = data.table.result;
    draw();
  }

  async function refresh() {
    try {
      await absorb(await api.table(id));
      s.error = "";
      s.privateInvite = false;
    } catch (e) {
      // A private table shows itself to its players only; whoever has the link may sit down.
      s.privateInvite = e.code === "private_table";
      s.error = e.status === 404 ? t("table.not_found") : errorText("", e);
      drawHead();
    }
  }

  const live = new Live(() => {
    const url = new URL(api.liveUrl(id));
    if (s.version >= 0) url.searchParams.set("version", s.version);
    return url.toString();
  }, {
    onMessage: absorb,
    onStatus: (status, info = {}) => {
      s.link = status;
      drawBanner();
      drawHead();
      // Belt and braces: after a reconnection also fetch the table over HTTP, so a
      // server that does not replay missed updates on connect still catches us up.
      if (status === "live" && info.reconnected) refresh();
    },
  });

  // -- actions --------------------------------------------------------------------

  async function play(move) {
    if (s.busy) return;
    s.busy = true;
    showRefusal("");
    drawMoves();
    try {
      const ack = await send(move);
      s.acks += 1;
      moved(ack);
      // The socket brings the new view; if it does not come soon, ask for it.
      clearTimeout(ackTimer);
      if (ack && ack.version > s.version) {
        ackTimer = setTimeout(() => { if (ack.version > s.version) refresh(); }, live.open ? 1500 : 0);
      }
    } catch (e) {
      showRefusal(errorText(s.table && s.table.game, e));
      movesDrawn = ""; // rebuild the buttons from the legal moves, whatever was clicked
      if (e.status === 409) refresh();
    } finally {
      s.busy = false;
      drawMoves();
    }
  }

  // A move or an undo was accepted: the decision after it is new. When the state that
  // shows it came before the answer (the socket is often first), it is brought into view now.
  function moved(ack) {
    if (!ack || typeof ack.version !== "number") return;
    movedAt = ack.version;
    if (s.version >= movedAt && shownMove !== movedAt) {
      shownMove = movedAt;
      if (s.table) focusDecision();
    }
  }

  // One move, sent with one id (so a retry can never play it twice). If another seat
  // moved first (a stale version) and the move is still legal, it is sent again once:
  // in simultaneous phases the other seat's move rarely changes what this one meant.
  async function send(move) {
    const seat = s.yourSeats.length > 1 ? s.seat : undefined;
    const moveId = api.newMoveId();
    try {
      return await api.move(id, s.version, move, seat, moveId);
    } catch (e) {
      if (e.code !== "stale_version") throw e;
      await refresh();
      if (!s.legal.some((m) => canonical(m) === canonical(move))) throw e;
      return api.move(id, s.version, move, seat, moveId);
    }
  }

  async function undo() {
    try {
      moved(await api.undo(id, s.version));
    } catch (e) {
      showRefusal(errorText(s.table && s.table.game, e));
    }
  }

  async function seatAction(fn) {
    try {
      await ensureUser();
      const summary = await fn();
      if (summary && summary.id) s.table = summary;
      await refresh();
      live.restart();
    } catch (e) {
      s.notice = errorText(s.table && s.table.game, e);
      drawWaiting();
    }
  }

  async function joinPrivate() {
    try {
      await ensureUser();
      await api.join(id);
      await start();
    } catch (e) {
      s.error = errorText("", e);
      drawHead();
    }
  }

  function sendChat(text) {
    text = text.trim();
    if (!text) return;
    if (live.send({ type: "chat", text })) {
      parts.chatInput.value = "";
    } else {
      showRefusal(t("table.chat_offline"));
    }
  }

  function showRefusal(text) {
    s.refusal = text;
    parts.refusal.hidden = !text;
    parts.refusal.textContent = text;
  }

  // -- drawing --------------------------------------------------------------------

  const seats = () => (s.table ? seatsOf(s.table) : []);
  const game = () => (s.table && s.games.find((g) => g.id === s.table.game)) || { id: s.table ? s.table.game : "" };
  const isCreator = () => {
    const creator = s.table && (s.table.creator || s.table.created_by_username);
    const name = creator || (seats()[0] || {}).username;
    return Boolean(session.user && name === session.user.username);
  };

  function draw() {
    drawBanner();
    drawHead();
    drawScore();
    drawWaiting();
    const started = s.table && s.table.status !== "open";
    // Before the start the waiting room lists the seats; the seat panels come with play.
    for (const el of [parts.prompt, boardPanel, logPanel, parts.seats]) el.hidden = !started;
    if (!started) {
      drawChat();
      return;
    }
    drawSeats();
    drawPrompt();
    drawBoard();
    drawLog();
    drawChat();
    notifyTurn();
  }

  function drawBanner() {
    const banner = document.getElementById("banner");
    if (!banner) return;
    banner.hidden = s.link !== "reconnecting";
    banner.textContent = s.link === "reconnecting" ? t("table.reconnecting") : "";
  }

  function drawHead() {
    if (!s.table) {
      clear(parts.head, h("h1", {}, t("table.title")), s.error && h("p", { class: "message error", role: "alert" }, s.error),
        s.privateInvite ? h("button", { type: "button", class: "primary", id: "join-private", onclick: joinPrivate }, t("lobby.join")) : null);
      return;
    }
    const g = game();
    const watching = s.seat === null || s.seat === undefined;
    clear(parts.head,
      h("h1", {}, gameLabel(g)),
      h("span", { class: "tag", id: "table-status", "data-status": s.table.status }, t(`status.${s.table.status}`)),
      watching && s.table.status !== "open" ? h("span", { class: "tag", id: "spectating" }, t("table.spectating")) : null,
      h("span", { class: "small muted", id: "live-status", "data-link": s.link, title: t("link.help") }, t(`link.${s.link}`)),
      h("a", { href: `#/help/${g.id}`, class: "small" }, t("nav.rules")),
      s.table.status === "over" ? h("a", { href: `#/replay/${id}`, class: "small", id: "replay-link" }, t("lobby.replay")) : null,
      rematchControl(),
      s.error && h("p", { class: "message error", role: "alert" }, s.error));
  }

  // Over, a player may set the game up again with the same company (or follow the one who
  // did); a spectator may follow them there.
  function rematchControl() {
    if (!s.table || s.table.status !== "over") return null;
    const next = s.table.rematch;
    const me = session.user && session.user.username;
    const played = Boolean(me && seats().some((p) => p.username === me));
    if (!played) return next ? h("a", { href: `#/table/${next}`, class: "small", id: "rematch-link" }, t("table.rematch_watch")) : null;
    return h("button", { type: "button", class: "primary", id: "rematch", onclick: askRematch },
      t(next ? "table.rematch_join" : "table.rematch"));
  }

  async function askRematch() {
    try {
      const next = await api.rematch(id);
      const me = session.user && session.user.username;
      // The rematch keeps a seat for everyone who played, the one after theirs here: take
      // it on the way in (any free seat if someone else took it; a full or started
      // rematch is still worth watching).
      if (next.status === "open" && !next.players.some((p) => p.username === me)) {
        const mine = seats().find((p) => p.username === me);
        const kept = mine && next.players.find((p) => p.seat === (mine.seat + 1) % next.seats);
        const free = kept && !kept.username && !kept.bot;
        try {
          await api.join(next.id, free ? kept.seat : undefined);
        } catch (e) {
          if (!(e instanceof api.ApiError)) throw e;
        }
      }
      location.hash = `#/table/${next.id}`;
    } catch (e) {
      s.error = errorText("", e);
      drawHead();
    }
  }

  function drawScore() {
    const result = s.result || (s.table && s.table.result);
    parts.score.hidden = !result;
    if (result) clear(parts.score, scoreboard(game(), result, seats(), s.module, s.view));
  }

  function drawWaiting() {
    const open = s.table && s.table.status === "open";
    parts.waiting.hidden = !open;
    if (!open) return;
    const me = session.user && session.user.username;
    const seated = seats().some((x) => x.username && x.username === me);
    const full = seats().every((x) => x.username || x.bot);
    const creator = isCreator();
    clear(parts.waiting,
      h("h2", {}, t("waiting.title")),
      h("p", { class: "muted small" }, t("waiting.share"), " ", h("code", {}, location.href)),
      h("ul", { class: "seats", style: { listStyle: "none", padding: 0 } }, seats().map((x) => h("li", { class: "row", dataset: { seat: x.seat } },
        seatBadge(x.seat), h("strong", {}, seatName(seats(), x.seat)),
        x.username && x.username === me ? h("span", { class: "muted" }, `(${t("table.you")})`) : null,
        !x.username && !x.bot && !seated ? h("button", { type: "button", onclick: () => seatAction(() => api.join(id, x.seat)) }, t("waiting.sit")) : null,
        !x.username && !x.bot && creator ? h("button", { type: "button", class: "add-bot", onclick: () => seatAction(() => addBot(id, x.seat, "easy")) }, t("waiting.add_bot")) : null,
        creator && (x.bot || (x.username && x.username !== me)) ? h("button", { type: "button", onclick: () => seatAction(() => api.kick(id, x.seat)) }, t("waiting.remove")) : null))),
      s.notice && h("p", { class: "message error", role: "alert" }, s.notice),
      h("div", { class: "row" },
        creator ? h("button", { type: "button", class: "primary", id: "start", disabled: !full, onclick: () => seatAction(() => api.start(id)) }, t("waiting.start")) : null,
        !creator && !full ? h("span", { class: "muted" }, t("waiting.for_players")) : null,
        creator && full ? null : creator ? h("span", { class: "muted small" }, t("waiting.fill_seats")) : null,
        seated ? h("button", { type: "button", id: "leave", onclick: () => seatAction(() => api.leave(id)) }, t("waiting.leave")) : null));
  }

  function clockText(seat) {
    const c = s.clocks && (s.clocks.seats || []).find((x) => x.seat === seat);
    if (!c) return null;
    const passed = c.running ? Date.now() - s.clocksAt : 0;
    if (c.remaining_ms !== undefined && c.remaining_ms !== null) {
      const ms = Math.max(0, c.remaining_ms - passed);
      const total = Math.ceil(ms / 1000);
      return { text: `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`, low: c.running && ms < 30000 };
    }
    if (c.deadline_ms) {
      const ms = Math.max(0, c.deadline_ms - (s.clocks.now_ms || 0) - passed);
      const hours = Math.floor(ms / 3600000);
      const minutes = Math.floor((ms % 3600000) / 60000);
      return { text: t("clock.left", { time: hours ? `${hours}h ${minutes}m` : `${minutes}m` }), low: ms < 3600000 };
    }
    return null;
  }

  function drawSeats() {
    const scores = s.result ? s.result.scores : moduleScores();
    clear(parts.seats, h("h2", {}, t("table.seats")), h("div", { class: "seats" }, seats().map((x) => {
      const clock = x.bot ? null : clockText(x.seat); // bots play without a clock
      const toMove = s.pending.includes(x.seat) && s.table.status === "playing";
      return h("div", {
        class: ["seat", toMove && "to-move"], dataset: { seat: x.seat },
        style: { borderLeftColor: seatStyle(x.seat).colour },
        "aria-label": `${seatName(seats(), x.seat)}${toMove ? ` — ${t("table.to_move")}` : ""}`,
      },
      seatBadge(x.seat, 22),
      h("span", { class: "name" }, seatName(seats(), x.seat), s.yourSeats.includes(x.seat) ? ` (${t("table.you")})` : ""),
      scores && scores[x.seat] !== undefined ? h("span", { class: "score", title: t("table.score") }, String(scores[x.seat])) : h("span"),
      h("span", { class: "meta" },
        toMove ? h("span", { class: "turn" }, "▶ ", t("table.to_move")) : null,
        x.bot ? h("span", {}, t("seat.bot")) : null,
        resigned().includes(x.seat) ? h("span", { class: "resigned" }, t("seat.resigned")) : x.zombie ? h("span", {}, t("seat.zombie")) : null,
        x.connected !== undefined && !x.bot ? h("span", {}, h("span", { class: ["dot", x.connected && "on"] }), t(x.connected ? "seat.online" : "seat.offline")) : null,
        clock ? h("span", { class: ["clock", clock.low && "low"], dataset: { clockSeat: x.seat }, title: t("table.clock") },
          clockIcon(), h("span", { class: "clock-text" }, clock.text)) : null));
    })), spectatorsLine());
  }

  function spectatorsLine() {
    const n = s.table && (s.table.spectators ?? s.table.watchers);
    if (n === undefined || n === null) return null;
    const count = Array.isArray(n) ? n.length : n;
    if (!count) return null; // nobody watching: nothing to say
    return h("p", { class: "spectators" }, t("table.spectators", { n: count }));
  }

  function moduleScores() {
    if (!s.module || typeof s.module.scores !== "function" || !s.view) return null;
    try {
      return s.module.scores(s.view);
    } catch {
      return null;
    }
  }

  function myPrompt() {
    const found = (s.prompts || []).find((p) => p.seat === s.seat);
    return found ? found.prompt || found : null;
  }

  function drawPrompt() {
    const over = s.table.status === "over";
    const mine = s.seat !== null && s.seat !== undefined && s.pending.includes(s.seat) && !over;
    const others = s.pending.filter((x) => x !== s.seat).map((x) => seatName(seats(), x));
    let text;
    if (over) text = t("table.game_over");
    else if (mine) text = myPrompt() ? promptText(myPrompt(), seats()) : t("table.your_turn");
    else if (s.table.status !== "playing") text = t(`status.${s.table.status}`);
    else text = t("table.waiting_for", { names: others.join(", ") || "…" });
    parts.moves.setAttribute("aria-label", t("table.legal_moves"));
    // The prompt's pieces are updated in place (never detached), so a focused move
    // button keeps the keyboard focus across updates.
    if (!parts.prompt.firstChild) {
      parts.prompt.append(h("h2", { class: "prompt", id: "prompt" }), h("p", { class: "small muted", id: "also" }),
        parts.refusal, parts.moves, h("div", { class: "row", id: "prompt-actions", style: { marginTop: "8px" } }));
      placeMoves();
    }
    const heading = parts.prompt.querySelector("#prompt");
    heading.textContent = text;
    heading.classList.toggle("mine", mine);
    const also = parts.prompt.querySelector("#also");
    also.hidden = !(mine && others.length);
    also.textContent = mine && others.length ? t("table.also_deciding", { names: others.join(", ") }) : "";
    const actions = parts.prompt.querySelector("#prompt-actions");
    const playing = s.yourSeats.length && s.table.status === "playing";
    const wanted = [
      s.canUndo ? "undo" : "",
      playing ? "leave" : "",
      s.table.status,
      playing && seats().some((x) => s.yourSeats.includes(x.seat) && x.zombie && !resigned().includes(x.seat)) ? "take-back" : "",
      playing && s.yourSeats.some((seat) => !resigned().includes(seat)) ? "resign" : "",
      language(),
    ].join("|");
    if (actions.dataset.drawn !== wanted) {
      actions.dataset.drawn = wanted;
      clear(actions,
        s.canUndo ? h("button", { type: "button", id: "undo", onclick: undo }, t("table.undo")) : null,
        playing ? h("button", { type: "button", class: "link small", id: "leave-playing", onclick: () => seatAction(() => api.leave(id)) }, t("table.leave_game")) : null,
        wanted.includes("take-back") ? h("button", { type: "button", id: "take-back", onclick: () => seatAction(() => api.join(id)) }, t("table.take_back")) : null,
        wanted.includes("|resign|") ? h("button", { type: "button", class: "danger-outline", id: "resign", onclick: confirmResign }, t("table.resign")) : null,
        notifyToggle());
    }
    drawMoves();
  }

  function resigned() {
    return (s.table && s.table.resigned) || [];
  }

  // Resigning cannot be undone: it asks first, in a modal dialog that says what follows
  // (at two players the other wins; at more, last place and a bot plays the seat on).
  function confirmResign() {
    const standing = seats().filter((x) => !resigned().includes(x.seat)).length;
    const close = () => { if (dialog.open) dialog.close(); dialog.remove(); };
    const dialog = h("dialog", { class: "confirm", id: "resign-dialog", "aria-labelledby": "resign-title" },
      h("h2", { id: "resign-title" }, t("table.resign_confirm_title")),
      h("p", {}, t(standing <= 2 ? "table.resign_confirm_two" : "table.resign_confirm_more")),
      h("div", { class: "row" },
        h("button", { type: "button", class: "danger", id: "resign-yes", onclick: () => { close(); seatAction(() => api.resign(id)); } }, t("table.resign_yes")),
        h("button", { type: "button", id: "resign-no", onclick: close }, t("table.resign_no"))));
    dialog.addEventListener("cancel", close);
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector("#resign-no").focus();
  }

  function drawMoves() {
    const box = parts.moves;
    // The same moves are not redrawn (an update that changed nothing else, a clock):
    // the button under the reader's pointer or focus stays the same button.
    // The game module is part of the key: moves first drawn before it loaded (generic
    // labels) are drawn again once it has.
    const drawn = `${language()}|${s.module ? "module" : "generic"}|${JSON.stringify(s.legal)}`;
    if (drawn === movesDrawn) {
      for (const button of box.children) button.disabled = s.busy;
      return;
    }
    movesDrawn = drawn;
    const hadFocus = box.contains(document.activeElement);
    const ctx = context();
    // Moves that read the same (two cards of one kind, two empty slots alike) are one
    // choice to the player: one button, which plays the first of them and lists the
    // others in data-also (a JSON array).
    const buttons = new Map();
    for (const move of s.legal) {
      const label = moveLabel(game().id, s.module, move, ctx);
      const text = typeof label === "string" ? label : label.textContent;
      const same = buttons.get(text);
      if (same) {
        same.dataset.also = JSON.stringify([...JSON.parse(same.dataset.also || "[]"), move]);
        continue;
      }
      buttons.set(text, h("button", {
        type: "button", class: "move", "data-move": JSON.stringify(move), disabled: s.busy,
        onclick: (e) => play(JSON.parse(e.currentTarget.dataset.move)),
      }, label));
    }
    clear(box, [...buttons.values()]);
    if (hadFocus && box.firstElementChild) box.firstElementChild.focus();
  }

  function context() {
    return {
      view: s.view, legal: s.legal, events: s.events, seat: s.seat, seats: seats(), pending: s.pending,
      result: s.result, game: game().id, lang: language(), t, play: (move) => play(move), busy: s.busy,
    };
  }

  function drawBoard() {
    drawGameBoard();
    focusDecision();
  }

  // A new decision of this reader's brings its controls into view, and on a phone the
  // prompt to the top of the screen with the board under it. It is new when its moves
  // differ from the last one's, or when this page has moved since.
  function focusDecision() {
    const mine = s.legal.length > 0 && s.table.status === "playing";
    const decision = mine ? `${shownMove}|${JSON.stringify(s.legal)}` : null;
    const isNew = decision !== null && decision !== boardView.focusKey;
    boardView.fit({ decision });
    const typing = document.activeElement && ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
    if (isNew && oneColumn.matches && !typing) {
      const top = parts.prompt.getBoundingClientRect().top;
      if (Math.abs(top) > 2) window.scrollBy(0, top);
    }
  }

  function drawGameBoard() {
    if (s.module && typeof s.module.render === "function") {
      try {
        parts.board.classList.remove("failed");
        s.module.render(parts.board, context());
        return;
      } catch (err) {
        console.error("the board failed to draw", err);
        parts.board.classList.add("failed");
      }
    }
    genericBoard(parts.board, s.view);
  }

  function drawLog() {
    logPanel.querySelector("h2").textContent = t("table.log");
    const nearBottom = parts.log.scrollHeight - parts.log.scrollTop - parts.log.clientHeight < 40;
    clear(parts.log, s.events.map((e) => h("li", { class: [e.to !== null && e.to !== undefined && "private"], dataset: { key: e.key } },
      eventSeat(game().id, e) !== null ? seatBadge(eventSeat(game().id, e), 14) : null,
      h("span", {}, eventText(game().id, e, seats())),
      e.to !== null && e.to !== undefined ? h("span", { class: "small muted" }, `(${t("table.only_you")})`) : null)));
    if (nearBottom) parts.log.scrollTop = parts.log.scrollHeight;
  }

  function drawChat() {
    chatPanel.querySelector("h2").textContent = t("table.chat");
    chatForm.querySelector("button").textContent = t("table.send");
    parts.chatInput.setAttribute("aria-label", t("table.chat_message"));
    parts.chatInput.placeholder = t("table.chat_placeholder");
    const canChat = Boolean(session.user);
    parts.chatInput.disabled = !canChat;
    clear(parts.chatLines, s.chat.map((c) => h("li", {}, h("strong", {}, c.username, ":"), h("span", {}, c.text))));
    parts.chatLines.scrollTop = parts.chatLines.scrollHeight;
  }

  function notifyToggle() {
    if (!("Notification" in window) || s.yourSeats.length === 0 || s.table.status !== "playing") return null;
    return h("label", { class: "small" },
      h("input", {
        type: "checkbox", id: "notify", checked: localStorage.getItem("ludoteca.notify") === "1" && Notification.permission === "granted",
        onchange: async (e) => {
          if (e.target.checked && Notification.permission !== "granted") {
            e.target.checked = (await Notification.requestPermission()) === "granted";
          }
          localStorage.setItem("ludoteca.notify", e.target.checked ? "1" : "0");
        },
      }), t("table.notify"));
  }

  function notifyTurn() {
    const mine = s.seat !== null && s.seat !== undefined && s.pending.includes(s.seat) && s.table.status === "playing";
    document.title = mine ? `▶ ${t("table.your_turn_title")} · Ludoteca` : `${gameLabel(game())} · Ludoteca`;
    if (mine && !wasMyTurn && document.hidden && localStorage.getItem("ludoteca.notify") === "1"
        && "Notification" in window && Notification.permission === "granted") {
      new Notification("Ludoteca", { body: t("table.your_turn_title"), tag: `ludoteca-${id}` });
    }
    wasMyTurn = mine;
  }

  // Clocks tick on screen between updates; only their text changes.
  const ticker = setInterval(() => {
    if (!s.clocks) return;
    for (const el of parts.seats.querySelectorAll("[data-clock-seat]")) {
      const c = clockText(Number(el.dataset.clockSeat));
      if (c) {
        el.querySelector(".clock-text").textContent = c.text;
        el.classList.toggle("low", c.low);
      }
    }
  }, 1000);

  // -- start ----------------------------------------------------------------------

  let started = false;
  async function start() {
    await refresh();
    if (!s.table || started) return;
    started = true;
    useGame(s.table.game);
    await loadGameStrings(s.table.game);
    s.module = await loadModule(s.table.game);
    s.chat = list(await api.chatRecent(id).catch(() => []), "messages");
    draw();
    live.start();
  }

  s.games = list(await api.games().catch(() => []), "games");
  await start();
  // Exposed for tests and for the curious: the socket can be dropped on purpose.
  window.ludotecaTable = { drop: (holdMs) => live.drop(holdMs), state: s, refresh, boardView };

  return {
    unmount() {
      live.stop();
      clearInterval(ticker);
      boardView.destroy();
      if (promptSize) promptSize.disconnect();
      oneColumn.removeEventListener("change", placeMoves);
      clearTimeout(ackTimer);
      if (s.module && typeof s.module.destroy === "function") s.module.destroy(parts.board);
      delete window.ludotecaTable;
      useGame(null);
      const banner = document.getElementById("banner");
      if (banner) banner.hidden = true;
      document.title = "Ludoteca";
    },
    relabel() {
      loadGameStrings(s.table ? s.table.game : "").then(draw);
    },
  };
}

