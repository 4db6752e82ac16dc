// Replays of finished games, step by step, forward and back, with a slider, from any
// seat's point of view or the spectator's. With the server's replay frames the board is
// drawn at every step; without them the record and the log still tell the game move by
// move.
import * as api from "../api.js";
import { clear, h, svg } from "../dom.js";
import { eventSeat, eventText, genericBoard, loadModule, moveLabel, seatName } from "../gamemodule.js";
import { language, loadGameStrings, t, useGame } from "../i18n.js";
import { list, seatsOf } from "../model.js";
import { seatBadge } from "../seats.js";
import { session } from "../session.js";
import { gameLabel } from "./lobby.js";
import { scoreboard } from "./scoreboard.js";
import { wholeView } from "../statics.js";
import { withViews } from "../changes.js";
import { reviewPanel } from "./review.js";
import { markMoves } from "../board.js";

// Media-style step icons as SVG: the Unicode ones are missing from many fonts.
function icon(path) {
  return svg("svg", { width: 14, height: 14, viewBox: "0 0 14 14", "aria-hidden": "true" },
    svg("path", { d: path, fill: "currentColor", stroke: "currentColor", "stroke-width": 1.5, "stroke-linejoin": "round" }));
}

export async function mount(main, { id }) {
  const params = new URLSearchParams(location.hash.split("?")[1] || "");
  const r = { table: null, record: null, frames: null, events: [], step: 0, pov: params.has("seat") ? Number(params.get("seat")) : null, module: null, games: [] };

  try {
    const snap = await api.table(id);
    r.table = snap.table || snap;
    // The record (seed and moves) comes only once the game is over; while a table with a
    // public record is played, the replay's frames alone are shown.
    r.record = await api.record(id).catch((e) => {
      if (e.status === 403 && r.table.record_public && r.table.status === "playing") return { game: r.table.game, moves: [], result: null };
      throw e;
    });
  } catch (e) {
    main.append(h("p", { class: "message error", role: "alert", id: "replay-error" }, e.status === 403 ? t("replay.not_yet") : e.message));
    return {};
  }
  // Someone who played sees the game from their own seat (hands and all) unless the
  // link asks for another; everyone else, from the spectator's.
  if (!params.has("seat") && session.user) {
    const own = seatsOf(r.table).find((x) => x.username && x.username === session.user.username);
    if (own) r.pov = own.seat;
  }
  r.games = list(await api.games().catch(() => []), "games");
  useGame(r.record.game);
  await loadGameStrings(r.record.game);
  r.module = await loadModule(r.record.game);
  await loadPov();

  async function loadPov() {
    try {
      const data = await api.replay(id, r.pov);
      r.resigned = data.resigned || [];
      // Static view parts (a map, a sheet's layout) come once, not in every frame.
      r.frames = await Promise.all(withViews(list(data, "frames")).map(async (f) => ({ ...f, view: await wholeView(id, f.view) })));
    } catch {
      r.frames = null; // the server has no replay frames: step through the record instead
      r.events = list(await api.log(id).catch(() => ({ events: [] })), "events");
    }
  }

  const total = () => (r.frames ? r.frames.length - 1 : r.record.moves.length);
  const game = () => r.games.find((g) => g.id === r.record.game) || { id: r.record.game };
  const seats = () => seatsOf(r.table);

  const title = h("h1");
  const stepLabel = h("span", { id: "replay-step", "aria-live": "polite" });
  const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: total(), value: 0, step: 1, "aria-label": t("replay.position"), oninput: (e) => go(Number(e.target.value)) });
  const pov = h("select", { id: "replay-pov", onchange: async (e) => { r.pov = e.target.value === "" ? null : Number(e.target.value); await loadPov(); go(r.step); } });
  // The review of a seat is seen from what that seat saw (its hand and all).
  async function showFrom(seat) {
    if (r.pov === seat) return;
    r.pov = seat;
    pov.value = String(seat);
    await loadPov();
    go(r.step, true);
  }
  const board = h("div", { class: "board", id: "board" });
  const moveLine = h("p", { class: "prompt", id: "replay-move" });
  const log = h("ol", { class: "log", id: "log" });
  const score = h("section", { class: "panel scoreboard", id: "scoreboard", hidden: true });
  const button = (idText, label, fn) => h("button", { type: "button", id: idText, "aria-label": label, title: label, onclick: fn });
  const first = button("replay-first", "", () => go(0));
  const prev = button("replay-prev", "", () => go(r.step - 1));
  const next = button("replay-next", "", () => go(r.step + 1));
  const last = button("replay-last", "", () => go(total()));
  // Auto-play: one move every `speed` ms until the end (or a pause, or any other step).
  let playing = null;
  const speed = h("select", { id: "replay-speed", onchange: () => { if (playing) { stopPlay(); startPlay(); } } },
    [2000, 1000, 500, 250].map((ms) => h("option", { value: ms, selected: ms === 1000 })));
  const playButton = button("replay-play", "", () => (playing ? stopPlay() : startPlay()));
  function startPlay() {
    if (r.step >= total()) go(0);
    playing = setInterval(() => { if (r.step >= total()) stopPlay(); else go(r.step + 1, true); }, Number(speed.value));
    drawPlay();
  }
  function stopPlay() {
    clearInterval(playing);
    playing = null;
    drawPlay();
  }
  function drawPlay() {
    const label = t(playing ? "table.replay_pause" : "table.replay_play");
    playButton.replaceChildren(icon(playing ? "M3 2h3v10H3zM8 2h3v10H8z" : "M3 2l9 5-9 5z"));
    playButton.setAttribute("aria-label", label);
    playButton.title = label;
    playButton.setAttribute("aria-pressed", String(Boolean(playing)));
  }

  // The post-game review (pages/review.js): its chart above the board, once the game is over.
  const review = r.record.result ? reviewPanel({ tableId: id, table: r.table, seats, seatName: (s) => seatName(seats(), s), go, pov: r.pov,
    redraw: () => go(r.step, true), setPov: (seat) => showFrom(seat),
    // The view at the decision (any point of view's: a label names public things, a box
    // of a sheet, a card of the draft) lets a board's labels say more than the generic one.
    label: (move, d) => moveLabel(game().id, r.module, move, { seats: seats(), game: game().id, lang: language(), t, play: () => {}, legal: [], seat: d.seat,
      view: r.frames && r.frames[d.index] ? r.frames[d.index].view : null }) || d.played_text }) : null;

  main.append(h("div", { class: "grid" },
    h("section", { class: "panel" }, title,
      h("div", { class: "replay-controls" }, first, prev, playButton, slider, next, last, stepLabel),
      h("div", { class: "row", style: { marginTop: "8px" } }, h("label", { for: "replay-pov" }, t("replay.point_of_view")), pov,
        h("label", { for: "replay-speed", id: "replay-speed-label" }), speed,
        // The record (moves, result and the reviews made of it) for `ludoteca replay` or a bot.
        h("a", { class: "button", id: "replay-record", href: `/api/tables/${encodeURIComponent(id)}/record`,
                 download: `ludoteca-${r.record.game}-${id}.json` }, t("replay.download")))),
    score,
    review ? review.element : null,
    h("section", { class: "panel" }, moveLine, review ? review.legend : null, board),
    h("section", { class: "panel" }, h("h2", { id: "log-h" }), log)));

  function labels() {
    title.textContent = `${t("replay.title")} — ${gameLabel(game())}`;
    first.replaceChildren(icon("M3 2v10M12 2 5 7l7 5z"));
    prev.replaceChildren(icon("M10 2 3 7l7 5z"));
    next.replaceChildren(icon("M4 2l7 5-7 5z"));
    last.replaceChildren(icon("M11 2v10M2 2l7 5-7 5z"));
    first.setAttribute("aria-label", t("replay.first"));
    prev.setAttribute("aria-label", t("replay.back"));
    next.setAttribute("aria-label", t("replay.forward"));
    last.setAttribute("aria-label", t("replay.last"));
    main.querySelector("#log-h").textContent = t("table.log");
    main.querySelector("#replay-speed-label").textContent = t("table.replay_speed");
    for (const option of speed.options) option.textContent = t("table.replay_seconds", { s: Number(option.value) / 1000 });
    drawPlay();
    clear(pov, h("option", { value: "", selected: r.pov === null }, t("replay.spectator")),
      seats().map((x) => h("option", { value: x.seat, selected: r.pov === x.seat }, seatName(seats(), x.seat))));
    if (review) review.relabel();
  }

  function go(step, auto = false) {
    if (!auto && playing) stopPlay(); // a step of the reader's own stops the auto-play
    r.step = Math.max(0, Math.min(total(), step));
    slider.value = r.step;
    slider.max = total();
    stepLabel.textContent = t("replay.step", { n: r.step, total: total() });
    first.disabled = prev.disabled = r.step === 0;
    next.disabled = last.disabled = r.step === total();
    const ctx = { seats: seats(), game: game().id, lang: language(), t, play: () => {}, legal: [], seat: r.pov };
    // At a decision of the reviewed seat, seen from that seat: the board is drawn with the
    // move played and the bot's preferred one as its legal moves (inert, play does
    // nothing), so that every game's board puts them where they belong, then marked.
    const decision = review && r.frames ? review.decisionAt(r.step) : null;
    const marks = decision && decision.seat === r.pov ? review.boardMarks(decision) : null;
    let events;
    if (r.frames) {
      const frame = r.frames[r.step];
      events = r.frames.slice(0, r.step + 1).flatMap((f) => f.events || []); // frame 0: the setup's
      moveLine.replaceChildren(...(frame.hidden && frame.seat !== null && frame.seat !== undefined
        ? [seatBadge(frame.seat, 18), " ", t("replay.hidden_move", { name: seatName(seats(), frame.seat) })]
        : describeMove(frame.seat, frame.move, ctx)));
      const view = frame.view;
      const drawCtx = { ...ctx, view, events, pending: frame.pending || [], prompts: frame.prompts || [], result: r.step === total() ? r.record.result : null,
        ...(marks ? { legal: marks.legal } : {}) };
      try {
        if (r.module && r.module.render) r.module.render(board, drawCtx);
        else genericBoard(board, view);
      } catch {
        genericBoard(board, view);
      }
    } else {
      const played = r.record.moves[r.step - 1];
      moveLine.replaceChildren(...(played ? describeMove(played[0], played[1], ctx) : [t("replay.setup")]));
      events = r.events.filter((e) => (e.number ?? 0) <= r.step);
      clear(board, h("p", { class: "muted small" }, t("replay.no_frames")));
    }
    const onBoard = markMoves(board, marks && marks.marks, marks ? marks.both : "");
    // A resignation is no move: its line comes once the moves before it are played.
    const resignations = (r.resigned || r.record.resigned || []).filter((x) => x.after <= r.step)
      .map((x) => h("li", { class: "resigned" }, seatBadge(x.seat, 14), h("span", {}, t("replay.resigned", { name: seatName(seats(), x.seat) }))));
    clear(log, events.map((e) => h("li", {}, eventSeat(game().id, e) !== null ? seatBadge(eventSeat(game().id, e), 14) : null, h("span", {}, eventText(game().id, e, seats())))), resignations);
    log.scrollTop = log.scrollHeight;
    const atEnd = r.step === total() && r.record.result;
    score.hidden = !atEnd;
    if (atEnd) clear(score, scoreboard(game(), r.record.result, seats(), r.module, r.frames ? r.frames[r.step].view : null));
    if (review) review.step(r.step, { onBoard, marked: Boolean(marks), pov: r.pov });
  }

  function describeMove(seat, move, ctx) {
    if (seat === undefined || seat === null || !move) return [t("replay.setup")];
    return [seatBadge(seat, 18), " ", t("replay.played", { name: seatName(seats(), seat), move: moveLabel(game().id, r.module, move, { ...ctx, view: null }) })];
  }

  // Arrow keys step through the game when the focus is not in a control that uses them.
  function onKey(e) {
    if (e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowRight") go(r.step + 1);
    else if (e.key === "ArrowLeft") go(r.step - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(total());
    else return;
    e.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  labels();
  go(0);
  return {
    unmount: () => {
      document.removeEventListener("keydown", onKey);
      clearInterval(playing);
      if (review) review.unmount();
      markMoves(board, null);
      useGame(null);
    },
    relabel: () => loadGameStrings(r.record.game).then(() => { labels(); go(r.step); }),
  };
}
