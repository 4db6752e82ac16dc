// The players' clocks: each seat's time left, drawn in the seat panels and ticking on
// screen between updates (only their text changes).
import { svg } from "../dom.js";
import { t } from "../i18n.js";

// A clock face drawn inline: emoji clocks are missing from many system fonts.
export function clockIcon() {
  return svg("svg", { width: 12, height: 12, viewBox: "0 0 12 12", "aria-hidden": "true", class: "clock-icon" },
    svg("circle", { cx: 6, cy: 6, r: 5, fill: "none", stroke: "currentColor", "stroke-width": 1.4 }),
    svg("path", { d: "M6 3v3l2 1.5", fill: "none", stroke: "currentColor", "stroke-width": 1.4, "stroke-linecap": "round" }));
}

// A seat's clock now, from the table state's clocks and the time they came:
// { text, low } (low: little time left), or null when the seat has no clock.
export function clockText(s, seat) {
  const c = s.clocks && (s.clocks.seats || []).find((x) => x.seat === seat);
  if (!c) return null;
  const passed = c.running ? Date.now() - s.clocksAt : 0;
  if (c.remaining_ms !== undefined && c.remaining_ms !== null) {
    const ms = Math.max(0, c.remaining_ms - passed);
    const total = Math.ceil(ms / 1000);
    return { text: `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`, low: c.running && ms < 30000 };
  }
  if (c.deadline_ms) {
    const ms = Math.max(0, c.deadline_ms - (s.clocks.now_ms || 0) - passed);
    const hours = Math.floor(ms / 3600000);
    const minutes = Math.floor((ms % 3600000) / 60000);
    return { text: t("clock.left", { time: hours ? `${hours}h ${minutes}m` : `${minutes}m` }), low: ms < 3600000 };
  }
  return null;
}

// Makes the clocks drawn in `box` tick every second; returns the function that stops them.
export function tickClocks(s, box) {
  const ticker = setInterval(() => {
    if (!s.clocks) return;
    for (const el of box.querySelectorAll("[data-clock-seat]")) {
      const c = clockText(s, Number(el.dataset.clockSeat));
      if (c) {
        el.querySelector(".clock-text").textContent = c.text;
        el.classList.toggle("low", c.low);
      }
    }
  }, 1000);
  return () => clearInterval(ticker);
}
