// The table: waiting room before the start, then the board, seats, prompt, the list of
// legal moves, the log, chat and the final scoreboard. Live over the WebSocket.
//
// This page wires the parts in web/js/table/: the store (the table's model, fed by the
// socket and by HTTP), the actions (what the reader does), and one module per panel,
// each of which builds its elements once and draws them from the store.
import * as api from "../api.js";
import { h } from "../dom.js";
import { errorText, loadModule } from "../gamemodule.js";
import { loadGameStrings, useGame } from "../i18n.js";
import { Live } from "../live.js";
import { list } from "../model.js";
import { tableActions } from "../table/actions.js";
import { boardPanel } from "../table/boardpanel.js";
import { chatPanel } from "../table/chat.js";
import { endScreen } from "../table/endscreen.js";
import { drawBanner, headPanel, hideBanner } from "../table/head.js";
import { logPanel } from "../table/log.js";
import { movesList } from "../table/moves.js";
import { turnNotifier } from "../table/notify.js";
import { playersPanel } from "../table/players.js";
import { promptPanel } from "../table/prompt.js";
import { tableSounds } from "../table/sounds.js";
import { TableStore } from "../table/store.js";
import { waitingRoom } from "../table/waiting.js";

export async function mount(main, { id }) {
  const store = new TableStore(id);
  const s = store.state;
  // The hub the actions and the panels share; its panels, socket and start() are set below.
  const page = { id, store, panels: {}, oneColumn: matchMedia("(max-width: 899px)") };
  page.act = tableActions(page);
  const moves = movesList(page);
  const panels = Object.assign(page.panels, {
    head: headPanel(page), score: endScreen(page), waiting: waitingRoom(page),
    moves, prompt: promptPanel(page, moves), board: boardPanel(page),
    seats: playersPanel(page), log: logPanel(page), chat: chatPanel(page),
  });
  const notifyTurn = turnNotifier(page);
  const sounds = tableSounds(page);
  page.heard = sounds; // also once a move's answer came (table/actions.js): see tableSounds

  // The skeleton is built once: the board root and the chat input keep their state
  // (the game's drawing, a half-typed message) across updates.
  const element = h("div", { class: "table-page" },
    panels.head.element, panels.score.element, panels.waiting.element,
    h("div", { class: "mainline" }, panels.prompt.element, panels.board.element),
    h("div", { class: "side" }, panels.seats.element, panels.log.element, panels.chat.element));
  main.append(element);

  // On a phone the list of moves goes under the board, so that the prompt and the part of
  // the board it is about fit one screen; the board's box is as tall as the screen leaves
  // under the prompt.
  const { oneColumn } = page;
  page.placeMoves = () => {
    const wanted = oneColumn.matches ? panels.board.element : panels.prompt.element;
    if (moves.element.parentElement === wanted) return;
    if (oneColumn.matches) panels.board.element.append(moves.element);
    else moves.bar.after(moves.element);
  };
  oneColumn.addEventListener("change", page.placeMoves);
  const promptSize = typeof ResizeObserver === "function"
    ? new ResizeObserver(() => {
      const height = panels.prompt.element.offsetHeight;
      element.style.setProperty("--prompt-h", `${height}px`);
      // A control scrolled into view (by the page, the keyboard) lands under the status
      // bar pinned on a wide screen, not behind it. Set on the root only when it changes,
      // and as a property nothing inherits: a custom property there (or an html:has()
      // rule) had every update restyle the whole page.
      const padding = oneColumn.matches ? "" : `${height + 8}px`;
      if (document.documentElement.style.scrollPaddingTop !== padding) document.documentElement.style.scrollPaddingTop = padding;
    }) : null;
  if (promptSize) promptSize.observe(panels.prompt.element);

  function draw() {
    drawBanner(s);
    panels.head.draw();
    panels.score.draw();
    panels.waiting.draw();
    const started = store.started();
    // Before the start the waiting room lists the seats; the seat panels come with play.
    for (const panel of [panels.prompt, panels.board, panels.log, panels.seats]) panel.element.hidden = !started;
    if (!started) {
      panels.chat.draw();
      return;
    }
    panels.seats.draw();
    // The board first: the status bar shows buttons only for the moves it did not take.
    panels.board.drawGame();
    panels.prompt.draw();
    panels.board.focusDecision();
    panels.log.draw();
    panels.chat.draw();
    notifyTurn();
    sounds();
  }

  store.listen((kind, detail) => {
    if (kind === "state") draw();
    else if (kind === "chat") panels.chat.draw();
    else if (kind === "refusal") page.act.showRefusal(errorText(store.gameId(), detail));
  });

  page.live = new Live(() => {
    const url = new URL(api.liveUrl(id));
    if (s.version >= 0) url.searchParams.set("version", s.version);
    return url.toString();
  }, {
    onMessage: (data) => store.receive(data),
    onStatus: (status, info = {}) => {
      s.link = status;
      drawBanner(s);
      panels.head.draw();
      // Belt and braces: after a reconnection also fetch the table over HTTP, so a
      // server that does not replay missed updates on connect still catches us up.
      if (status === "live" && info.reconnected) page.act.refresh();
    },
  });

  let started = false;
  page.start = async () => {
    await page.act.refresh();
    if (!s.table || started) return;
    started = true;
    useGame(s.table.game);
    await loadGameStrings(s.table.game);
    s.module = await loadModule(s.table.game);
    s.chat = list(await api.chatRecent(id).catch(() => []), "messages");
    draw();
    page.live.start();
  };

  s.games = list(await api.games().catch(() => []), "games");
  await page.start();
  // Exposed for tests and for the curious: the socket can be dropped on purpose.
  window.ludotecaTable = { drop: (holdMs) => page.live.drop(holdMs), state: s, refresh: page.act.refresh, boardView: panels.board.view };

  return {
    unmount() {
      page.live.stop();
      panels.seats.destroy();
      panels.prompt.destroy();
      panels.board.destroy();
      if (promptSize) promptSize.disconnect();
      document.documentElement.style.scrollPaddingTop = "";
      oneColumn.removeEventListener("change", page.placeMoves);
      page.act.stop();
      delete window.ludotecaTable;
      useGame(null);
      hideBanner();
      document.title = "Ludoteca";
    },
    relabel() {
      loadGameStrings(s.table ? s.table.game : "").then(draw);
    },
  };
}
