// The game's log: every event the reader may see, with the seat's badge; lines meant for
// the reader alone say so. It follows the newest line unless the reader scrolled up.
import { clear, h } from "../dom.js";
import { eventSeat, eventText, seatName } from "../gamemodule.js";
import { gameStringsLoaded, language, t } from "../i18n.js";
import { seatBadge } from "../seats.js";

export function logPanel(page) {
  const { store } = page;
  const s = store.state;
  // A scrolling list takes the focus, so the keyboard can scroll it too.
  const list = h("ol", { class: "log", id: "log", "aria-live": "polite", tabindex: "0", "aria-labelledby": "log-h" });
  const heading = h("h2", { id: "log-h" });
  const element = h("section", { class: "panel log-panel" }, heading, list);

  // What the list shows: the events drawn (the store's list, which only grows until a
  // reset gives a new one), and everything else the lines read (language, names, timeouts).
  // A new event appends a line; only a change of the rest draws the list anew: a long
  // game has hundreds of lines, and each update drew them all again.
  let drawnEvents = null;
  let drawnCount = 0;
  let drawnKey = "";

  function line(game, seats, e) {
    return h("li", { class: [e.to !== null && e.to !== undefined && "private"], dataset: { key: e.key } },
      eventSeat(game, e) !== null ? seatBadge(eventSeat(game, e), 14) : null,
      h("span", {}, eventText(game, e, seats)),
      e.to !== null && e.to !== undefined ? h("span", { class: "small muted" }, `(${t("table.only_you")})`) : null);
  }

  function draw() {
    heading.textContent = t("table.log");
    const game = store.game().id;
    const seats = store.seats();
    const timedOut = seats.filter((p) => Number.isInteger(p.timed_out));
    const key = `${language()}|${gameStringsLoaded()}|${game}|${JSON.stringify(seats.map((p) => [p.username, p.bot, p.timed_out]))}`;
    const appendOnly = key === drawnKey && s.events === drawnEvents && !timedOut.length;
    if (appendOnly && s.events.length === drawnCount) return; // nothing new: no layout read either
    const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    if (appendOnly) {
      list.append(...s.events.slice(drawnCount).map((e) => line(game, seats, e)));
    } else {
      const lines = s.events.map((e) => line(game, seats, e));
      // The table's own lines: a seat whose time ran out, after the last event of the moves
      // played by then (each event carries its move's number).
      for (const x of timedOut.sort((a, b) => b.timed_out - a.timed_out)) {
        const at = s.events.findLastIndex((e) => (e.number ?? 0) <= x.timed_out) + 1;
        lines.splice(at, 0, h("li", { class: "table-line", dataset: { key: "table.timed_out_log", seat: x.seat } },
          seatBadge(x.seat, 14), h("span", {}, t("table.timed_out_log", { name: x.username || seatName(seats, x.seat) }))));
      }
      clear(list, lines);
    }
    drawnKey = key;
    drawnEvents = s.events;
    drawnCount = s.events.length;
    if (nearBottom) list.scrollTop = list.scrollHeight;
  }

  return { element, draw };
}
