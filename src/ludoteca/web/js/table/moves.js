// The reader's legal moves as buttons, in two places:
// - the status bar's buttons (`bar`, #bar-moves): only the moves the board has no place
//   for (a pass, "done"), beside the prompt; every other move is made on the board;
// - the full list (`element`, a <details> holding #moves, one button per move): the
//   frame's way to play any game, kept collapsed for keyboard and screen-reader players
//   and for tests. When the board takes no move itself (no game module, a module that
//   does not mark its controls with the board kit, or one that failed), the full list is
//   open and the bar stays empty.
import { moveKey } from "../board.js";
import { clear, h } from "../dom.js";
import { moveLabel } from "../gamemodule.js";
import { language, t } from "../i18n.js";
import { boardContext } from "./boardpanel.js";

export function movesList(page) {
  const { store, act } = page;
  const s = store.state;
  const list = h("div", { class: "moves", id: "moves", role: "group" });
  const summary = h("summary", { id: "all-moves-summary" });
  const element = h("details", { class: "all-moves", id: "all-moves" }, summary, list);
  const bar = h("div", { class: "moves bar-moves", id: "bar-moves", role: "group" });
  let drawn = ""; // what the buttons show now; unchanged lists are not redrawn
  let boardPlays = null; // whether the board took moves at the last drawing (the <details> follows it)

  function draw() {
    list.setAttribute("aria-label", t("table.legal_moves"));
    bar.setAttribute("aria-label", t("table.legal_moves"));
    const covered = s.covered && s.covered.size ? s.covered : null;
    const offBoard = covered ? s.legal.filter((m) => !covered.has(moveKey(m))) : [];
    // The same moves are not redrawn (an update that changed nothing else, a clock):
    // the button under the reader's pointer or focus stays the same button.
    // The game module is part of the key: moves first drawn before it loaded (generic
    // labels) are drawn again once it has.
    const off = s.busy || store.awaitingMove();
    const now = `${language()}|${s.module ? "module" : "generic"}|${JSON.stringify(s.legal)}|${JSON.stringify(offBoard)}`;
    if (now === drawn) {
      for (const button of [...list.children, ...bar.children]) button.disabled = off;
      return;
    }
    drawn = now;
    // The list is open when it is the only way to play; it closes again when the board
    // takes moves (and the reader's own opening or closing is kept in between).
    if (boardPlays !== !!covered) element.open = !covered;
    boardPlays = !!covered;
    summary.textContent = t("table.all_moves", { n: s.legal.length });
    element.hidden = !s.legal.length;
    const ctx = boardContext(page);
    for (const [box, moves] of [[list, s.legal], [bar, offBoard]]) {
      const hadFocus = box.contains(document.activeElement);
      clear(box, buttons(moves, ctx));
      if (hadFocus && box.firstElementChild) box.firstElementChild.focus();
    }
    bar.hidden = !offBoard.length;
  }

  // Moves that read the same (two cards of one kind, two empty slots alike) are one
  // choice to the player: one button, which plays the first of them and lists the
  // others in data-also (a JSON array).
  function buttons(moves, ctx) {
    const made = new Map();
    const off = s.busy || store.awaitingMove();
    for (const move of moves) {
      const label = moveLabel(store.game().id, s.module, move, ctx);
      const text = typeof label === "string" ? label : label.textContent;
      const same = made.get(text);
      if (same) {
        same.dataset.also = JSON.stringify([...JSON.parse(same.dataset.also || "[]"), move]);
        continue;
      }
      made.set(text, h("button", {
        type: "button", class: "move", "data-move": moveKey(move), disabled: off,
        onclick: (e) => act.play(JSON.parse(e.currentTarget.dataset.move)),
      }, label));
    }
    return [...made.values()];
  }

  // The next draw builds the buttons again (after a refused move, whatever was clicked).
  function invalidate() {
    drawn = "";
  }

  return { element, list, bar, draw, invalidate };
}
