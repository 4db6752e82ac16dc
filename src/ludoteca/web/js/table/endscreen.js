// The end screen: the final scoreboard over the table once the game is over, and the
// seats whose time ran out (a bot played them on).
import { clear, h } from "../dom.js";
import { seatName } from "../gamemodule.js";
import { t } from "../i18n.js";
import { scoreboard } from "../pages/scoreboard.js";

export function endScreen(page) {
  const { store } = page;
  const s = store.state;
  const element = h("section", { class: "panel scoreboard", id: "scoreboard", hidden: true });

  function draw() {
    const result = s.result || (s.table && s.table.result);
    element.hidden = !result;
    if (!result) return;
    const seats = store.seats();
    const timedOut = seats.filter((p) => Number.isInteger(p.timed_out));
    clear(element, scoreboard(store.game(), result, seats, s.module, s.view),
      timedOut.length ? h("ul", { class: "small timed-out", id: "timed-out" }, timedOut.map((p) =>
        h("li", { dataset: { seat: p.seat } }, t("table.timed_out_end", { name: p.username || seatName(seats, p.seat) })))) : null);
  }

  return { element, draw };
}
