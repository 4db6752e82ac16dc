// The game's log: every event the reader may see, with the seat's badge; lines meant for
// the reader alone say so. It follows the newest line unless the reader scrolled up.
import { clear, h } from "../dom.js";
import { eventSeat, eventText, seatName } from "../gamemodule.js";
import { t } from "../i18n.js";
import { seatBadge } from "../seats.js";

export function logPanel(page) {
  const { store } = page;
  const s = store.state;
  // A scrolling list takes the focus, so the keyboard can scroll it too.
  const list = h("ol", { class: "log", id: "log", "aria-live": "polite", tabindex: "0", "aria-labelledby": "log-h" });
  const heading = h("h2", { id: "log-h" });
  const element = h("section", { class: "panel log-panel" }, heading, list);

  function draw() {
    heading.textContent = t("table.log");
    const game = store.game().id;
    const seats = store.seats();
    const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    const lines = s.events.map((e) => h("li", { class: [e.to !== null && e.to !== undefined && "private"], dataset: { key: e.key } },
      eventSeat(game, e) !== null ? seatBadge(eventSeat(game, e), 14) : null,
      h("span", {}, eventText(game, e, seats)),
      e.to !== null && e.to !== undefined ? h("span", { class: "small muted" }, `(${t("table.only_you")})`) : null));
    // The table's own lines: a seat whose time ran out, after the last event of the moves
    // played by then (each event carries its move's number).
    for (const x of [...seats].filter((p) => Number.isInteger(p.timed_out)).sort((a, b) => b.timed_out - a.timed_out)) {
      const at = s.events.findLastIndex((e) => (e.number ?? 0) <= x.timed_out) + 1;
      lines.splice(at, 0, h("li", { class: "table-line", dataset: { key: "table.timed_out_log", seat: x.seat } },
        seatBadge(x.seat, 14), h("span", {}, t("table.timed_out_log", { name: x.username || seatName(seats, x.seat) }))));
    }
    clear(list, lines);
    if (nearBottom) list.scrollTop = list.scrollHeight;
  }

  return { element, draw };
}
