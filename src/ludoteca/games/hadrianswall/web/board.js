// Hadrian's Wall: the two sheets of a seat drawn box by box (sheet A, the wall and the
// fort; sheet B, the town), the reader's supply, the year's fate card, the Pict attack,
// the two player cards to choose between, and the final scores.
//
// The printed parts of the sheets (every section and box, its payments, rewards and
// unlocks) come from `view.layout`, so nothing of the game's data is repeated here. A box
// is drawn filled (with the year), fillable now (highlighted: a click plays its `fill`
// move, or opens a small chooser when the box can be paid in several ways), or not,
// with the reason in its tooltip. Follow-up decisions point at the sheet where they can
// (the next box of a cohort or an attribute track, a cell of the scouting map); the rest
// (sources of a trade good or a pattern, forum gains, favours) sit in a bar of buttons
// above the sheets. Every element that plays a move carries it as JSON in `data-move`.
import { boardState, choiceTarget, compactBelow, drawnWith, dropBoardState, focusArea, keepFocus, moveButton, moveTarget, part, tooltip } from "/js/board.js";
import { h, svg } from "/js/dom.js";
import { seatName } from "/js/gamemodule.js";
import { seatShape } from "/js/seats.js";
import { fit, textWidth } from "/js/svgtext.js";

const STOCK = ["soldiers", "builders", "servants", "civilians", "resources"];
const DIRS = ["left", "centre", "right"];
// Each kind of worker and the resources has a colour and a shape of its own, so a cost
// reads without colour too; the supply panel doubles as the legend.
const PIP = {
  soldiers: { colour: "#D55E00", shape: "triangle" },
  builders: { colour: "#0072B2", shape: "square" },
  servants: { colour: "#009E73", shape: "circle" },
  civilians: { colour: "#CC79A7", shape: "diamond" },
  resources: { colour: "#8c6d31", shape: "hexagon" },
};
const BOX = 24;
const STEP = 27;
const PAD = 12;

// Where each section sits: lines of sections, as on the printed sheets (sheet A: the
// cohorts on top, the wall guard, the fort over the wall over the palisade, mining and
// production, the buildings, the landmarks, the four attribute tracks; sheet B: each
// citizen track beside the buildings it unlocks). `group` leaves a gap every n boxes
// (the wall's and the wall guard's sections); `spread` spaces boxes under a longer row.
const SHEETS = {
  A: [
    [["cohort_left"], ["cohort_centre"], ["cohort_right"]],
    [["wall_guard", { group: 6 }]],
    [["fort", { group: 7 }]],
    [["wall", { group: 7 }]],
    [["palisade", { spread: 3, group: 7 }]],
    [["mining"], ["production"]],
    [["granary"], ["inn"], ["workshop"], ["road"], ["training_grounds"], ["forum"]],
    [["archway"], ["monolith"], ["column"], ["statue"], ["__disdain"]],
    [["renown"]], [["piety"]], [["valour"]], [["discipline"]],
  ],
  B: [
    [["traders"], ["precinct"], ["market"], ["goods"]],
    [["performers"], ["theatre"], ["performances"], ["arena"]],
    [["gladiator_1"], ["gladiator_2"]],
    [["priests"], ["gardens"], ["temples"]],
    [["small_temple"], ["medium_temple"], ["large_temple"]],
    [["apparitors"], ["baths"], ["bribes"], ["courthouse"]],
    [["court_1"], ["court_2"], ["court_3"]],
    [["patricians"], ["diplomats"], ["scouts"], ["__map"]],
  ],
};

// The box whose payment chooser is open and the seat whose sheets are shown, kept by the
// board kit across redraws.
const freshUi = () => ({ select: null, viewSeat: null });

// The disdain penalty of the printed table; its last entry holds for any more disdain.
function penaltyOf(view, disdain) {
  const table = (view.layout && view.layout.disdain_penalty) || [0];
  return table[Math.min(disdain || 0, table.length - 1)];
}
const cardName = (id) => (id ? id.slice(id.indexOf("-") + 1) : "");
const fateNo = (id) => String(id).split("-").pop();

// -- small drawing helpers ------------------------------------------------------------------

function label(x, y, text, size = 10, attrs = {}) {
  return svg("text", { x, y, "font-size": size, fill: "#2b2118", "pointer-events": "none", ...attrs }, text);
}

function pip(kind, x, y, r, attrs = {}) {
  const { colour, shape } = PIP[kind] || { colour: "#777", shape: "circle" };
  const base = { fill: colour, stroke: "#1b1b1b", "stroke-width": 0.6, "pointer-events": "none", ...attrs };
  if (shape === "circle") return svg("circle", { cx: x, cy: y, r, ...base });
  if (shape === "square") return svg("rect", { x: x - r * 0.9, y: y - r * 0.9, width: r * 1.8, height: r * 1.8, ...base });
  const pts = {
    triangle: [[0, -1.15], [1.05, 0.8], [-1.05, 0.8]],
    diamond: [[0, -1.2], [1.1, 0], [0, 1.2], [-1.1, 0]],
    hexagon: [[1, 0], [0.5, 0.9], [-0.5, 0.9], [-1, 0], [-0.5, -0.9], [0.5, -0.9]],
  }[shape];
  return svg("polygon", { points: pts.map(([a, b]) => `${(x + a * r).toFixed(1)},${(y + b * r).toFixed(1)}`).join(" "), ...base });
}

// "servants+builders+resources+resources" -> {servants: 1, builders: 1, resources: 2}
function parsePay(label) {
  const out = {};
  if (!label || label === "free") return out;
  for (const part of label.split("+")) out[part] = (out[part] || 0) + 1;
  return out;
}

function payText(label, t) {
  const cost = parsePay(label);
  // Japanese puts the count after the noun ("建築家1、従僕1").
  const parts = STOCK.filter((k) => cost[k]).map((k) => t("hw.ui.pay_part", { n: cost[k], what: t(`hw.stock${cost[k] === 1 ? "_one" : ""}.${k}`) }));
  return parts.length ? parts.join(t("hw.ui.list_sep")) : t("hw.ui.free");
}

function rewardText(token, t) {
  if (STOCK.includes(token)) return t(`hw.stock.${token}`);
  if (["renown", "piety", "valour", "discipline"].includes(token)) return t(`hw.attr.${token}`);
  if (["traders", "performers", "priests", "apparitors", "patricians"].includes(token)) return t(`hw.section.${token}`);
  return t(`hw.reward.${token}`);
}

function pipsRow(cost, x, y, r, step) {
  const out = [];
  let i = 0;
  for (const k of STOCK) for (let n = 0; n < (cost[k] || 0); n++) out.push(pip(k, x + (i++) * step, y, r));
  return out;
}

function button(text, move, ctx, extra = {}) {
  return moveButton(move, ctx, { class: "hw-btn", ...extra }, text);
}

// -- what the legal moves point at ---------------------------------------------------------

function targets(ctx) {
  const fills = new Map(); // box id -> [moves]
  const nextBox = new Map(); // section id -> move (cohort, attribute)
  const cells = new Map(); // map cell -> place move
  const choose = new Map(); // card id -> move
  const bar = [];
  let endYear = null;
  for (const m of ctx.legal) {
    if (m.type === "fill") {
      if (!fills.has(m.box)) fills.set(m.box, []);
      fills.get(m.box).push(m);
    } else if (m.type === "cohort") nextBox.set(`cohort_${m.cohort}`, m);
    else if (m.type === "attribute") nextBox.set(m.attribute, m);
    else if (m.type === "place") cells.set(Math.min(...m.cells), m);
    else if (m.type === "choose") choose.set(m.guideline, m);
    else if (m.type === "end_year") endYear = m;
    else bar.push(m);
  }
  return { fills, nextBox, cells, choose, bar, endYear };
}

// -- a sheet ---------------------------------------------------------------------------------

function lockText(lock, t) {
  return lock.map(([sec, n]) => t("hw.ui.lock_item", { section: t(`hw.section.${sec}`), n })).join(", ");
}

function boxTitle(sec, box, pos, state, ctx, player) {
  const { t } = ctx;
  const lines = [t("hw.ui.box_title", { section: t(`hw.section.${sec.id}`), n: pos + 1 })];
  if (!sec.earned) lines.push(t("hw.ui.cost", { cost: box.pay.map((p) => payText(p, t)).join(t("hw.ui.or")) }));
  if (box.reward) lines.push(t("hw.ui.reward", { reward: box.reward.map((r) => rewardText(r, t)).join(", ") }));
  if (box.lock) lines.push(t("hw.ui.needs", { what: lockText(box.lock, t) }));
  if (state === "filled") lines.push(t("hw.ui.filled_in", { year: player.filled[box.id] }));
  else if (state === "legal") lines.push(t("hw.why.open"));
  else if (state && state !== "empty") lines.push(t(`hw.why.${state}`));
  return lines.join("\n");
}

function sectionSize(sec, opts, maxW) {
  const spread = opts.spread || 1;
  const n = sec.boxes.length;
  const perRow = Math.max(1, Math.floor((maxW - 2 * PAD + (STEP - BOX)) / STEP));
  const groupGap = opts.group ? 6 : 0;
  if (n * spread <= perRow) {
    const groups = opts.group ? Math.floor((n * spread - 1) / opts.group) : 0;
    return { w: (n - 1) * STEP * spread + BOX + groups * groupGap, rows: 1, perRow: n, spread };
  }
  // Too long for the sheet's width (a phone): boxes wrap, side by side, without gaps.
  return { w: Math.min(n, perRow) * STEP - (STEP - BOX), rows: Math.ceil(n / perRow), perRow, spread: 1 };
}

function drawSection(sec, opts, x, y, ctx, tg, ui, player, own, parts) {
  const { t } = ctx;
  const { perRow, spread } = sectionSize(sec, opts, ui.W);
  const title = t(`hw.section.${sec.id}`) + (sec.per_year ? " #" : "");
  const g = svg("g", { class: "hw-section", "data-section": sec.id });
  g.append(label(x, y + 9, title, 9.5, { "font-weight": 600, fill: "#4a3826" }));
  const count = sec.boxes.filter((b) => player.filled[b.id]).length;
  sec.boxes.forEach((box, pos) => {
    const row = Math.floor(pos / perRow);
    const col = pos % perRow;
    const groups = opts.group && perRow === sec.boxes.length ? Math.floor((col * spread) / opts.group) : 0;
    const bx = x + col * STEP * spread + groups * 6;
    const by = y + 13 + row * (BOX + 4);
    let state = "empty";
    let moves = null;
    if (player.filled[box.id]) state = "filled";
    else if (own) {
      moves = tg.fills.get(box.id) || null;
      const next = tg.nextBox.get(sec.id);
      if (next && pos === count) moves = [next];
      if (moves) state = "legal";
      else if (player.blocked && player.blocked[box.id]) state = player.blocked[box.id];
    }
    const cell = part(svg("g", { class: `hw-box hw-${state === "filled" || state === "legal" ? state : "empty"}`, "data-box": box.id }),
      `players/${player.seat}/filled/${box.id}`);
    cell.append(svg("title", {}, boxTitle(sec, box, pos, state, ctx, player)));
    const fill = state === "filled" ? "#5b4636" : state === "legal" ? "#ffe38a" : sec.earned ? "#f3ecdc" : "#fffdf7";
    cell.append(svg("rect", {
      class: "hw-face", x: bx, y: by, width: BOX, height: BOX, rx: 3, fill,
      stroke: state === "legal" ? "#b8860b" : "#6b5a45", "stroke-width": state === "legal" ? 2.4 : box.large ? 2 : 1,
    }));
    if (box.large) cell.append(svg("rect", { x: bx + 2.5, y: by + 2.5, width: BOX - 5, height: BOX - 5, rx: 2, fill: "none", stroke: state === "filled" ? "#d8c8a8" : "#a08a68", "stroke-width": 0.7, "pointer-events": "none" }));
    if (state === "filled") {
      cell.append(label(bx + BOX / 2, by + 16.5, String(player.filled[box.id]), 12, { "text-anchor": "middle", fill: "#fff", "font-weight": 700 }));
    } else {
      if (!sec.earned && box.pay.length) {
        const cost = parsePay(box.pay[0]);
        const n = Object.values(cost).reduce((a, b) => a + b, 0);
        const step = n > 4 ? 4 : 5.2;
        cell.append(...pipsRow(cost, bx + BOX / 2 - ((n - 1) * step) / 2, by + BOX - 6.5, 2.3, step));
        if (box.pay.length > 1) cell.append(label(bx + BOX - 3, by + 9, "/", 9, { "text-anchor": "end", fill: "#6b5a45", "font-weight": 700 }));
      }
      if (box.lock && state !== "legal") {
        // The flag of a locked box, as on the printed sheet: the largest count its unlock
        // needs (the citizens or fort boxes; the building itself needs only 1).
        const least = Math.max(...box.lock.map(([, n]) => n));
        cell.append(label(bx + 2.5, by + 9, String(least), 9, { fill: "#9a3b22", "font-weight": 700 }));
      }
    }
    if (box.reward) cell.append(svg("path", { d: `M${bx + BOX - 6},${by} L${bx + BOX},${by} L${bx + BOX},${by + 6} Z`, fill: state === "filled" ? "#d6b25e" : "#c9962b", "pointer-events": "none" }));
    if (state === "legal" && moves) {
      if (moves.length === 1) moveTarget(cell, moves[0], ctx, moveLabel(moves[0], ctx), "hw-legal");
      else {
        choiceTarget(cell, `box:${box.id}`, t("hw.ui.choose_pay", { box: t("hw.ui.box_title", { section: t(`hw.section.${sec.id}`), n: pos + 1 }) }), "hw-legal", () => {
          ui.select = ui.select === box.id ? null : box.id; // a second click closes it
          ui.redraw();
        }, moves);
      }
    }
    g.append(cell);
    if (ui.select === box.id && moves && moves.length > 1) parts.push({ moves, x: bx, y: by + BOX + 2, sec, pos });
  });
  return g;
}

function drawDisdain(x, y, ctx, player) {
  const { t } = ctx;
  const g = part(svg("g", { class: "hw-disdain" }), `players/${player.seat}/disdain`);
  g.append(label(x, y + 9, t("hw.ui.disdain_track"), 9.5, { "font-weight": 600, fill: "#7a1f12" }));
  const bribes = Math.max(0, player.disdain - player.final_disdain);
  for (let i = 0; i < 15; i++) {
    const bx = x + (i % 8) * 16;
    const by = y + 13 + Math.floor(i / 8) * 13;
    const on = i < player.disdain;
    g.append(svg("rect", { x: bx, y: by, width: 13, height: 11, rx: 2, fill: on ? "#b5452f" : "#fff", stroke: "#7a1f12", "stroke-width": 0.8 }));
    if (on && i < bribes) g.append(svg("path", { d: `M${bx + 2},${by + 2} L${bx + 11},${by + 9} M${bx + 11},${by + 2} L${bx + 2},${by + 9}`, stroke: "#fff", "stroke-width": 1.5 }));
  }
  g.append(svg("title", {}, t("hw.ui.disdain", { n: player.final_disdain, p: penaltyOf(ctx.view, player.final_disdain) })));
  return { g, w: 8 * 16, h: 13 + 26 };
}

function drawMap(x, y, ctx, tg, player, own) {
  const { t, view } = ctx;
  const { rows, cols, rewards } = view.layout.map;
  const S = 20;
  const g = svg("g", { class: "hw-map" });
  g.append(label(x, y + 9, t("hw.ui.map"), 9.5, { "font-weight": 600, fill: "#4a3826" }));
  const mapped = new Set(player.map || []);
  for (let i = 0; i < rows * cols; i++) {
    const cx = x + (i % cols) * S;
    const cy = y + 13 + Math.floor(i / cols) * S;
    const cell = svg("g", { class: "hw-cell", "data-cell": i });
    const move = own ? tg.cells.get(i) : null;
    cell.append(svg("rect", { class: "hw-face", x: cx, y: cy, width: S - 2, height: S - 2, fill: mapped.has(i) ? "#4f6b3a" : move ? "#ffe38a" : "#eef2e4", stroke: move ? "#b8860b" : "#6b7a55", "stroke-width": move ? 2 : 0.8 }));
    if (rewards[String(i)] && !mapped.has(i)) cell.append(pip(rewards[String(i)], cx + S / 2 - 1, cy + S / 2 - 1, 4));
    const reward = rewards[String(i)] ? rewardText(rewards[String(i)], t) : "";
    if (!move) tooltip(cell, t(mapped.has(i) ? "hw.ui.cell_mapped" : "hw.ui.cell", { n: i + 1, reward: reward || "—" }));
    if (move) {
      cell.append(svg("title", {}, t("hw.ui.place_here")));
      // The pattern's other cells show while the pointer is on its corner.
      cell.addEventListener("pointerenter", () => move.cells.forEach((c) => g.querySelector(`[data-cell="${c}"] rect`)?.setAttribute("fill", "#f4c430")));
      cell.addEventListener("pointerleave", () => move.cells.forEach((c) => g.querySelector(`[data-cell="${c}"] rect`)?.setAttribute("fill", tg.cells.has(c) ? "#ffe38a" : "#eef2e4")));
      moveTarget(cell, move, ctx, t("hw.ui.place_cells", { cells: move.cells.map((c) => c + 1).join(t("hw.ui.list_sep")) }), "hw-legal");
    }
    g.append(cell);
  }
  return { g, w: cols * S, h: 13 + rows * S };
}

function drawSheet(letter, ctx, tg, ui, player, own) {
  const { t, view } = ctx;
  const W = ui.W;
  const secs = new Map(view.layout.sections.map((s) => [s.id, s]));
  const body = [];
  const choosers = [];
  let y = 30;
  for (const line of SHEETS[letter]) {
    let x = PAD;
    let rowH = 0;
    for (const [id, opts = {}] of line) {
      let w;
      let hgt;
      let el;
      if (id === "__disdain") ({ g: el, w, h: hgt } = drawDisdain(0, 0, ctx, player));
      else if (id === "__map") ({ g: el, w, h: hgt } = drawMap(0, 0, ctx, tg, player, own));
      else {
        const sec = secs.get(id);
        if (!sec) continue;
        const size = sectionSize(sec, opts, W);
        // Bold lettering runs about a tenth wider than the estimate.
        w = Math.max(size.w, textWidth(t(`hw.section.${id}`) + (sec.per_year ? " #" : ""), 9.5) * 1.12);
        hgt = 13 + size.rows * (BOX + 4);
        el = null;
      }
      if (x > PAD && x + w > W - PAD) {
        x = PAD;
        y += rowH + 8;
        rowH = 0;
      }
      if (el) {
        el.setAttribute("transform", `translate(${x},${y})`);
        body.push(el);
      } else {
        body.push(drawSection(secs.get(id), opts, x, y, ctx, tg, ui, player, own, choosers));
      }
      x += w + 14;
      rowH = Math.max(rowH, hgt);
    }
    y += rowH + 8;
  }
  const H = y + 4;
  const heading = t(letter === "A" ? "hw.ui.sheet_a" : "hw.ui.sheet_b");
  const sheet = svg("svg", {
    class: `hw-sheet hw-sheet-${letter}`, viewBox: `0 0 ${W} ${H}`, role: "group", "aria-label": heading,
    style: { width: "100%", maxWidth: ui.compact ? "480px" : "900px", height: "auto" },
  });
  sheet.append(svg("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 8, fill: letter === "A" ? "#f7efdc" : "#f2eee2", stroke: "#7d6748", "stroke-width": 1.5 }));
  sheet.append(label(PAD, 20, heading, 13, { "font-weight": 700 }));
  sheet.append(...body);
  // The payment chooser floats above the sheet, next to its box.
  for (const { moves, x, y: cy, sec, pos } of choosers) {
    const rowH = 20;
    const wBox = Math.max(70, ...moves.map((m) => 24 + Object.values(parsePay(m.pay)).reduce((a, b) => a + b, 0) * 9));
    const px = Math.min(x, W - wBox - 4);
    const hgt = moves.length * rowH + 22;
    const top = cy;
    // Near the sheet's foot the chooser opens above its box instead.
    const cyAdj = top + hgt > H - 2 ? top - BOX - 4 - hgt : top;
    const g = svg("g", { class: "hw-chooser" });
    // Escape closes the chooser without paying.
    g.addEventListener("keydown", (e) => {
      if (e.key !== "Escape") return;
      ui.select = null;
      ui.redraw();
    });
    g.append(svg("rect", { x: px, y: cyAdj, width: wBox, height: hgt, rx: 5, fill: "#fff", stroke: "#3a2c1e", "stroke-width": 1.2, filter: "drop-shadow(0 2px 3px rgba(0,0,0,.3))" }));
    g.append(label(px + 6, cyAdj + 12, t("hw.ui.pay"), 9, { fill: "#4a3826" }));
    moves.forEach((m, i) => {
      const oy = cyAdj + 16 + i * rowH;
      const opt = svg("g", { class: "hw-pay" });
      opt.append(svg("rect", { class: "hw-face", x: px + 3, y: oy, width: wBox - 6, height: rowH - 3, rx: 3, fill: "#ffe38a", stroke: "#b8860b" }));
      opt.append(...pipsRow(parsePay(m.pay), px + 12, oy + rowH / 2 - 1.5, 3.4, 9));
      moveTarget(opt, m, ctx, t("hw.ui.pay_with", { box: t("hw.ui.box_title", { section: t(`hw.section.${sec.id}`), n: pos + 1 }), pay: payText(m.pay, t) }), "hw-legal");
      opt.append(svg("title", {}, payText(m.pay, t)));
      g.append(opt);
    });
    sheet.append(g);
  }
  return sheet;
}

// -- cards and panels --------------------------------------------------------------------------

function drawPattern(cells, x, y, s, colour = "#4f6b3a") {
  return cells.map(([r, c]) => svg("rect", { x: x + c * s, y: y + r * s, width: s - 1, height: s - 1, fill: colour, "pointer-events": "none" }));
}

function playerCard(cardId, ctx, role, move) {
  const { t, view } = ctx;
  const name = cardName(cardId);
  const data = view.layout.cards[name];
  const W = 190;
  const H = 134;
  const el = svg("svg", { class: "hw-card", viewBox: `0 0 ${W} ${H}`, width: W, height: H, "data-card": cardId });
  el.append(svg("rect", { class: "hw-face", x: 1, y: 1, width: W - 2, height: H - 2, rx: 7, fill: move ? "#fff6d6" : "#fffdf7", stroke: move ? "#b8860b" : "#7d6748", "stroke-width": move ? 2.5 : 1.2 }));
  if (role) el.append(label(9, 15, role, 11, { fill: "#7d6748", "font-weight": 600 }));
  // Names and goals fitted to the card (Japanese goals run long).
  const title = t(`hw.card.${name}`);
  el.append(label(9, 34, title, fit(title, W - 18, 15, { min: 11 }).size, { "font-weight": 700 }));
  if (data) {
    const goal = t(`hw.goal.${name}`);
    // Never under 11 px: a long goal takes a second line rather than shrinking.
    const aim = fit(goal, W - 18, 11, { min: 11, maxLines: 2 });
    const goalText = label(9, aim.lines.length > 1 ? 48 : 53, "", aim.size, { fill: "#4a3826" });
    goalText.append(...aim.lines.map((line, i) => svg("tspan", { x: 9, dy: i ? aim.size * 1.15 : 0 }, line)));
    el.append(goalText);
    el.append(label(9, 78, t("hw.ui.gift"), 11, { fill: "#7d6748" }));
    el.append(...pipsRow(data.gift, 16 + textWidth(t("hw.ui.gift"), 11), 74.5, 4.2, 11));
    el.append(label(9, 97, t("hw.ui.good", { n: data.good }), 11, { fill: "#7d6748" }));
    el.append(label(9, 118, t("hw.ui.pattern"), 11, { fill: "#7d6748" }));
    el.append(...drawPattern(view.layout.patterns[data.pattern] || [], 16 + textWidth(t("hw.ui.pattern"), 11), 106, 8));
  }
  tooltip(el, data ? `${title}: ${t(`hw.goal.${name}`)} · ${t("hw.ui.good", { n: data.good })}` : title);
  const wrapper = h("div", { class: "hw-cardwrap" }, el);
  if (move) moveTarget(wrapper, move, ctx, t("hw.ui.keep_guideline", { card: t(`hw.card.${name}`) }), "hw-legal");
  return wrapper;
}

function fateCard(id, ctx, heading) {
  const { t, view } = ctx;
  const data = view.layout.fate[fateNo(id)];
  const W = 170;
  const H = 134;
  const el = svg("svg", { class: "hw-fate", viewBox: `0 0 ${W} ${H}`, width: W, height: H });
  el.append(svg("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 7, fill: "#e9eef4", stroke: "#4b5f73", "stroke-width": 1.2 }));
  el.append(label(9, 18, heading, 11, { "font-weight": 700, fill: "#2d3e50" }));
  if (data) {
    el.append(...pipsRow(data.gain, 15, 40, 4.4, 11.5));
    el.append(label(9, 68, t("hw.ui.attacks", { dir: t(`hw.dir.${data.attack}`) }), 11, { fill: "#2d3e50", "font-weight": 600 }));
    el.append(label(9, 92, t("hw.ui.good", { n: data.good }), 11, { fill: "#2d3e50" }));
    el.append(label(9, 114, t("hw.ui.gladiator_damage", { n: data.gladiator }), 11, { fill: "#2d3e50" }));
    tooltip(el, [heading, t("hw.ui.attacks", { dir: t(`hw.dir.${data.attack}`) }), t("hw.ui.good", { n: data.good }),
      t("hw.ui.gladiator_damage", { n: data.gladiator })].join(" · "));
  } else {
    tooltip(el, heading);
  }
  return el;
}

function supplyPanel(ctx, player) {
  const { t, view } = ctx;
  const items = STOCK.map((k) => {
    const icon = svg("svg", { viewBox: "0 0 20 20", width: 18, height: 18 }, pip(k, 10, 10, 7));
    return part(h("span", { class: "hw-stock", "data-stock": k, title: t(`hw.stock.${k}`) }, icon, h("b", {}, String(player.stock[k])), " ", t(`hw.stock.${k}`)),
      `players/${player.seat}/stock/${k}`);
  });
  const penalty = penaltyOf(view, player.final_disdain);
  const goods = (player.goods || []).filter(Boolean);
  const favours = [t("hw.ui.temple_favours", { n: player.temple_favours }),
    ...DIRS.filter((d) => player.diplomat_favours[d]).map((d) => t("hw.ui.diplomat_favours", { dir: t(`hw.dir.${d}`), n: player.diplomat_favours[d] }))];
  const glads = (player.gladiators || []).map((g, i) => (g.strength ? t("hw.ui.gladiator", { n: i + 1, s: g.strength, d: g.damage }) : null)).filter(Boolean);
  return h("div", { class: "hw-panel hw-supply" },
    h("div", { class: "hw-stocks" }, items),
    h("div", { class: "hw-facts" },
      h("span", {}, t("hw.ui.goods", { goods: goods.length ? goods.join(" · ") : "—" })),
      h("span", {}, t("hw.ui.disdain", { n: player.final_disdain, p: penalty })),
      h("span", {}, favours.join(" · ")),
      glads.length ? h("span", {}, glads.join(" · ")) : null));
}

function picts(ctx, seatShown) {
  const { t, view } = ctx;
  if (!view.attack_cards || !view.attack_cards.length) return null;
  // During the attack the cards are this year's; once it is resolved the next year has
  // begun (or the game is over), and they stay on show with their outcome.
  const attacking = view.phase === "attack";
  const year = attacking || view.phase === "over" ? view.year : view.year - 1;
  const p = view.players[seatShown];
  const cards = view.attack_cards.map((id) => {
    const d = view.layout.fate[fateNo(id)];
    const dir = d ? d.attack : "";
    return h("span", { class: `hw-pict hw-pict-${dir}`, title: t("hw.ui.attacks", { dir: t(`hw.dir.${dir}`) }) },
      dir === "left" ? "◀ " : dir === "right" ? "▶ " : "▼ ", t(`hw.dir.${dir}`));
  });
  const rows = [];
  const outcome = !attacking && view.last_attack ? view.last_attack[seatShown] : null;
  for (const d of DIRS) {
    const hits = attacking ? p.hits[d] : outcome ? outcome[d] : 0;
    rows.push(h("tr", {}, h("th", {}, t(`hw.dir.${d}`)), h("td", {}, t("hw.ui.cards_n", { n: hits })),
      h("td", {}, t("hw.ui.cohort_n", { n: p.cohorts[d] })),
      h("td", {}, hits > p.cohorts[d] ? t("hw.ui.breach_n", { n: hits - p.cohorts[d] }) : "✔")));
  }
  return h("div", { class: "hw-panel hw-picts" },
    h("h4", {}, t("hw.ui.picts", { year })),
    h("div", { class: "hw-pict-cards" }, cards),
    h("table", {}, h("tbody", {}, rows)),
    outcome ? h("p", { class: "hw-outcome" }, t("hw.ui.outcome", { breaches: outcome.breaches, valour: outcome.valour, disdain: outcome.disdain, favours: outcome.favours || 0 })) : null);
}

function decisionBar(ctx, tg, player) {
  const { t } = ctx;
  const out = [];
  if (tg.bar.length) {
    const kind = tg.bar[0].type;
    const buttons = tg.bar.map((m) => {
      if (m.type === "orient") {
        const cells = m.shape.map((c) => [Math.floor(c / 5), c % 5]);
        const icon = svg("svg", { viewBox: "0 0 50 50", width: 36, height: 36 }, ...drawPattern(cells, 2, 2, 11));
        return button([icon], m, ctx, { title: moveLabel(m, ctx), "aria-label": moveLabel(m, ctx) });
      }
      return button(moveLabel(m, ctx), m, ctx);
    });
    out.push(h("div", { class: "hw-bar", "data-kind": kind }, h("span", { class: "hw-ask" }, t(`hw.ui.ask.${kind}`)), buttons));
  }
  if (tg.endYear) {
    out.push(h("div", { class: "hw-bar hw-endbar" }, h("span", { class: "hw-ask" }, t("hw.ui.ask.act")), button(t("hw.ui.end_year"), tg.endYear, ctx, { class: "hw-btn hw-end" })));
  } else if (player && player.ended && ctx.view.phase === "main") {
    out.push(h("p", { class: "hw-note" }, t("hw.ui.ended")));
  }
  return out;
}

function chooserPanel(ctx, tg, player) {
  const { t } = ctx;
  if (tg.choose.size) {
    return h("div", { class: "hw-panel hw-choose" }, h("h4", {}, t("hw.ui.choose_title")),
      h("div", { class: "hw-cards" }, [...tg.choose.entries()].map(([id, m]) => playerCard(id, ctx, null, m))));
  }
  if (player && player.pending_guideline) {
    return h("div", { class: "hw-panel hw-choose" }, h("p", { class: "hw-note" }, t("hw.ui.wait_choice")),
      h("div", { class: "hw-cards" }, playerCard(player.pending_guideline, ctx, t("hw.ui.guideline")), playerCard(player.pending_prospect, ctx, t("hw.ui.prospect"))));
  }
  return null;
}

function cardsPanel(ctx, seatShown) {
  const { t, view } = ctx;
  const p = view.players[seatShown];
  const cards = [];
  if (view.year_card) cards.push(fateCard(view.year_card, ctx, t("hw.ui.fate", { year: view.year })));
  if (p.prospect) cards.push(playerCard(p.prospect, ctx, t("hw.ui.prospect")));
  for (const n of view.neutral_open || []) cards.push(playerCard(n, ctx, t("hw.ui.neutral")));
  const kept = (p.guidelines || []).map((g) => h("span", { class: "hw-chip", title: t(`hw.goal.${cardName(g)}`) }, t(`hw.card.${cardName(g)}`)));
  return h("div", { class: "hw-panel hw-cardsrow" },
    h("div", { class: "hw-cards" }, cards),
    kept.length ? h("p", {}, t("hw.ui.guidelines"), ": ", kept) : null);
}

function seatSwitch(ctx, ui) {
  const { t, view } = ctx;
  if (view.players.length < 2) return null;
  const me = ctx.seat;
  return h("div", { class: "hw-switch", role: "tablist", "aria-label": t("hw.ui.whose") },
    view.players.map((p) => {
      const s = p.seat;
      const icon = svg("svg", { viewBox: "0 0 20 20", width: 16, height: 16 }, seatShape(s, 10, 10, 7));
      const text = s === me ? t("hw.ui.your_sheets") : t("hw.ui.sheets_of", { name: seatName(ctx.seats, s) });
      const b = h("button", { type: "button", class: "hw-tab", role: "tab", "aria-selected": String(s === ui.viewSeat), "data-seat": s }, icon, " ", text);
      // Another seat's tab is marked when its sheets changed since the reader's last move.
      if (s !== ui.viewSeat) part(b, [`players/${s}/filled`, `players/${s}/map`, `players/${s}/disdain`]);
      b.addEventListener("click", () => {
        ui.viewSeat = s;
        ui.select = null;
        ui.redraw();
      });
      return b;
    }));
}

const STYLE = `
.hw-board { display: flex; flex-direction: column; gap: 8px; font-size: 14px; }
.hw-top { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-start; }
.hw-panel { background: #fbf7ee; border: 1px solid #c9b89a; border-radius: 8px; padding: 6px 8px; }
.hw-panel h4 { margin: 0 0 4px; font-size: 14px; }
.hw-stocks { display: flex; flex-wrap: wrap; gap: 4px 12px; }
.hw-stock { display: inline-flex; align-items: center; gap: 3px; }
.hw-stock svg { vertical-align: middle; }
.hw-facts { display: flex; flex-wrap: wrap; gap: 2px 14px; margin-top: 4px; color: #4a3826; }
.hw-cards { display: flex; flex-wrap: wrap; gap: 8px; }
.hw-cardwrap { display: inline-block; line-height: 0; border-radius: 8px; }
.hw-cardwrap.hw-legal { cursor: pointer; }
.hw-sheets { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-start; }
.hw-sheets { flex-direction: column; }
.hw-legal { cursor: pointer; }
.hw-legal:focus { outline: none; }
.hw-legal:focus .hw-face, .hw-legal:hover .hw-face { stroke: #1b1b1b; stroke-width: 3; }
.hw-cardwrap.hw-legal:focus, .hw-cardwrap.hw-legal:hover { outline: 3px solid #1b1b1b; }
.hw-bar { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; background: #fff3c4; border: 1px solid #d9b44a; border-radius: 8px; padding: 6px 8px; }
.hw-ask { font-weight: 600; margin-right: 4px; }
.hw-btn { padding: 4px 10px; border: 1px solid #8a6d2f; border-radius: 6px; background: #fff; cursor: pointer; min-height: 32px; }
.hw-btn:hover, .hw-btn:focus { background: #ffe38a; }
.hw-end { font-weight: 700; background: #f5dfa0; }
.hw-switch { display: flex; flex-wrap: wrap; gap: 4px; }
.hw-tab { border: 1px solid #a08a68; border-radius: 6px 6px 0 0; background: #efe6d2; padding: 4px 10px; cursor: pointer; }
.hw-tab[aria-selected="true"] { background: #fbf7ee; font-weight: 700; border-bottom-color: #fbf7ee; }
.hw-picts table { border-collapse: collapse; }
.hw-picts th, .hw-picts td { padding: 1px 8px 1px 0; text-align: left; font-weight: normal; }
.hw-picts th { font-weight: 600; }
.hw-pict-cards { display: flex; flex-wrap: wrap; gap: 4px; margin-bottom: 4px; }
.hw-pict { border: 1px solid #4b5f73; border-radius: 4px; background: #e9eef4; padding: 1px 6px; font-size: 12px; }
.hw-chip { display: inline-block; border: 1px solid #a08a68; border-radius: 10px; padding: 0 8px; margin: 0 3px 3px 0; background: #fff; }
.hw-note { margin: 0; color: #4a3826; font-style: italic; }
.hw-outcome { margin: 4px 0 0; font-weight: 600; }
.hw-scroll { overflow-x: auto; }
.hw-board[data-compact="1"] .hw-board[data-compact="1"] `;

export function render(root, ctx) {
  const ui = boardState(root, freshUi);
  const { view, t } = ctx;
  drawnWith(root, ctx, render);
  // Narrower sheets on a phone (the kit draws them again when the width crosses that line).
  ui.W = compactBelow(root, 640) ? 380 : 700;
  const mine = ctx.seat !== null && ctx.seat !== undefined && view.players[ctx.seat];
  if (ui.viewSeat === null || !view.players[ui.viewSeat]) ui.viewSeat = mine ? ctx.seat : 0;
  const shown = view.players[ui.viewSeat];
  const own = mine && ui.viewSeat === ctx.seat;
  const tg = targets(ctx);
  // A payment chooser whose box is no longer fillable closes itself.
  if (ui.select && !(tg.fills.get(ui.select) || []).length) ui.select = null;
  const me = mine ? view.players[ctx.seat] : null;

  const board = h("div", { class: "hw-board", "data-phase": view.phase, "data-year": view.year, "data-compact": ui.compact ? "1" : "0", "data-shown": ui.viewSeat },
    h("style", {}, STYLE),
    h("div", { class: "hw-year" }, h("b", {}, t("hw.ui.year", { year: view.year })), " · ", t(`hw.ui.phase.${view.phase}`), " · ", t(`hw.ui.difficulty.${view.difficulty}`),
      view.resource_passing === false && view.seats > 1 ? [" · ", h("span", { class: "hw-no-passing" }, t("hw.ui.no_passing"))] : null),
    chooserPanel(ctx, tg, me),
    decisionBar(ctx, tg, me),
    h("div", { class: "hw-top" }, supplyPanel(ctx, shown), picts(ctx, ui.viewSeat)),
    cardsPanel(ctx, ui.viewSeat),
    seatSwitch(ctx, ui),
    h("div", { class: "hw-sheets" },
      drawSheet("A", ctx, tg, ui, shown, own),
      drawSheet("B", ctx, tg, ui, shown, own)));
  keepFocus(root, () => root.replaceChildren(board));
  if (ui.select) root.querySelector(".hw-chooser .hw-legal")?.focus({ preventScroll: true });
  // The part of the board the decision is about: the payment chooser open on a box, the two
  // player cards to keep one of, the sheet(s) holding the boxes, tracks and map cells to
  // take, or else the bar of buttons (a forum gain, the source of a trade good).
  const sheets = [...board.querySelectorAll(".hw-sheets > *")];
  const live = sheets.filter((el) => el.querySelector("[data-move], [data-select]"));
  const area = !ctx.legal.length || !own ? null : ui.select ? "chooser" : tg.choose.size ? "cards" : live.length ? "sheet" : tg.bar.length ? "bar" : null;
  const where = { chooser: board.querySelectorAll(".hw-chooser"), cards: board.querySelectorAll(".hw-choose"), sheet: live,
    bar: board.querySelectorAll(".hw-bar:not(.hw-endbar)") };
  focusArea(root, area ? where[area] : [], area);
}

function sourceText(m, ctx) {
  const { t } = ctx;
  if (m.from === "own") return t("hw.ui.from_own");
  // Without resource passing (HW-55) a neighbour's card costs a Pict card: the button says so.
  if (m.from === "seat") return t(ctx.view.resource_passing === false ? "hw.ui.from_seat_pict" : "hw.ui.from_seat", { name: seatName(ctx.seats, m.seat) });
  if (m.from === "neutral") return t("hw.ui.from_neutral", { card: t(`hw.card.${cardName(m.card)}`) });
  return t("hw.ui.from_fate");
}

export function moveLabel(move, ctx) {
  const { t } = ctx;
  switch (move.type) {
    case "fill": {
      const sec = (ctx.view.layout.sections.find((s) => s.boxes.some((b) => b.id === move.box)) || {});
      const pos = sec.boxes ? sec.boxes.findIndex((b) => b.id === move.box) : 0;
      const name = t("hw.ui.box_title", { section: t(`hw.section.${sec.id}`), n: pos + 1 });
      return move.pay ? t("hw.ui.pay_with", { box: name, pay: payText(move.pay, t) }) : t("hw.ui.fill", { box: name });
    }
    case "choose": return t("hw.ui.keep_guideline", { card: t(`hw.card.${cardName(move.guideline)}`) });
    case "end_year": return t("hw.ui.end_year");
    case "cohort": return t("hw.ui.move_cohort", { dir: t(`hw.dir.${move.cohort}`) });
    case "attribute": return t("hw.ui.move_attribute", { attr: t(`hw.attr.${move.attribute}`) });
    case "forum": return t("hw.ui.move_forum", { what: t(`hw.stock_one.${move.gain}`) });
    case "diplomat": return t("hw.ui.move_diplomat", { dir: t(`hw.dir.${move.direction}`) });
    case "trade": return t("hw.ui.move_trade", { from: sourceText(move, ctx) });
    case "scout": return t("hw.ui.move_scout", { from: sourceText(move, ctx) });
    case "orient": {
      // The turns of one pattern look alike in words: numbered in the order the board draws them.
      const turns = (ctx.legal || []).filter((m) => m.type === "orient");
      const i = turns.findIndex((m) => JSON.stringify(m.shape) === JSON.stringify(move.shape));
      return t("hw.ui.move_orient", { n: i >= 0 ? i + 1 : 1 });
    }
    case "place": return t("hw.ui.place_cells", { cells: move.cells.map((c) => c + 1).join(t("hw.ui.list_sep")) });
    case "fight": return t(move.fight ? "hw.ui.move_fight" : "hw.ui.move_no_fight", { n: move.gladiator });
    case "favour": return t(`hw.ui.move_favour_${move.favour}`, { dir: t(`hw.dir.${move.direction}`) });
    case "hold": return t("hw.ui.move_hold");
    default: return null;
  }
}

// The end-of-game statistics (the frame's "points by source" table): each attribute
// track, the guidelines, minus the disdain penalty. They add up to the score.
export function statistics(result, { t }) {
  const b = (result.breakdown || []).map((x) => x || {});
  const sum = (o) => Object.values(o || {}).reduce((a, v) => a + (Number(v) || 0), 0);
  return [
    ...["renown", "piety", "valour", "discipline"].map((a) => ({
      label: t("score.source_part", { source: t("hw.ui.attributes"), part: t(`hw.attr.${a}`) }),
      values: b.map((x) => (x.attributes || {})[a] ?? 0) })),
    { label: t("hw.ui.guidelines"), values: b.map((x) => sum(x.guidelines)) },
    { label: t("hw.ui.penalty"), values: b.map((x) => -(x.disdain_penalty ?? 0)) },
  ];
}

// Each player's key resources, for the seat panel: the five kinds of the supply and the
// disdain.
export function resources(view, seat, { t }) {
  const p = (view.players || []).find((x) => x.seat === seat);
  if (!p) return [];
  return [...STOCK.map((k) => ({ key: k, label: t(`hw.stock.${k}`), value: (p.stock || {})[k] ?? 0 })),
    { key: "disdain", label: t("hw.ui.disdain_track"), value: p.disdain ?? 0 }];
}

export function scores(view) {
  // Only the reader's own score is in the view (guideline cards are counted at the end);
  // the others show their attribute boxes less the disdain penalty.
  return view.players.map((p) => {
    if (p.score) return p.score.total;
    const attrs = Object.values(p.attributes || {}).reduce((a, b) => a + b, 0);
    return attrs - penaltyOf(view, p.final_disdain);
  });
}

export function destroy(root) {
  dropBoardState(root);
}
