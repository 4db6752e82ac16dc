// The table's model on the page: what the server has said about this table (its summary,
// the reader's seats, the view, the legal moves, the decisions, the clocks, the log, the
// chat), merged in the order it came, and what follows from it (the seats, the game, whose
// turn it is). The panels read it; the store and the page's actions (actions.js) write it.
import { wholeView } from "../statics.js";
import { seatsOf } from "../model.js";
import { session } from "../session.js";
import { t } from "../i18n.js";

export class TableStore {
  constructor(id) {
    this.id = id;
    // Plain data, so that tests can read it (window.ludotecaTable.state).
    this.state = {
      table: null, seat: null, yourSeats: [], version: -1, view: null, legal: [], pending: [],
      prompts: null, events: [], result: null, canUndo: false, clocks: null, clocksAt: 0,
      chat: [], games: [], module: null, refusal: "", notice: "", busy: false, link: "connecting", error: "",
      acks: 0, // moves this page has had accepted (tests wait on it)
    };
    // The version this page's last accepted move (or undo) made, and the last such version
    // the state shown has reached: a decision drawn after one's own move is a new one, even
    // when its moves read the same as the one before (a second forum gain in a row).
    this.movedAt = -1;
    this.shownMove = -1;
    // The views of the latest versions, and the one the reader's last move left (the
    // board marks what changed since: the other players' moves; see lastmove.js).
    this.history = [];
    this.anchor = null;
    this.before = null; // the view before the latest update
    this.firstView = null;
    this.inbox = Promise.resolve();
    this.listeners = [];
  }

  // `listener(kind, detail)` hears each change: "state" (a snapshot or an update), "chat"
  // (a chat line), "refusal" (an error message on the socket, or a view whose static parts
  // could not be fetched: detail is the error).
  listen(listener) {
    this.listeners.push(listener);
  }

  emit(kind, detail) {
    for (const listener of this.listeners) listener(kind, detail);
  }

  // Everything that arrives goes through here, in order: a view that refers to static
  // parts the page has not fetched yet waits for them (once per table), and what came
  // after it waits its turn. Resolves once `data` is applied.
  receive(data) {
    this.inbox = this.inbox.then(async () => {
      if (data && data.view) {
        try {
          data = { ...data, view: await wholeView(this.id, data.view) };
        } catch (e) {
          this.emit("refusal", e);
          return;
        }
      }
      this.apply(data);
    });
    return this.inbox;
  }

  apply(data) {
    const s = this.state;
    if (!data) return;
    if (data.type === "chat") {
      if (!s.chat.some((c) => c.id === data.id)) s.chat.push(data);
      this.emit("chat", data);
      return;
    }
    if (data.type === "chat_removed") {
      // A moderator removed the line: it goes from every reader's chat at once.
      s.chat = s.chat.filter((c) => c.id !== data.id);
      this.emit("chat", data);
      return;
    }
    if (data.type === "error") {
      // A refusal on the socket (a chat line too long, a session gone).
      this.emit("refusal", { code: data.code, message: data.message, body: data });
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
    if (version >= this.movedAt) this.shownMove = this.movedAt;
    if ("view" in data && data.view !== s.view) {
      this.before = s.view;
      s.view = data.view;
      this.history.push({ version, view: data.view });
      this.firstView ||= data.view;
      if (this.history.length > 16) this.history.shift();
      this.anchorMove();
    }
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
    this.emit("state", data);
  }

  // A move or an undo was accepted (`ack`, the server's answer): the decision after it is
  // new. True when the state shown already holds it (the socket often comes before the
  // answer): the page brings that decision into view now.
  accepted(ack) {
    if (!ack || typeof ack.version !== "number") return false;
    this.movedAt = ack.version;
    this.anchorMove();
    if (this.state.version >= this.movedAt && this.shownMove !== this.movedAt) {
      this.shownMove = this.movedAt;
      return Boolean(this.state.table);
    }
    return false;
  }

  // Whether the legal moves shown are older than the reader's last accepted move: the
  // answer came before the socket's update, so they are the turn just played, and a
  // button drawn from them would only be refused.
  awaitingMove() {
    return this.movedAt > this.state.version;
  }

  // The decision on screen, for the board's viewport: the reader's legal moves, keyed on
  // the version of their last move too; null when they have nothing to decide.
  decision() {
    const s = this.state;
    const mine = s.legal.length > 0 && s.table.status === "playing";
    return mine ? `${this.shownMove}|${JSON.stringify(s.legal)}` : null;
  }

  // The view the reader's last move left, once the page has shown it (the answer to a
  // move often comes before the socket's update): the latest one seen at or before its
  // version (when the socket skipped that version, the one before it).
  anchorMove() {
    if (this.movedAt < 0 || (this.anchor && this.anchor.at === this.movedAt)) return;
    const last = this.history[this.history.length - 1];
    if (!last || last.version < this.movedAt) return;
    const found = this.history.filter((e) => e.version <= this.movedAt).pop() || last;
    this.anchor = { at: this.movedAt, view: found.view };
  }

  // The view the board marks its changes against: for a player, the one their last move
  // left (the first one this page showed while they have not moved here); for a
  // spectator, the one before the latest update.
  baselineView() {
    if (!this.seated()) return this.before;
    if (this.anchor) return this.anchor.view;
    return this.firstView || null;
  }

  seated() {
    return this.state.seat !== null && this.state.seat !== undefined;
  }

  // -- what follows from the state ----------------------------------------------------

  seats() {
    return this.state.table ? seatsOf(this.state.table) : [];
  }

  game() {
    const s = this.state;
    return (s.table && s.games.find((g) => g.id === s.table.game)) || { id: s.table ? s.table.game : "" };
  }

  gameId() {
    return this.state.table && this.state.table.game;
  }

  resigned() {
    return (this.state.table && this.state.table.resigned) || [];
  }

  isCreator() {
    const s = this.state;
    const creator = s.table && (s.table.creator || s.table.created_by_username);
    const name = creator || (this.seats()[0] || {}).username;
    return Boolean(session.user && name === session.user.username);
  }

  started() {
    return Boolean(this.state.table && this.state.table.status !== "open");
  }

  // Whether the reader sits at a seat that must decide now.
  readerDecides() {
    const s = this.state;
    return s.seat !== null && s.seat !== undefined && s.pending.includes(s.seat);
  }

  myPrompt() {
    const s = this.state;
    const found = (s.prompts || []).find((p) => p.seat === s.seat);
    return found ? found.prompt || found : null;
  }

  // A seat's key resources during play ([{key, label, value}]): the game module's reading
  // of the view (its resources(view, seat, {t, seats})), if it has one.
  moduleResources(seat) {
    const s = this.state;
    if (!s.module || typeof s.module.resources !== "function" || !s.view) return null;
    try {
      return s.module.resources(s.view, seat, { t, seats: this.seats() });
    } catch {
      return null;
    }
  }

  // Each seat's score during play: the game module's reading of the view, if it has one.
  moduleScores() {
    const s = this.state;
    if (!s.module || typeof s.module.scores !== "function" || !s.view) return null;
    try {
      return s.module.scores(s.view);
    } catch {
      return null;
    }
  }
}
