// The prompt, the table's compact status bar (pinned at the top while the board scrolls,
// on a wide screen; see css/board-ui.css): what the reader is asked now (or whom the table
// waits for) and the clock that runs, the refusal of the last move, buttons for the moves
// with no place on the board, the full list of moves (collapsed), and the reader's actions
// at the table (undo, leave, take back one's seat, resign, notifications).
import * as api from "../api.js";
import { clear, h } from "../dom.js";
import { promptText, seatName } from "../gamemodule.js";
import { language, t } from "../i18n.js";
import { clockIcon, clockText, tickClocks } from "./clocks.js";
import { notifyToggle } from "./notify.js";
import { soundToggle } from "./sounds.js";

// `moves`: the list of moves (moves.js), placed under the prompt (see table.js).
export function promptPanel(page, moves) {
  const { id, store, act } = page;
  const s = store.state;
  const element = h("section", { class: "panel", id: "prompt-panel", "aria-labelledby": "prompt" });
  const refusal = h("p", { class: "refusal", id: "refusal", role: "alert", hidden: true });
  const heading = h("h2", { class: "prompt", id: "prompt" });
  const also = h("p", { class: "small muted", id: "also" });
  const actions = h("div", { class: "row", id: "prompt-actions" });
  const clock = h("span", { class: "clock bar-clock", id: "bar-clock", hidden: true }, clockIcon(), h("span", { class: "clock-text" }));
  const sound = soundToggle();
  const line = h("div", { class: "status-line" }, heading, clock, actions);

  function draw() {
    const over = s.table.status === "over";
    const mine = store.readerDecides() && !over;
    const seats = store.seats();
    const others = s.pending.filter((x) => x !== s.seat).map((x) => seatName(seats, x));
    let text;
    if (over) text = t("table.game_over");
    else if (mine) text = store.myPrompt() ? promptText(store.myPrompt(), seats) : t("table.your_turn");
    else if (s.table.status !== "playing") text = t(`status.${s.table.status}`);
    else text = t("table.waiting_for", { names: others.join(", ") || "…" });
    // The prompt's pieces are updated in place (never detached), so a focused move
    // button keeps the keyboard focus across updates.
    if (!element.firstChild) {
      element.append(line, also, refusal, moves.bar, moves.element);
      page.placeMoves();
    }
    heading.textContent = text;
    heading.classList.toggle("mine", mine);
    also.hidden = !(mine && others.length);
    also.textContent = mine && others.length ? t("table.also_deciding", { names: others.join(", ") }) : "";
    drawClock(over);
    drawActions();
    sound.draw();
    moves.draw();
  }

  // The clock that runs now: the reader's own when it is theirs to move, else the first
  // seat the table waits for (bots play without a clock). It ticks with the seat panels'.
  function drawClock(over) {
    const seats = store.seats();
    const candidates = [...(store.readerDecides() ? [s.seat] : []), ...s.pending];
    const seat = over ? undefined : candidates.find((x) => seats[x] && !seats[x].bot && clockText(s, x));
    const c = seat === undefined ? null : clockText(s, seat);
    clock.hidden = !c;
    if (!c) return;
    clock.dataset.clockSeat = seat;
    clock.title = t("table.bar_clock", { name: seatName(seats, seat) });
    clock.setAttribute("aria-label", clock.title);
    clock.classList.toggle("low", c.low);
    clock.querySelector(".clock-text").textContent = c.text;
  }

  function drawActions() {
    const resigned = store.resigned();
    const playing = s.yourSeats.length && s.table.status === "playing";
    const wanted = [
      s.canUndo ? "undo" : "",
      playing ? "leave" : "",
      s.table.status,
      playing && store.seats().some((x) => s.yourSeats.includes(x.seat) && x.zombie && !resigned.includes(x.seat)) ? "take-back" : "",
      playing && s.yourSeats.some((seat) => !resigned.includes(seat)) ? "resign" : "",
      language(),
    ].join("|");
    if (actions.dataset.drawn === wanted) return;
    actions.dataset.drawn = wanted;
    clear(actions,
      s.canUndo ? h("button", { type: "button", id: "undo", onclick: act.undo }, t("table.undo")) : null,
      playing ? h("button", { type: "button", class: "link small", id: "leave-playing", onclick: () => act.seatAction(() => api.leave(id)) }, t("table.leave_game")) : null,
      wanted.includes("take-back") ? h("button", { type: "button", id: "take-back", onclick: () => act.seatAction(() => api.join(id)) }, t("table.take_back")) : null,
      wanted.includes("|resign|") ? h("button", { type: "button", class: "danger-outline", id: "resign", onclick: confirmResign }, t("table.resign")) : null,
      notifyToggle(s),
      sound.element); // the sound button, last: on the actions' line, also for a spectator
  }

  // Resigning cannot be undone: it asks first, in a modal dialog that says what follows
  // (at two players the other wins; at more, last place and a bot plays the seat on).
  function confirmResign() {
    const resigned = store.resigned();
    const standing = store.seats().filter((x) => !resigned.includes(x.seat)).length;
    const close = () => { if (dialog.open) dialog.close(); dialog.remove(); };
    const dialog = h("dialog", { class: "confirm", id: "resign-dialog", "aria-labelledby": "resign-title" },
      h("h2", { id: "resign-title" }, t("table.resign_confirm_title")),
      h("p", {}, t(standing <= 2 ? "table.resign_confirm_two" : "table.resign_confirm_more")),
      h("div", { class: "row" },
        h("button", { type: "button", class: "danger", id: "resign-yes", onclick: () => { close(); act.seatAction(() => api.resign(id)); } }, t("table.resign_yes")),
        h("button", { type: "button", id: "resign-no", onclick: close }, t("table.resign_no"))));
    dialog.addEventListener("cancel", close);
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector("#resign-no").focus();
  }

  function showRefusal(text) {
    refusal.hidden = !text;
    refusal.textContent = text;
  }

  const stopClock = tickClocks(s, element);

  return { element, refusal, draw, showRefusal, destroy: stopClock };
}
