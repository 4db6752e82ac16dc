// The post-game review on the replay page: ask for one seat's review, follow
// its progress, then a chart over the game (expected final points of each seat, or the
// reviewed seat's win chance at two seats) whose points jump the replay to their
// decision, the move played against the bot's preferred one at the current step (in
// words, and marked on the board: the replay draws the board with the two moves and the
// kit's markMoves outlines them, this panel's legend says which is which), the list of
// the seat's mistakes with their loss, and the summary. Our own SVG, no library. The
// chart has a text alternative: the table of decisions below it (and its aria-label).
import { ApiError, request } from "../api.js";
import { MARK_STYLE, moveKey } from "../board.js";
import { clear, h, svg } from "../dom.js";
import { t } from "../i18n.js";
import { session } from "../session.js";
import { seatShape, seatStyle } from "../seats.js";

const enc = encodeURIComponent;
const W = 600;
const H = 220;
const PAD = { left: 44, right: 12, top: 12, bottom: 24 };
const LABEL_COLOUR = { good: "#2e7d32", inaccuracy: "#b58900", mistake: "#d55e00", blunder: "#b00020" };
const POLL_MS = 1000;

// `redraw()`: the replay draws its step again (the review arrived, or another seat's);
// `setPov(seat)`: the replay shows the game from that seat's point of view.
export function reviewPanel({ tableId, table, seats, seatName, label, go, pov, redraw = () => {}, setPov = () => {} }) {
  const r = { seat: null, data: null, timer: null, step: 0, own: [], shown: { onBoard: new Set(), marked: false, pov } };
  const heading = h("h2", { id: "review-h" });
  const seatSelect = h("select", { id: "review-seat", onchange: () => choose(Number(seatSelect.value)) });
  const seatLabel = h("label", { for: "review-seat", id: "review-seat-label" });
  const ask = h("button", { type: "button", id: "review-request", class: "primary", onclick: () => requestReview() });
  const status = h("p", { id: "review-status", class: "muted", "aria-live": "polite" });
  const bar = h("progress", { id: "review-progress", max: 100, value: 0, hidden: true });
  const summary = h("p", { id: "review-summary", class: "review-summary" });
  const chart = h("div", { id: "review-chart", class: "review-chart" });
  const here = h("p", { id: "review-here", class: "review-here", "aria-live": "polite" });
  // The key to the board's marks, which the replay puts right above its board (on a phone
  // the panel's line is screens away from it).
  const legend = h("p", { id: "review-legend", class: "review-legend small", hidden: true });
  const mistakesH = h("h3", { id: "review-mistakes-h" });
  const mistakes = h("ul", { id: "review-mistakes", class: "review-mistakes" });
  const details = h("details", { id: "review-table-box" }, h("summary", { id: "review-table-summary" }),
    h("div", { class: "review-table-wrap" }, h("table", { id: "review-table", class: "review-table" })));
  const result = h("div", { id: "review-result", hidden: true }, summary, chart, here, mistakesH, mistakes, details);
  const element = h("section", { class: "panel review", id: "review", "aria-labelledby": "review-h" },
    heading, h("div", { class: "row review-ask" }, seatLabel, seatSelect, ask), status, bar, result);

  function allSeats() {
    return seats().map((x) => x.seat);
  }

  // Who may ask for which seat: a player for their own seats; at a public table anyone
  // signed in for any seat (the server checks it again).
  function askable(seat) {
    if (!session.user) return false;
    return !table.private || r.own.includes(seat);
  }

  function labels() {
    heading.textContent = t("review.title");
    seatLabel.textContent = t("review.seat");
    clear(seatSelect, allSeats().map((s) => h("option", { value: s, selected: s === r.seat }, seatName(s))));
    ask.textContent = r.own.includes(r.seat) ? t("review.request") : t("review.request_seat", { name: seatName(r.seat) });
    ask.hidden = Boolean(r.data && r.data.status !== "failed") || !askable(r.seat);
    mistakesH.textContent = t("review.mistakes");
    details.querySelector("summary").textContent = t("review.table");
    drawStatus();
    if (r.data && r.data.status === "done") drawReview(r.data.review);
  }

  function drawStatus() {
    const d = r.data;
    bar.hidden = !d || (d.status !== "queued" && d.status !== "running");
    if (!d) {
      status.textContent = "";
      return;
    }
    if (d.status === "queued") status.textContent = t("review.queued");
    else if (d.status === "running") status.textContent = t("review.running", { percent: d.percent });
    else if (d.status === "failed") status.textContent = t("review.failed");
    else status.textContent = t("review.decisions", { n: d.review.summary.decisions });
    bar.value = d.percent || 0;
    result.hidden = d.status !== "done";
  }

  async function load() {
    stopPolling();
    const wasDone = Boolean(r.data && r.data.status === "done");
    try {
      r.data = await request("GET", `/api/tables/${enc(tableId)}/reviews/${enc(r.seat)}`);
    } catch (e) {
      r.data = null;
      if (!(e instanceof ApiError) || e.status !== 404) status.textContent = e.message;
    }
    labels();
    if (r.data && (r.data.status === "queued" || r.data.status === "running")) poll();
    if (wasDone !== Boolean(r.data && r.data.status === "done")) redraw(); // the board's marks come or go
  }

  function poll() {
    r.timer = setTimeout(load, POLL_MS);
  }

  function stopPolling() {
    clearTimeout(r.timer);
    r.timer = null;
  }

  async function requestReview() {
    ask.disabled = true;
    try {
      r.data = await request("POST", `/api/tables/${enc(tableId)}/reviews`, { seat: r.seat });
      labels();
      if (r.data.status !== "done") poll();
    } catch (e) {
      status.textContent = e.message;
    } finally {
      ask.disabled = false;
    }
  }

  // A seat's review is seen from what that seat saw: the replay follows it.
  function choose(seat) {
    r.seat = seat;
    r.data = null;
    result.hidden = true;
    setPov(seat);
    load();
  }

  function done() {
    return r.data && r.data.status === "done" ? r.data.review : null;
  }

  function decisionAt(step) {
    const review = done();
    return (review && review.decisions.find((x) => x.index === step)) || null;
  }

  // What the replay's board is drawn with at a judged decision: the two moves as its
  // legal ones (inert: the replay plays nothing) and their marks.
  function boardMarks(d) {
    const same = sameMove(d.played, d.best);
    return {
      legal: same ? [d.played] : [d.played, d.best],
      marks: same ? [{ move: d.played, kind: "both", text: t("review.mark_both") }]
        : [{ move: d.played, kind: "played", text: t("review.played") }, { move: d.best, kind: "best", text: t("review.best") }],
      both: t("review.mark_both"),
    };
  }

  function lossText(d) {
    return t("review.loss_value", { points: d.loss_points.toFixed(1), rank: d.loss_rank.toFixed(2) });
  }

  function drawReview(review) {
    const s = review.summary;
    summary.textContent = t("review.summary", { inaccuracies: s.inaccuracy, mistakes: s.mistake, blunders: s.blunder, accuracy: Math.round(s.accuracy) });
    drawChart(review);
    const bad = review.decisions.filter((d) => d.label === "mistake" || d.label === "blunder" || d.label === "inaccuracy");
    clear(mistakes, bad.length ? bad.map((d) => h("li", {},
      h("button", { type: "button", class: `review-jump label-${d.label}`, "data-index": d.index, "data-label": d.label, title: t("review.jump", { n: d.index + 1 }), onclick: () => go(d.index) },
        h("strong", {}, t(`review.label.${d.label}`)), " ",
        h("span", {}, t("review.point_of", { n: d.index + 1, played: label(d.played, d), best: label(d.best, d), loss: lossText(d) }))))) :
      [h("li", { class: "muted" }, t("review.no_mistakes"))]);
    const rows = review.decisions.map((d) => h("tr", { "data-index": d.index },
      h("td", {}, String(d.index + 1)), h("td", {}, label(d.played, d)), h("td", {}, label(d.best, d)),
      h("td", {}, lossText(d)), h("td", {}, t(`review.label.${d.label}`))));
    clear(details.querySelector("table"),
      h("thead", {}, h("tr", {}, ["review.move", "review.played", "review.best", "review.loss", "review.verdict"].map((k) => h("th", { scope: "col" }, t(k))))),
      h("tbody", {}, rows));
    showHere();
  }

  // The series: at two seats the reviewed seat's win chance (0 to 100%); otherwise every
  // seat's expected final points after the move played.
  function drawChart(review) {
    const decisions = review.decisions;
    const two = review.seats === 2;
    const seatsShown = two ? [review.seat] : allSeats();
    const value = (d, s) => (two ? 100 * d.after_played.wins[s] : d.after_played.points[s]);
    let low = two ? 0 : Infinity;
    let high = two ? 100 : -Infinity;
    if (!two) {
      for (const d of decisions) for (const s of seatsShown) { low = Math.min(low, value(d, s)); high = Math.max(high, value(d, s)); }
      if (!Number.isFinite(low)) { low = 0; high = 1; }
      if (high - low < 1) high = low + 1;
    }
    const n = Math.max(1, decisions.length - 1);
    const x = (i) => PAD.left + ((W - PAD.left - PAD.right) * i) / n;
    const y = (v) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - (v - low) / (high - low));
    const title = two ? t("review.chart_win", { name: seatName(review.seat) }) : t("review.chart_points");
    const s = review.summary;
    const alt = `${title}. ${t("review.summary", { inaccuracies: s.inaccuracy, mistakes: s.mistake, blunders: s.blunder, accuracy: Math.round(s.accuracy) })}`;
    const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "group", "aria-label": alt, class: "review-svg" },
      svg("title", {}, alt));
    // Axes and the scale's ends.
    box.append(svg("line", { x1: PAD.left, y1: y(low), x2: W - PAD.right, y2: y(low), stroke: "#888" }),
      svg("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom, stroke: "#888" }),
      svg("text", { x: PAD.left - 4, y: y(high) + 4, "text-anchor": "end", "font-size": 16, fill: "currentColor" }, two ? "100%" : String(Math.round(high))),
      svg("text", { x: PAD.left - 4, y: y(low), "text-anchor": "end", "font-size": 16, fill: "currentColor" }, two ? "0%" : String(Math.round(low))));
    if (two) box.append(svg("line", { x1: PAD.left, y1: y(50), x2: W - PAD.right, y2: y(50), stroke: "#bbb", "stroke-dasharray": "4 4" }));
    for (const seat of seatsShown) {
      const points = decisions.map((d, i) => `${x(i).toFixed(1)},${y(value(d, seat)).toFixed(1)}`).join(" ");
      box.append(svg("polyline", { points, fill: "none", stroke: seatStyle(seat).colour, "stroke-width": seat === review.seat ? 3 : 1.5, "data-seat": seat }));
    }
    // The replay's position, under the markers and never in the way of a click.
    r.cursor = svg("line", { id: "review-cursor", x1: 0, x2: 0, y1: PAD.top, y2: H - PAD.bottom, stroke: "#444", "stroke-width": 1, "stroke-dasharray": "2 3", visibility: "hidden", "pointer-events": "none" });
    box.append(r.cursor);
    // One marker per decision on the reviewed seat's line: its seat shape, larger and
    // ringed in the label's colour where the move lost something. Each is a link to the
    // decision (click, or Enter / Space on the focused marker).
    decisions.forEach((d, i) => {
      const cx = x(i);
      const cy = y(value(d, review.seat));
      const marked = d.label !== "good";
      const text = t("review.chart_point", { n: d.index + 1, name: seatName(review.seat), value: two ? `${Math.round(value(d, review.seat))}%` : value(d, review.seat).toFixed(1) })
        + (marked ? ` · ${t(`review.label.${d.label}`)}` : "");
      const point = svg("g", { class: `review-point label-${d.label}`, tabindex: marked ? 0 : -1, role: "button", "aria-label": text, "data-index": d.index, "data-label": d.label,
        onclick: () => go(d.index), onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(d.index); } } },
        svg("title", {}, text),
        // An invisible disc widens what a finger can hit.
        svg("circle", { cx, cy, r: 12, fill: "transparent" }));
      if (marked) point.append(svg("circle", { cx, cy, r: 8, fill: "none", stroke: LABEL_COLOUR[d.label], "stroke-width": 3 }));
      point.append(seatShape(review.seat, cx, cy, marked ? 5 : 3));
      box.append(point);
    });
    r.x = (index) => {
      const i = decisions.findIndex((d) => d.index >= index);
      return i < 0 ? null : x(i);
    };
    clear(chart, h("p", { class: "small muted", id: "review-chart-title" }, title), box);
    placeCursor();
  }

  function placeCursor() {
    if (!r.cursor || !r.x) return;
    const at = r.x(r.step);
    r.cursor.setAttribute("visibility", at === null ? "hidden" : "visible");
    if (at !== null) { r.cursor.setAttribute("x1", at); r.cursor.setAttribute("x2", at); }
  }

  // At a step where the reviewed seat decided: what it played and what the bot preferred,
  // each with the look of its mark on the board (the legend), or why it has none there.
  function showHere() {
    const d = decisionAt(r.step);
    for (const el of element.querySelectorAll(".review-point.current, .review-jump.current")) el.classList.remove("current");
    legend.replaceChildren();
    legend.hidden = !d || !r.shown.marked;
    if (!d) {
      here.replaceChildren();
      here.hidden = true;
      placeCursor();
      return;
    }
    here.hidden = false;
    for (const el of element.querySelectorAll(`[data-index="${d.index}"]`)) el.classList.add("current");
    const same = sameMove(d.played, d.best);
    const seen = r.shown.marked;
    const where = (kind) => (seen && !r.shown.onBoard.has(kind) ? [" ", h("span", { class: "muted small" }, `(${t("review.off_board")})`)] : []);
    clear(here, h("strong", { class: `label-${d.label}` }, t(`review.label.${d.label}`)), " ",
      h("span", { id: "review-here-played", class: "review-legend-item" }, seen ? swatch(same ? "both" : "played") : null,
        `${t("review.played")}: ${label(d.played, d)}`, ...where("played")), " · ",
      h("span", { id: "review-here-best", class: "review-legend-item" }, seen ? swatch(same ? "both" : "best") : null,
        `${t("review.best")}: ${label(d.best, d)}`, ...where("best")), " · ",
      h("span", {}, `${t("review.loss")}: ${lossText(d)}`),
      seen || r.shown.pov === d.seat ? null : h("span", { class: "review-other-pov" }, h("br"), h("span", { class: "muted small" }, t("review.other_pov")), " ",
        h("button", { type: "button", id: "review-show-pov", onclick: () => setPov(d.seat) }, t("review.show_pov", { name: seatName(d.seat) }))));
    if (seen) {
      legend.append(h("strong", {}, `${t("review.legend")} `),
        h("span", { class: "review-legend-item", "data-kind": same ? "both" : "played" }, swatch(same ? "both" : "played"),
          `${t(same ? "review.mark_both" : "review.played")}: ${label(d.played, d)}`, ...where("played")), " ",
        same ? null : h("span", { class: "review-legend-item", "data-kind": "best" }, swatch("best"),
          `${t("review.best")}: ${label(d.best, d)}`, ...where("best")));
    }
    placeCursor();
  }

  async function init() {
    try {
      const listing = await request("GET", `/api/tables/${enc(tableId)}/reviews`);
      r.own = listing.own || [];
    } catch {
      r.own = [];
    }
    r.seat = pov !== null && pov !== undefined ? pov : (r.own.length ? r.own[0] : 0);
    await load();
  }

  init();
  return {
    element,
    legend,
    // `shown`: whether the board was drawn with this step's marks, the kinds of mark it
    // holds ("played", "best"), and its point of view.
    step: (step, shown) => { r.step = step; if (shown) r.shown = shown; showHere(); },
    decisionAt,
    boardMarks,
    relabel: labels,
    unmount: stopPolling,
  };
}

// Whether two moves are one (the server's JSON of each may order the keys apart).
function sameMove(a, b) {
  const norm = (v) => (v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, norm(v[k])])) : Array.isArray(v) ? v.map(norm) : v);
  return moveKey(norm(a)) === moveKey(norm(b));
}

// The legend's sample of a mark: the outline the board draws around the move.
function swatch(kind) {
  const ring = (style, inset) => svg("rect", { x: 2 + inset, y: 2 + inset, width: 26 - 2 * inset, height: 16 - 2 * inset, rx: 3, fill: "none",
    stroke: style.colour, "stroke-width": 2.5, ...(style.dash ? { "stroke-dasharray": "4 3" } : {}) });
  const box = svg("svg", { width: 30, height: 20, viewBox: "0 0 30 20", class: `review-swatch review-swatch-${kind}`, "aria-hidden": "true" });
  if (kind === "both") box.append(ring(MARK_STYLE.best, 0), ring(MARK_STYLE.played, 4));
  else box.append(ring(MARK_STYLE[kind], 0));
  return box;
}
