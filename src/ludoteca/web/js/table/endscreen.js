// The end screen: the final scoreboard over the table once the game is over.
import { clear, h } from "../dom.js";
import { scoreboard } from "../pages/scoreboard.js";

export function endScreen(page) {
  const { store } = page;
  const s = store.state;
  const element = h("section", { class: "panel scoreboard", id: "scoreboard", hidden: true });

  function draw() {
    const result = s.result || (s.table && s.table.result);
    element.hidden = !result;
    if (result) clear(element, scoreboard(store.game(), result, store.seats(), s.module, s.view));
  }

  return { element, draw };
}
