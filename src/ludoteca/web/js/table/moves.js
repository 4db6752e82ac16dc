// The list of the reader's legal moves, one button each: the frame's way to play any
// game, the fallback of every board, and what tests and assistive tech rely on.
import { moveKey } from "../board.js";
import { clear, h } from "../dom.js";
import { moveLabel } from "../gamemodule.js";
import { language, t } from "../i18n.js";
import { boardContext } from "./boardpanel.js";

export function movesList(page) {
  const { store, act } = page;
  const s = store.state;
  const element = h("div", { class: "moves", id: "moves", role: "group" });
  let drawn = ""; // what the buttons show now; unchanged lists are not redrawn

  function draw() {
    element.setAttribute("aria-label", t("table.legal_moves"));
    // The same moves are not redrawn (an update that changed nothing else, a clock):
    // the button under the reader's pointer or focus stays the same button.
    // The game module is part of the key: moves first drawn before it loaded (generic
    // labels) are drawn again once it has.
    const now = `${language()}|${s.module ? "module" : "generic"}|${JSON.stringify(s.legal)}`;
    if (now === drawn) {
      for (const button of element.children) button.disabled = s.busy;
      return;
    }
    drawn = now;
    const hadFocus = element.contains(document.activeElement);
    const ctx = boardContext(page);
    // Moves that read the same (two cards of one kind, two empty slots alike) are one
    // choice to the player: one button, which plays the first of them and lists the
    // others in data-also (a JSON array).
    const buttons = new Map();
    for (const move of s.legal) {
      const label = moveLabel(store.game().id, s.module, move, ctx);
      const text = typeof label === "string" ? label : label.textContent;
      const same = buttons.get(text);
      if (same) {
        same.dataset.also = JSON.stringify([...JSON.parse(same.dataset.also || "[]"), move]);
        continue;
      }
      buttons.set(text, h("button", {
        type: "button", class: "move", "data-move": moveKey(move), disabled: s.busy,
        onclick: (e) => act.play(JSON.parse(e.currentTarget.dataset.move)),
      }, label));
    }
    clear(element, [...buttons.values()]);
    if (hadFocus && element.firstElementChild) element.firstElementChild.focus();
  }

  // The next draw builds the buttons again (after a refused move, whatever was clicked).
  function invalidate() {
    drawn = "";
  }

  return { element, draw, invalidate };
}
