// What the reader does at the table (play a move, undo, sit down, stand up, ask for a
// rematch) and fetching the table again over HTTP. Each action writes the table state and
// has the panels it touches drawn again; what goes wrong is said where refusals are said.
import * as api from "../api.js";
import { errorText } from "../gamemodule.js";
import { t } from "../i18n.js";
import { canonical } from "../model.js";
import { ensureUser, session } from "../session.js";

// `page`: the table page's hub (table.js): its id, store, panels, socket and start().
export function tableActions(page) {
  const { id, store } = page;
  const s = store.state;
  const gameId = () => s.table && s.table.game;
  let ackTimer = null;

  async function refresh() {
    try {
      await store.receive(await api.table(id));
      s.error = "";
      s.privateInvite = false;
    } catch (e) {
      // A private table shows itself to its players only; whoever has the link may sit down.
      s.privateInvite = e.code === "private_table";
      s.error = e.status === 404 ? t("table.not_found") : errorText("", e);
      page.panels.head.draw();
    }
  }

  async function play(move) {
    if (s.busy) return;
    s.busy = true;
    showRefusal("");
    page.panels.moves.draw();
    try {
      const ack = await send(move);
      s.acks += 1;
      moved(ack);
      // The socket brings the new view; if it does not come soon, ask for it.
      clearTimeout(ackTimer);
      if (ack && ack.version > s.version) {
        ackTimer = setTimeout(() => { if (ack.version > s.version) refresh(); }, page.live.open ? 1500 : 0);
      }
    } catch (e) {
      showRefusal(errorText(gameId(), e));
      page.panels.moves.invalidate(); // rebuild the buttons from the legal moves, whatever was clicked
      if (e.status === 409) refresh();
    } finally {
      s.busy = false;
      page.panels.moves.draw();
      if (page.heard) page.heard(); // an update held while the move was on its way
    }
  }

  // A move or an undo was accepted: when the state that shows the decision after it came
  // before the answer, that decision is brought into view now.
  function moved(ack) {
    if (store.accepted(ack)) page.panels.board.focusDecision();
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
      showRefusal(errorText(gameId(), e));
    }
  }

  // Sitting down, standing up, starting, resigning...: the seat changes, so the socket
  // connects again (the server fixes a socket's seat when it connects).
  async function seatAction(fn) {
    try {
      await ensureUser();
      const summary = await fn();
      if (summary && summary.id) s.table = summary;
      await refresh();
      page.live.restart();
    } catch (e) {
      s.notice = errorText(gameId(), e);
      page.panels.waiting.draw();
    }
  }

  async function joinPrivate() {
    try {
      await ensureUser();
      await api.join(id);
      await page.start();
    } catch (e) {
      s.error = errorText("", e);
      page.panels.head.draw();
    }
  }

  async function askRematch() {
    try {
      const next = await api.rematch(id);
      const me = session.user && session.user.username;
      // The rematch keeps a seat for everyone who played, the one after theirs here: take
      // it on the way in (any free seat if someone else took it; a full or started
      // rematch is still worth watching).
      if (next.status === "open" && !next.players.some((p) => p.username === me)) {
        const mine = store.seats().find((p) => p.username === me);
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
      page.panels.head.draw();
    }
  }

  function showRefusal(text) {
    s.refusal = text;
    page.panels.prompt.showRefusal(text);
  }

  return {
    refresh, play, undo, seatAction, joinPrivate, askRematch, showRefusal,
    stop: () => clearTimeout(ackTimer),
  };
}
