// The players: each seat's name, badge, score, whose turn it is, bot or resigned, online
// or not, and its clock; then how many watch.
import { clear, h } from "../dom.js";
import { seatName } from "../gamemodule.js";
import { signed, t } from "../i18n.js";
import { seatRating } from "../ratings.js";
import { seatBadge, seatStyle } from "../seats.js";
import { clockIcon, clockText, tickClocks } from "./clocks.js";

export function playersPanel(page) {
  const { store } = page;
  const s = store.state;
  const element = h("section", { class: "panel", id: "seats-panel" });

  function draw() {
    const seats = store.seats();
    const scores = s.result ? s.result.scores : store.moduleScores();
    const resigned = store.resigned();
    clear(element, h("h2", {}, t("table.seats")), h("div", { class: "seats" }, seats.map((x) => {
      // Every seat's clock, bots' too: a seat with no time counting (a bot, a turn-based
      // seat not deciding) shows a dash.
      const clock = clockText(s, x.seat) || { text: "–:––", low: false, idle: true };
      const toMove = s.pending.includes(x.seat) && s.table.status === "playing";
      return h("div", {
        class: ["seat", toMove && "to-move"], dataset: { seat: x.seat },
        style: { borderLeftColor: seatStyle(x.seat).colour },
        "aria-label": `${seatName(seats, x.seat)}${toMove ? ` — ${t("table.to_move")}` : ""}`,
      },
      seatBadge(x.seat, 22),
      h("span", { class: "name" }, seatName(seats, x.seat), s.yourSeats.includes(x.seat) ? ` (${t("table.you")})` : "",
        x.username && !x.bot ? seatRating(x.username, s.table.game, draw) : null),
      scores && scores[x.seat] !== undefined ? h("span", { class: "score", title: t("table.score") }, signed(scores[x.seat])) : h("span"),
      h("span", { class: "meta" },
        toMove ? h("span", { class: "turn" }, "▶ ", t("table.to_move")) : null,
        x.bot ? h("span", {}, t("seat.bot")) : null,
        resigned.includes(x.seat) ? h("span", { class: "resigned" }, t("seat.resigned")) : x.zombie ? h("span", {}, t("seat.zombie")) : null,
        x.connected !== undefined && !x.bot ? h("span", {}, h("span", { class: ["dot", x.connected && "on"] }), t(x.connected ? "seat.online" : "seat.offline")) : null,
        s.table.status === "playing" ? h("span", { class: ["clock", clock.low && "low", clock.idle && "idle"], dataset: { clockSeat: x.seat },
          title: t(x.bot && clock.idle ? "table.clock_bot" : "table.clock") }, clockIcon(), h("span", { class: "clock-text" }, clock.text)) : null),
      resourceLine(x.seat));
    })), spectatorsLine());
  }

  // The seat's key resources, as the game module reads them from the view.
  function resourceLine(seat) {
    const items = store.moduleResources(seat);
    if (!items || !items.length) return null;
    return h("ul", { class: "resources", dataset: { seat } }, items.map((r) => h("li", { class: "resource", dataset: { res: r.key }, title: r.label },
      h("span", { class: "res-label" }, r.label), " ", h("b", { class: "res-value" }, String(r.value)))));
  }

  function spectatorsLine() {
    const n = s.table && (s.table.spectators ?? s.table.watchers);
    if (n === undefined || n === null) return null;
    const count = Array.isArray(n) ? n.length : n;
    if (!count) return null; // nobody watching: nothing to say
    return h("p", { class: "spectators" }, t("table.spectators", { n: count }));
  }

  // Clocks tick on screen between updates.
  const stopClocks = tickClocks(s, element);

  return { element, draw, destroy: stopClocks };
}
