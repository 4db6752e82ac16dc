// Blood Rage's board: the map (Yggdrasil, the eight outer provinces, the four fjords),
// the age track with the Ragnarok tokens, Valhalla, the glory track, the clan sheets,
// the draft pack and the hand as cards, the battle under way and the final glory.
//
// Every legal move the engine lists is reachable on the board itself: provinces and
// fjords (invade, march, move), pillage tokens, figures (march, call to arms, Odin's
// Tide, Frigga's gifts), cards (pick, play, upgrade, quest, keep), stat tracks (raise)
// and a small bar for the moves without a target (pass, decline). The only two-click
// moves are the ones whose engine move names two things: an invasion (a figure from the
// reserve, then a place) and an upgrade that fits several slots (the card, then a slot).
// Each element that plays a move carries it as JSON in `data-move`, like the frame's
// own buttons, so tests and assistive tech see the same thing.
import { boardState, choiceTarget, compactBelow, drawnWith, dropBoardState, focusArea, keepFocus, moveTarget, part, piece, tooltip } from "/js/board.js";
import { h, svg } from "/js/dom.js";
import { seatName } from "/js/gamemodule.js";
import { seatShape, seatStyle } from "/js/seats.js";
import { fit, textWidth, wrap } from "/js/svgtext.js";

const REALM_FILL = { manheim: "#eadfc6", alfheim: "#d6e8cf", jotunheim: "#dcdcea", yggdrasil: "#c9dfae" };
// The realm borders' colours on the printed board.
const REALM_EDGE = { manheim: "#c8961e", alfheim: "#8d99a6", jotunheim: "#2f6db5" };
const SEA = "#a8c8dc";
const TYPE_FILL = { battle: "#f5cfb8", quest: "#cde2f2", upgrade: "#d5ebd3" };
const SLOT_BASE = (slot) => slot.replace(/\d+$/, "");
const ROMAN = ["I", "II", "III"];

// Map geometry: the ring of outer provinces around Yggdrasil, fjords on the rim.
const CX = 390;
const CY = 400;
const R_YGG = 100;
const R_IN = R_YGG; // the ring touches Yggdrasil, which borders every province
const R_OUT = 300;
const R_FJORD = 314; // a fjord's centre: on the rim, so that it cuts into both provinces

// What the reader has half-chosen (a figure to invade with, a card to upgrade with),
// kept by the board kit across the redraws that every update causes.
const freshUi = () => ({ figure: null, source: "reserve", card: null });

const isMine = (ctx) => ctx.seat !== null && ctx.seat !== undefined;

function figureName(kind, t) {
  if (kind === "leader" || kind === "warrior" || kind === "ship") return t(`br.figure.${kind}`);
  return t(`card.${kind}.title`);
}

const place = (id, t) => t(`br.place.${id}`);

// A seat's clan, or that it is still choosing one (BR-104).
const clanName = (clan, t) => (clan ? t(`br.clan.${clan}`) : t("br.ui.no_clan"));

function cardName(name, t) {
  return t(`card.${name}.title`);
}

// The reader's cards by id (hand, pack, quests, the card face down, revealed cards), so
// a move naming a card id can be labelled.
function cardsById(view) {
  const out = new Map();
  const you = view && view.you;
  if (!you) return out;
  for (const key of ["hand", "pack", "quests", "played"]) for (const c of you[key] || []) out.set(c.id, c);
  if (you.chosen) out.set(you.chosen.id, you.chosen);
  return out;
}

// -- text layout in SVG ------------------------------------------------------------------

function textLines(x, y, lines, size, attrs = {}) {
  return svg("text", { x, y, "font-size": size, ...attrs },
    lines.map((line, i) => svg("tspan", { x, dy: i === 0 ? 0 : size * 1.2 }, line)));
}

function label(x, y, text, size = 12, attrs = {}) {
  return svg("text", { x, y, "font-size": size, fill: "#1d1d1f", ...attrs }, text);
}

function title(text) {
  return svg("title", {}, text);
}

// -- figures ---------------------------------------------------------------------------

// A figure in its clan's colour and shape; the kind shows in size and an inner mark
// (a leader's bar, a monster's star), a ship as a hull, so colour is never the only cue.
function figure(seat, kind, x, y, t) {
  const g = svg("g", { class: "br-figure", "data-seat": seat, "data-kind": kind });
  g.append(title(figureName(kind, t)));
  if (kind === "ship" || kind === "sea_serpent") {
    const { colour } = seatStyle(seat);
    g.append(svg("path", {
      class: "br-face", d: `M${x - 12},${y - 2} L${x + 12},${y - 2} L${x + 7},${y + 7} L${x - 7},${y + 7} Z`,
      fill: colour, stroke: "#1b1b1b", "stroke-width": 1.5,
    }));
    g.append(seatShape(seat, x, y - 9, 6));
    if (kind === "sea_serpent") g.append(star(x, y - 9, 3.5));
    return g;
  }
  if (kind === "warrior") {
    g.append(seatShape(seat, x, y, 8, { class: "br-face" }));
    return g;
  }
  g.append(seatShape(seat, x, y, 12, { class: "br-face" }));
  if (kind === "leader") {
    g.append(svg("rect", { x: x - 6, y: y - 2, width: 12, height: 4, fill: "#fff", stroke: "#1b1b1b", "stroke-width": 1, "pointer-events": "none" }));
  } else {
    g.append(star(x, y, 6));
  }
  return g;
}

function star(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const rad = i % 2 ? r * 0.45 : r;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    pts.push(`${(cx + rad * Math.cos(a)).toFixed(1)},${(cy + rad * Math.sin(a)).toFixed(1)}`);
  }
  return svg("polygon", { points: pts.join(" "), fill: "#fff", stroke: "#1b1b1b", "stroke-width": 0.8, "pointer-events": "none" });
}

// Positions for n figures in a grid centred on (x, y).
function grid(n, x, y, cols, dx, dy) {
  const out = [];
  const rows = Math.ceil(n / cols);
  for (let i = 0; i < n; i++) {
    const row = Math.floor(i / cols);
    const inRow = row === rows - 1 ? n - row * cols : cols;
    const col = i % cols;
    out.push([x + (col - (inRow - 1) / 2) * dx, y + (row - (rows - 1) / 2) * dy]);
  }
  return out;
}

// -- what can be clicked --------------------------------------------------------------

// The legal moves sorted by what they point at on the board.
function targets(ctx, ui) {
  const byPlace = new Map(); // province or fjord id -> moves
  const byFigure = new Map(); // "kind@place" -> move
  const byToken = new Map(); // province -> pillage move
  const byCard = new Map(); // card id -> moves
  const byStat = new Map();
  const bar = [];
  const select = new Map(); // "reserve:kind" / "valhalla:kind" -> the moves with that figure
  const march = ctx.view.march;
  const add = (map, key, move) => {
    if (!map.has(key)) map.set(key, []);
    map.get(key).push(move);
  };
  for (const m of ctx.legal) {
    switch (m.type) {
      case "invade":
        add(select, `reserve:${m.figure}`, m);
        if (ui.source === "reserve" && ui.figure === m.figure) add(byPlace, m.to, m);
        break;
      case "valhalla_invade":
        add(select, `valhalla:${m.figure}`, m);
        if (ui.source === "valhalla" && ui.figure === m.figure) add(byPlace, m.to, m);
        break;
      case "free_invade":
      case "march_to":
      case "move_leader":
        add(byPlace, m.to, m);
        break;
      case "march":
        byFigure.set(`*@${m.from}`, m);
        break;
      case "march_add":
        if (march) byFigure.set(`${m.figure}@${march.from}`, m);
        break;
      case "join":
        byFigure.set(`${m.figure}@${m.from}`, m);
        break;
      case "keep_figure":
      case "protect":
      case "sacrifice_figure":
        byFigure.set(`${m.figure}@${m.at}`, m);
        break;
      case "pillage":
      case "domain_pillage":
        byToken.set(m.province, m);
        break;
      case "pick":
      case "play":
      case "play_extra":
      case "quest":
      case "keep":
      case "keep_card":
      case "upgrade":
        add(byCard, m.card, m);
        break;
      case "raise":
        byStat.set(m.stat, m);
        break;
      default:
        bar.push(m);
    }
  }
  return { byPlace, byFigure, byToken, byCard, byStat, bar, select };
}

function figureMove(tg, seat, kind, at, me) {
  if (seat !== me) return null;
  return tg.byFigure.get(`${kind}@${at}`) || (kind !== "ship" && kind !== "sea_serpent" ? tg.byFigure.get(`*@${at}`) : null) || null;
}

// -- the map -----------------------------------------------------------------------------

function polar(r, deg) {
  const a = (deg * Math.PI) / 180;
  return [CX + r * Math.cos(a), CY + r * Math.sin(a)];
}

function sector(r1, r2, a1, a2) {
  const [x1, y1] = polar(r2, a1);
  const [x2, y2] = polar(r2, a2);
  const [x3, y3] = polar(r1, a2);
  const [x4, y4] = polar(r1, a1);
  return `M${x1},${y1} A${r2},${r2} 0 0 1 ${x2},${y2} L${x3},${y3} A${r1},${r1} 0 0 0 ${x4},${y4} Z`;
}

function drawMap(ctx, tg) {
  const { view, t } = ctx;
  const me = isMine(ctx) ? ctx.seat : null;
  const map = svg("svg", { class: "br-map", viewBox: "0 0 780 780", role: "group", "aria-label": t("br.ui.board"), style: { width: "100%", maxWidth: "780px", height: "auto", flex: "1 1 480px" } });
  map.append(svg("defs", {}, svg("pattern", { id: "br-hatch", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    svg("rect", { width: 10, height: 10, fill: "#5b5b5b" }), svg("line", { x1: 0, y1: 0, x2: 0, y2: 10, stroke: "#3c3c3c", "stroke-width": 5 }))));
  map.append(svg("circle", { cx: CX, cy: CY, r: 364, fill: SEA, stroke: "#7fa6bd", "stroke-width": 2 }));
  const provinces = new Map(view.provinces.map((p) => [p.id, p]));
  const ring = view.ring || view.provinces.filter((p) => p.id !== "yggdrasil").map((p) => p.id);
  const step = 360 / ring.length;
  const angleOf = new Map(ring.map((id, k) => [id, -90 + k * step]));

  // The outer provinces, round Yggdrasil as on the printed board (the view's ring starts
  // at the top, with Elvagar, and runs clockwise): each borders the two beside it.
  ring.forEach((id) => {
    const p = provinces.get(id);
    if (!p) return;
    const a = angleOf.get(id);
    map.append(drawProvince(p, sector(R_IN, R_OUT, a - step / 2, a + step / 2), polar, a, ctx, tg, me));
  });
  // Each realm outlined in its printed colour (Manheim gold, Alfheim grey, Jotunheim blue).
  const realms = svg("g", { class: "br-realms", "pointer-events": "none" });
  for (const run of realmRuns(ring, provinces)) {
    const a1 = angleOf.get(run.ids[0]) - step / 2 + 0.6;
    const a2 = angleOf.get(run.ids[run.ids.length - 1]) + step / 2 - 0.6;
    realms.append(svg("path", { d: sector(R_IN + 3, R_OUT - 3, a1, a2), fill: "none", stroke: REALM_EDGE[run.realm] || "#5b4a32", "stroke-width": 5, "stroke-linejoin": "round", "data-realm": run.realm }));
  }
  map.append(realms);
  // Yggdrasil in the middle.
  const ygg = provinces.get("yggdrasil");
  if (ygg) map.append(drawProvince(ygg, null, polar, null, ctx, tg, me));

  // Fjords: sea inlets cutting into the rim where the two provinces each supports meet.
  // Their names go on top of everything, last, as a long name runs across the rim.
  const fjordNames = svg("g", { class: "br-fjord-names", "pointer-events": "none" });
  for (const f of view.fjords) {
    const [a, b] = f.supports || [];
    let mid = -90;
    if (angleOf.has(a) && angleOf.has(b)) {
      let d = angleOf.get(b) - angleOf.get(a);
      if (d > 180) d -= 360;
      if (d < -180) d += 360;
      mid = angleOf.get(a) + d / 2;
    }
    const [x, y] = polar(R_FJORD, mid);
    const gone = (f.supports || []).every((p) => provinces.get(p) && provinces.get(p).destroyed);
    const g = part(svg("g", { class: "br-fjord", "data-loc": f.id, "data-supports": (f.supports || []).join(" ") }), `fjords/${f.id}/figures`);
    const body = svg("circle", { class: "br-face", cx: x, cy: y, r: 36, fill: gone ? "url(#br-hatch)" : "#7fb0cf", stroke: "#3f6f8c", "stroke-width": 2 });
    body.append(title(`${place(f.id, t)} · ${(f.supports || []).map((id) => place(id, t)).join(" · ")}`));
    g.append(body);
    const moves = tg.byPlace.get(f.id);
    if (moves && moves.length) moveTarget(g, moves[0], ctx, moveLabel(moves[0], ctx), "br-legal");
    // The name outside the fjord, on the rim; a fjord on the left or right of the ring has
    // no room there (the board's edge), so its name goes under or over it, on two lines
    // if need be. A halo in the sea's colour keeps it readable where it crosses a line.
    const side = Math.abs(Math.cos((mid * Math.PI) / 180)) > 0.6;
    const name = fit(place(f.id, t), side ? 96 : 150, 15, { min: 14, maxLines: 2 });
    const [rawX, rawY] = side ? [x, y + (Math.sin((mid * Math.PI) / 180) >= 0 ? 50 : -40 - (name.lines.length - 1) * name.size * 1.2)]
      : polar(R_FJORD + 46, mid);
    const half = Math.max(...name.lines.map((l) => textWidth(l, name.size))) / 2 + 4;
    const lx = Math.min(780 - half, Math.max(half, rawX)); // the board's edge must not cut the name
    fjordNames.append(textLines(lx, rawY + 4, name.lines, name.size, {
      "text-anchor": "middle", fill: "#153a52", "font-style": "italic", "data-loc": f.id,
      stroke: SEA, "stroke-width": 3, "stroke-linejoin": "round", "paint-order": "stroke",
    }));
    const figs = f.figures;
    grid(figs.length, x, y + 4, 3, 22, 20).forEach(([fx, fy], i) => {
      const [seat, kind] = figs[i];
      g.append(figureOn(seat, kind, fx, fy, f.id, ctx, tg, me));
    });
    map.append(g);
  }
  map.append(fjordNames);
  return map;
}

// The realms as runs of neighbouring provinces on the ring (each realm is one run on the
// printed board; a realm split in two would give two runs).
function realmRuns(ring, provinces) {
  const realmOf = (id) => (provinces.get(id) || {}).realm;
  const n = ring.length;
  let start = 0;
  while (start < n && realmOf(ring[start]) === realmOf(ring[(start + n - 1) % n])) start++;
  if (start === n) return [{ realm: realmOf(ring[0]), ids: ring.slice() }];
  const runs = [];
  for (let k = 0; k < n; k++) {
    const id = ring[(start + k) % n];
    const last = runs[runs.length - 1];
    if (last && last.realm === realmOf(id)) last.ids.push(id);
    else runs.push({ realm: realmOf(id), ids: [id] });
  }
  return runs;
}

function figureOn(seat, kind, x, y, at, ctx, tg, me) {
  const g = figure(seat, kind, x, y, ctx.t);
  g.setAttribute("data-at", at);
  // A clan has one leader and one of each monster: they slide when they move.
  if (kind !== "warrior" && kind !== "ship") piece(g, `${seat}-${kind}`);
  const move = figureMove(tg, seat, kind, at, me);
  if (move) moveTarget(g, move, ctx, moveLabel(move, ctx), "br-legal");
  else g.setAttribute("pointer-events", "none");
  return g;
}

function drawProvince(p, path, polarFn, angle, ctx, tg, me) {
  const { t, view } = ctx;
  const g = part(svg("g", { class: ["br-province", p.destroyed && "destroyed"], "data-loc": p.id }),
    [`provinces/${p.id}/figures`, `provinces/${p.id}/destroyed`]);
  const isYgg = angle === null;
  const doomed = view.doom === p.id;
  const fill = p.destroyed ? "url(#br-hatch)" : REALM_FILL[p.realm] || "#eee";
  const shape = isYgg
    ? svg("circle", { class: "br-face", cx: CX, cy: CY, r: R_YGG, fill, stroke: "#3d5a2a", "stroke-width": 3 })
    : svg("path", { class: "br-face", d: path, fill, stroke: "#5b4a32", "stroke-width": 2 });
  shape.append(title(`${place(p.id, t)} · ${place(p.realm === "yggdrasil" ? "yggdrasil" : p.realm, t)}`));
  g.append(shape);
  const moves = tg.byPlace.get(p.id);
  if (moves && moves.length) moveTarget(g, moves[0], ctx, moveLabel(moves[0], ctx), "br-legal");

  // One upright stack per province (name, realm, token, figures) round a point in the
  // middle of its wedge, a little further out at the top where the name sits nearer the
  // rim; villages follow the rim itself.
  const anchor = isYgg ? [CX, CY] : polarFn(200 - 10 * Math.sin((angle * Math.PI) / 180), angle);
  const at = (dy, dx = 0) => [anchor[0] + dx, anchor[1] + dy];
  const [nx, ny] = isYgg ? [CX, CY - 62] : at(ctx.compact ? -34 : -40);
  // The name fitted to the province's width where it is written (a chord of the ring, or
  // of Yggdrasil's circle).
  const room = (isYgg ? 2 * Math.sqrt(R_YGG ** 2 - 70 ** 2) : 2 * 165 * Math.sin((Math.PI / 8))) - 16;
  const nameSize = fit(place(p.id, t), room * 0.92, ctx.compact ? 24 : 17, { min: ctx.compact ? 13 : 14 }).size;
  g.append(label(nx, ny, place(p.id, t), nameSize, { "text-anchor": "middle", "font-weight": 700, "pointer-events": "none", fill: p.destroyed ? "#fff" : "#1d1d1f" }));
  if (!isYgg && !p.destroyed && !ctx.compact) { // on a phone the realm shows in the colour alone
    const [rx, ry] = at(-26);
    g.append(label(rx, ry, place(p.realm, t), 14, { "text-anchor": "middle", fill: "#5c5c66", "pointer-events": "none" }));
  }
  if (p.destroyed) {
    // Under the name: on the left and right of the ring a label further in would overlap it.
    const [dx, dy] = isYgg ? [CX, CY] : at(-20);
    g.append(label(dx, dy + (ctx.compact ? 8 : 0), t("br.ui.destroyed"), ctx.compact ? 18 : 14, { "text-anchor": "middle", fill: "#fff", "font-weight": 700, "pointer-events": "none" }));
    return g;
  }
  // Villages: filled for each figure there, empty for the room left.
  if (p.villages !== null && p.villages !== undefined) {
    const used = Math.min(p.figures.length, p.villages);
    const vg = svg("g", { "pointer-events": "none" });
    vg.append(title(t("br.ui.villages", { used, n: p.villages })));
    for (let i = 0; i < p.villages; i++) {
      // Along the rim, so that they stay inside the province wherever it lies on the ring.
      const [x, vy] = polarFn(286, angle + ((i - (p.villages - 1) / 2) * 17 * 180) / (Math.PI * 286));
      vg.append(svg("path", {
        d: `M${x - 5},${vy + 4} L${x - 5},${vy - 1} L${x},${vy - 6} L${x + 5},${vy - 1} L${x + 5},${vy + 4} Z`,
        fill: i < used ? "#5b4a32" : "#fffdf6", stroke: "#5b4a32", "stroke-width": 1.3,
      }));
    }
    g.append(vg);
  }
  // The pillage token: its reward face up, turned over once pillaged.
  const [tx, ty] = isYgg ? [CX, CY + 74] : at(-6);
  const tokenMove = tg.byToken.get(p.id);
  const token = part(svg("g", { class: "br-token", "data-token": p.id }), `provinces/${p.id}/pillaged`);
  const tokenText = p.pillaged ? t("br.ui.pillaged") : t(`br.ui.tok.${p.token}`);
  // As wide as its word at 14 (bold runs a sixth wider than the estimate): never under
  // 11 px on a desktop's map ("Đã cướp phá" is long).
  const tokenW = Math.max(76, Math.ceil(textWidth(tokenText, 14) * 1.17) + 12);
  token.append(svg("rect", {
    class: "br-face", x: tx - tokenW / 2, y: ty - 13, width: tokenW, height: 26, rx: 13,
    fill: p.pillaged ? "#8a8a8a" : "#f0e442", stroke: "#1b1b1b", "stroke-width": 1.5,
  }));
  token.append(label(tx, ty + 5, tokenText, 14,
    { "text-anchor": "middle", "font-weight": 700, "pointer-events": "none", fill: p.pillaged ? "#fff" : "#1d1d1f" }));
  token.append(title(p.pillaged ? t("br.ui.pillaged") : t(`br.stat.${p.token}`)));
  if (tokenMove) moveTarget(token, tokenMove, ctx, moveLabel(tokenMove, ctx), "br-legal");
  else token.setAttribute("pointer-events", "none");
  g.append(token);
  // Doom: the province Ragnarok destroys at the end of this age.
  if (doomed) {
    const [kx, ky] = isYgg ? [CX + 60, CY - 60] : at(-6, Math.max(48, tokenW / 2 + 14));
    const doom = svg("g", { class: "br-doom", "pointer-events": "none" });
    doom.append(svg("circle", { cx: kx, cy: ky, r: 12, fill: "#1b1b1b", stroke: "#D55E00", "stroke-width": 3 }));
    doom.append(svg("path", { d: `M${kx},${ky - 7} C${kx + 6},${ky - 1} ${kx + 5},${ky + 6} ${kx},${ky + 7} C${kx - 5},${ky + 6} ${kx - 6},${ky - 1} ${kx},${ky - 7} Z`, fill: "#D55E00" }));
    doom.append(title(t("br.ui.doomed", { place: place(p.id, t) })));
    g.append(doom);
  }
  // Figures.
  const figs = p.figures;
  const [fx, fy] = isYgg ? [CX, CY + 4] : at(34);
  const cols = isYgg ? 5 : 4;
  grid(figs.length, fx, fy, cols, 26, 26).forEach(([x, y], i) => {
    const [seat, kind] = figs[i];
    g.append(figureOn(seat, kind, x, y, p.id, ctx, tg, me));
  });
  return g;
}

// -- the side column: ages and Ragnarok, glory, Valhalla, legend ------------------------

function drawSide(ctx) {
  const { view, t } = ctx;
  const W = 300;
  const clans = view.clans;
  const valhallaRows = clans.length;
  const height = 120 + 80 + 46 + valhallaRows * 30 + 120;
  const side = svg("svg", { class: "br-side", viewBox: `0 0 ${W} ${height}`, role: "group", "aria-label": t("br.ui.ages"), style: { width: "100%", maxWidth: "340px", height: "auto" } });
  let y = 20;
  side.append(label(10, y, t("br.ui.ages"), 14, { "font-weight": 700 }));
  y += 12;
  view.ragnarok.forEach((pid, k) => {
    const x = 10 + k * 96;
    const current = view.age === k + 1;
    const gone = view.provinces.find((p) => p.id === pid)?.destroyed;
    const g = part(svg("g", { class: "br-age", "data-age": k + 1 }), ["age", "doom"],
      `${t("br.ui.age", { age: ROMAN[k] })} · ${place(pid, t)}${gone ? ` · ${t("br.ui.destroyed")}` : ""}`);
    g.append(svg("rect", { x, y, width: 90, height: 70, rx: 8, fill: current ? "#fff3c4" : "#f4f1ea", stroke: current ? "#1b1b1b" : "#8a8a8a", "stroke-width": current ? 2.5 : 1 }));
    g.append(label(x + 45, y + 18, t("br.ui.age", { age: ROMAN[k] }), 12, { "text-anchor": "middle", "font-weight": 700 }));
    g.append(svg("rect", { x: x + 8, y: y + 28, width: 74, height: 32, rx: 6, fill: gone ? "url(#br-hatch)" : "#fffdf6", stroke: "#5b4a32" }));
    g.append(textLines(x + 45, y + 41, wrap(place(pid, t), 70, 10, 2), 10, { "text-anchor": "middle", fill: gone ? "#fff" : "#1d1d1f" }));
    if (view.doom === pid) g.append(svg("circle", { cx: x + 82, cy: y + 8, r: 8, fill: "#1b1b1b", stroke: "#D55E00", "stroke-width": 3 }, title(t("br.ui.doomed", { place: place(pid, t) }))));
    side.append(g);
  });
  y += 100;

  // Glory track: a bar scaled to the leader, one marker per clan.
  side.append(label(10, y, t("br.ui.glory"), 14, { "font-weight": 700 }));
  // Room above the bar for the markers, stacked a little when clans are level.
  y += 14 + 6 + 4 * clans.length;
  const top = Math.max(40, ...clans.map((c) => c.glory));
  const scale = Math.ceil(top / 20) * 20;
  // About four numbered steps whatever the scale (glory passes 100 in long games).
  const step = Math.max(10, Math.ceil(scale / 40) * 10);
  side.append(svg("rect", { x: 10, y, width: W - 20, height: 12, rx: 6, fill: "#efe9dc", stroke: "#8a8a8a" }));
  for (let v = 0; v <= scale; v += step) {
    const x = 10 + ((W - 20) * v) / scale;
    side.append(svg("line", { x1: x, y1: y, x2: x, y2: y + 12, stroke: "#8a8a8a" }), label(x, y + 26, String(v), 10, { "text-anchor": "middle", fill: "#5c5c66" }));
  }
  clans.forEach((c, i) => {
    const x = 10 + ((W - 20) * c.glory) / scale;
    const marker = part(seatShape(c.seat, x, y - 8 - i * 4, 7), `clans/${i}/glory`);
    marker.append(title(`${seatName(ctx.seats, c.seat)}: ${c.glory}`));
    side.append(marker);
  });
  y += 46; // the numbers under the bar, then room above Valhalla's heading

  // Valhalla: the figures each clan has there now.
  side.append(label(10, y, t("br.ui.valhalla"), 14, { "font-weight": 700 }));
  y += 8;
  side.append(svg("rect", { x: 6, y, width: W - 12, height: valhallaRows * 30 + 8, rx: 8, fill: "#e9e4f2", stroke: "#7a6b99" }));
  clans.forEach((c, i) => {
    const ry = y + 22 + i * 30;
    side.append(seatShape(c.seat, 22, ry - 4, 7));
    const counts = countKinds(c.valhalla);
    let x = 40;
    for (const [kind, n] of counts) {
      side.append(figure(c.seat, kind, x + 8, ry - 4, t));
      side.append(label(x + 22, ry, `×${n}`, 11));
      x += 48;
    }
  });
  y += valhallaRows * 30 + 30;

  // Legend: the figure kinds, drawn as on the board.
  side.append(label(10, y, t("br.ui.legend"), 14, { "font-weight": 700 }));
  y += 24;
  const seat = isMine(ctx) ? ctx.seat : 0;
  [["leader", "leader"], ["warrior", "warrior"], ["ship", "ship"], ["monster", "troll"]].forEach(([key, kind], i) => {
    const x = 20 + (i % 2) * 140;
    const ly = y + Math.floor(i / 2) * 30;
    side.append(figure(seat, kind, x, ly, t), label(x + 20, ly + 4, t(`br.figure.${key}`), 12));
  });
  return side;
}

function countKinds(kinds) {
  const out = new Map();
  for (const k of kinds || []) out.set(k, (out.get(k) || 0) + 1);
  return out;
}

// -- the battle --------------------------------------------------------------------------

function lastBattle(events) {
  let start = -1;
  for (let i = events.length - 1; i >= 0; i--) {
    if (events[i].key === "br.battle") {
      start = i;
      break;
    }
  }
  if (start < 0) return null;
  const b = { province: events[start].args.province, seats: events[start].args.seats || [], cards: {}, totals: null, winner: null };
  for (const e of events.slice(start + 1)) {
    if (e.key === "br.reveal") for (const [s, name] of e.args.cards || []) (b.cards[s] = b.cards[s] || []).push(name);
    if (e.key === "br.totals") {
      b.totals = Object.fromEntries(e.args.totals || []);
      b.winner = e.args.winner;
      break;
    }
  }
  return b.totals ? b : null;
}

function drawBattle(ctx, tg) {
  const { view, t } = ctx;
  const live = view.battle;
  const done = live ? null : lastBattle(ctx.events || []);
  if (!live && !done) return null;
  // During the call to arms nobody has joined yet: the pillager stands alone.
  const seats = live ? (live.participants.length ? live.participants : [live.pillager]) : done.seats;
  const W = 300;
  const rowH = 74;
  const height = 60 + Math.max(1, seats.length) * rowH;
  const box = svg("svg", { class: ["br-battle", live ? "live" : "past"], viewBox: `0 0 ${W} ${height}`, role: "group", style: { width: "100%", maxWidth: "340px", height: "auto" } });
  const heading = live ? t("br.ui.battle", { place: place(live.province, t) }) : t("br.ui.last_battle", { place: place(done.province, t) });
  box.setAttribute("aria-label", heading);
  box.append(svg("rect", { x: 2, y: 2, width: W - 4, height: height - 4, rx: 10, fill: live ? "#fff0e6" : "#f4f1ea", stroke: live ? "#D55E00" : "#8a8a8a", "stroke-width": live ? 2.5 : 1 }));
  box.append(label(14, 24, heading, 15, { "font-weight": 700 }));
  const winner = live ? (live.winner >= 0 ? live.winner : null) : done.winner;
  const resolved = live ? live.winner !== -1 : true;
  if (resolved && winner !== null) {
    box.append(label(14, 44, winner >= 0 ? t("br.ui.winner", { name: seatName(ctx.seats, winner) }) : t("br.ui.nobody"), 12, { fill: "#5c5c66" }));
  } else if (!live) {
    box.append(label(14, 44, t("br.ui.nobody"), 12, { fill: "#5c5c66" }));
  }
  seats.forEach((s, i) => {
    const y = 56 + i * rowH;
    const g = svg("g", { class: "br-participant", "data-seat": s });
    g.append(svg("rect", { x: 10, y, width: W - 20, height: rowH - 8, rx: 8, fill: "#fffdf6", stroke: s === winner ? "#1b1b1b" : "#c9c2b2", "stroke-width": s === winner ? 2.5 : 1 }));
    g.append(seatShape(s, 26, y + 16, 8));
    const name = seatName(ctx.seats, s) + (live && s === live.pillager ? ` · ${t("br.ui.pillager")}` : "");
    g.append(label(40, y + 20, name, 12, { "font-weight": 700 }));
    const strength = live ? live.strength && live.strength[live.participants.indexOf(s)] : done.totals[s];
    if (strength !== undefined && strength !== null) g.append(label(W - 20, y + 20, t("br.ui.strength", { n: strength }), 13, { "text-anchor": "end", "font-weight": 700 }));
    let status = "";
    const names = live ? live.played[s] || [] : done.cards[s] || [];
    if (live) {
      if (live.out.includes(s)) status = t("br.ui.out");
      else if (live.chosen[s]) status = t("br.ui.face_down");
      else if ((ctx.pending || []).includes(s) && !names.length) status = t("br.ui.choosing");
    }
    if (status) g.append(label(40, y + 36, status, 11, { fill: "#5c5c66", "font-style": "italic" }));
    // Revealed cards, as small cards; the winner may take its own back (Tyr's Prowess).
    const mine = live && isMine(ctx) && s === ctx.seat ? (view.you && view.you.played) || [] : [];
    const cw = names.length > 2 ? 76 : 112;
    names.forEach((n, k) => {
      const x = 40 + k * (cw + 4);
      const cy = y + (status ? 42 : 28);
      const card = svg("g", { class: "br-played", "data-card-name": n });
      const cancelled = live && live.cancelled.includes(n);
      card.append(svg("rect", { class: "br-face", x, y: cy, width: cw, height: 22, rx: 4, fill: TYPE_FILL.battle, stroke: "#5b4a32" }));
      card.append(label(x + cw / 2, cy + 15, wrap(cardName(n, t), cw - 4, 10, 1)[0], 10, { "text-anchor": "middle", "text-decoration": cancelled ? "line-through" : null }));
      card.append(title(`${cardName(n, t)}${cancelled ? ` (${t("br.ui.cancelled")})` : ""}: ${t(`card.${n}.text`)}`));
      const own = mine.find((c) => c.name === n);
      const keep = own && tg.byCard.get(own.id);
      if (keep) moveTarget(card, keep[0], ctx, moveLabel(keep[0], ctx), "br-legal");
      g.append(card);
    });
    if (live && isMine(ctx) && s === ctx.seat && view.you && view.you.chosen) {
      g.append(label(W - 20, y + 36, t("br.ui.your_card", { card: cardName(view.you.chosen.name, t) }), 10, { "text-anchor": "end", fill: "#5c5c66" }));
    }
    box.append(g);
  });
  return box;
}

// -- cards -------------------------------------------------------------------------------

const CARD_W = 150;
const CARD_H = 214;

function cardValue(c, t) {
  if (c.type === "battle") return t("br.ui.str_bonus", { n: c.str });
  if (c.type === "quest") return t("br.ui.quest_value", { place: c.goal === "valhalla" ? t("br.ui.valhalla") : place(c.goal, t), glory: c.glory });
  if (c.slot === "monster" || c.slot === "warrior" || c.slot === "leader" || c.slot === "ship") return t("br.ui.cost_str", { cost: c.cost, str: c.str });
  return t("br.ui.cost", { cost: c.cost });
}

function cardType(c, t) {
  if (c.type === "upgrade") return t("br.ui.type.upgrade", { slot: t(`br.ui.slot.${c.slot}`) });
  return t(`br.ui.type.${c.type}`);
}

function drawCard(c, ctx, { moves, selected, onSelect } = {}) {
  const { t } = ctx;
  const el = svg("svg", { class: ["br-card", c.type], viewBox: `0 0 ${CARD_W} ${CARD_H}`, width: CARD_W, height: CARD_H, "data-card": c.id, style: { flex: "0 0 auto", overflow: "visible" } });
  const g = svg("g", { class: "br-card-face" });
  g.append(svg("rect", { class: "br-face", x: 1.5, y: 1.5, width: CARD_W - 3, height: CARD_H - 3, rx: 9, fill: "#fffdf6", stroke: selected ? "#0072B2" : "#3a3a3a", "stroke-width": selected ? 4 : 1.5 }));
  g.append(svg("path", { d: `M3,11 Q3,3 11,3 L${CARD_W - 11},3 Q${CARD_W - 3},3 ${CARD_W - 3},11 L${CARD_W - 3},52 L3,52 Z`, fill: TYPE_FILL[c.type] || "#eee", "pointer-events": "none" }));
  const name = cardName(c.name, t);
  // Bold letters run wider than the estimate: a tenth of the width to spare before the age.
  const heading = fit(name, (CARD_W - 36) * 0.9, 13, { min: 11, maxLines: 2 });
  g.append(textLines(10, 21, heading.lines, heading.size, { "font-weight": 700, fill: "#1d1d1f", "pointer-events": "none" }));
  g.append(label(CARD_W - 10, 18, ROMAN[(c.age || 1) - 1], 11, { "text-anchor": "end", fill: "#5c5c66", "pointer-events": "none" }));
  g.append(label(10, 68, cardType(c, t), 11, { fill: "#5c5c66", "pointer-events": "none" }));
  g.append(textLines(10, 86, wrap(cardValue(c, t), CARD_W - 20, 12, 2), 12, { "font-weight": 700, fill: "#1d1d1f", "pointer-events": "none" }));
  g.append(textLines(10, 118, wrap(t(`card.${c.name}.text`), CARD_W - 24, 11, 7), 11, { fill: "#333", "pointer-events": "none" }));
  el.append(g);
  tooltip(g, `${name} · ${cardType(c, t)} · ${cardValue(c, t)}: ${t(`card.${c.name}.text`)}`);
  if (moves && moves.length === 1) {
    moveTarget(g, moves[0], ctx, moveLabel(moves[0], ctx), "br-legal");
  } else if (moves && moves.length > 1 && onSelect) {
    choiceTarget(g, `card:${c.id}`, t("br.ui.choose_slot", { card: name }), "br-legal", onSelect, moves);
  } else if (moves !== undefined) {
    el.setAttribute("opacity", "0.6");
  }
  return el;
}

function cardRow(heading, cards, ctx, tg, ui, rerender, row) {
  if (!cards.length) return null;
  return h("section", { class: "br-cards", "data-row": row, style: { margin: "8px 0" } },
    h("h3", { style: { margin: "4px 0", fontSize: "1rem" } }, heading),
    h("div", { style: { display: "flex", flexWrap: "wrap", gap: "8px" } }, cards.map((c) => {
      const moves = tg.byCard.get(c.id) || [];
      return drawCard(c, ctx, {
        moves: ctx.legal.length ? moves : undefined,
        selected: ui.card === c.id,
        onSelect: () => {
          ui.card = ui.card === c.id ? null : c.id;
          ui.figure = null;
          rerender();
        },
      });
    })));
}

// -- the clan sheets ---------------------------------------------------------------------

const TRACKS = { rage: [6, 7, 8, 9, 12, 12], axes: [3, 4, 5, 6, 8, 8], horns: [4, 5, 6, 7, 10, 10] };

function drawClan(c, ctx, tg, ui, rerender) {
  const { view, t } = ctx;
  const me = isMine(ctx) && c.seat === ctx.seat;
  const W = 340;
  const H = c.valhalla.length ? 322 : 296;
  const { colour } = seatStyle(c.seat);
  const sheet = svg("svg", { class: "br-clan", "data-seat": c.seat, viewBox: `0 0 ${W} ${H}`, role: "group", "aria-label": t("br.ui.clan_sheet", { clan: clanName(c.clan, t), name: seatName(ctx.seats, c.seat) }), style: { width: "100%", maxWidth: `${W}px`, height: "auto", flex: `1 1 ${W}px` } });
  sheet.append(svg("rect", { x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 10, fill: "#fbf8f1", stroke: colour, "stroke-width": 3 }));
  sheet.append(seatShape(c.seat, 20, 20, 10));
  // The clan's name (or "choosing a clan…") on the first half of the heading line.
  const clanFit = fit(clanName(c.clan, t), W * 0.45, 14, { min: 10 });
  sheet.append(label(36, 18, clanFit.lines[0], clanFit.size, { "font-weight": 700, fill: c.clan ? "#1d1d1f" : "#5c5c66", "data-clan": c.clan || "" }));
  sheet.append(label(36, 33, seatName(ctx.seats, c.seat), 11, { fill: "#5c5c66" }));
  const ci = view.clans.indexOf(c);
  sheet.append(part(label(W - 12, 22, `${c.glory}`, 20, { "text-anchor": "end", "font-weight": 700 }), `clans/${ci}/glory`),
    label(W - 12, 37, t("br.ui.glory"), 11, { "text-anchor": "end", fill: "#5c5c66" }));
  const tags = [];
  if (view.first === c.seat) tags.push(t("br.ui.first"));
  if (view.turn === c.seat && view.phase === "action") tags.push(t("br.ui.on_turn"));
  if (c.passed) tags.push(t("br.ui.passed"));
  // The tags fit between the clan's name and the glory (bold runs an eighth wider than
  // the estimate).
  const tagText = tags.join(" · ");
  const tagX = Math.max(150, 36 + textWidth(clanFit.lines[0], clanFit.size) * 1.12 + 10);
  const tagRoom = W - 12 - textWidth(`${c.glory}`, 20) - 8 - tagX;
  // Never under 11 px: what does not fit ends in "…", the whole in its tooltip.
  const tagFit = fit(tagText, tagRoom * 0.9, 11, { min: 11 });
  if (tags.length) sheet.append(tooltip(label(tagX, 18, tagFit.lines[0], tagFit.size, { fill: "#0b5d8a", "font-weight": 700 }), tagText));

  // Rage left, as pips.
  let y = 54;
  sheet.append(part(label(12, y + 4, `${t("br.ui.rage_left")}: ${c.rage}`, 12, { "font-weight": 700 }), `clans/${ci}/rage`));
  for (let i = 0; i < c.rage; i++) sheet.append(svg("circle", { cx: 150 + i * 14, cy: y, r: 5, fill: "#D55E00", stroke: "#1b1b1b", "stroke-width": 0.8 }));

  // The three stat tracks, the current step filled; 4th and later steps are legendary.
  y += 16;
  for (const stat of ["rage", "axes", "horns"]) {
    const row = part(svg("g", { class: "br-stat", "data-stat": stat }), `clans/${ci}/stats/${stat}`,
      `${t(`br.stat.${stat}`)}: ${TRACKS[stat][c.stats[stat].step - 1] ?? ""}`);
    row.append(svg("rect", { class: "br-face", x: 8, y, width: W - 16, height: 22, rx: 5, fill: "transparent", stroke: "none" }));
    row.append(label(12, y + 15, t(`br.stat.${stat}`), 11));
    const steps = TRACKS[stat];
    const cur = c.stats[stat].step - 1;
    steps.forEach((v, k) => {
      const x = 110 + k * 36;
      row.append(svg("rect", { x, y: y + 2, width: 32, height: 18, rx: 3, fill: k === cur ? colour : k >= 3 ? "#f3ecd6" : "#fff", stroke: k === cur ? "#1b1b1b" : "#b5ac98", "stroke-width": k === cur ? 2 : 1, "pointer-events": "none" }));
      row.append(label(x + 16, y + 15, String(v), 11, { "text-anchor": "middle", "font-weight": k === cur ? 700 : 400, "pointer-events": "none" }));
    });
    const move = me ? tg.byStat.get(stat) : null;
    if (move) {
      row.firstChild.setAttribute("stroke", "#1b1b1b");
      row.firstChild.setAttribute("stroke-dasharray", "6 3");
      moveTarget(row, move, ctx, moveLabel(move, ctx), "br-legal");
    }
    sheet.append(row);
    y += 24;
  }

  // Upgrade slots with the cards in them.
  y += 6;
  sheet.append(label(12, y + 8, t("br.ui.upgrades"), 12, { "font-weight": 700 }));
  y += 14;
  const slotMoves = new Map();
  if (me && ui.card) for (const m of tg.byCard.get(ui.card) || []) if (m.type === "upgrade") slotMoves.set(m.slot, m);
  Object.entries(c.upgrades).forEach(([slot, name], k) => {
    const x = 8 + (k % 2) * 164;
    const sy = y + Math.floor(k / 2) * 20;
    const g = part(svg("g", { class: "br-slot", "data-slot": slot }), `clans/${ci}/upgrades/${slot}`);
    g.append(svg("rect", { class: "br-face", x, y: sy, width: 160, height: 18, rx: 4, fill: name ? "#eef6ec" : "#fff", stroke: "#b5ac98" }));
    const text = `${t(`br.ui.slot.${SLOT_BASE(slot)}`)}: ${name ? cardName(name, t) : t("br.ui.empty_slot")}`;
    g.append(label(x + 5, sy + 13, wrap(text, 150, 11, 1)[0], 11, { fill: name ? "#1d1d1f" : "#8a8a8a", "pointer-events": "none" }));
    tooltip(g, name ? `${cardName(name, t)}: ${t(`card.${name}.text`)}` : text);
    const move = slotMoves.get(slot);
    if (move) moveTarget(g, move, ctx, moveLabel(move, ctx), "br-legal");
    sheet.append(g);
  });
  y += 96;

  // Reserve and Valhalla: the figures that may still come onto the board.
  const drawPool = (kinds, source, x0, yy, head) => {
    sheet.append(label(x0, yy + 4, head, 11, { "font-weight": 700 }));
    let x = x0 + 58;
    for (const [kind, n] of countKinds(kinds)) {
      const g = svg("g", { class: "br-pool", "data-pool": source, "data-kind": kind });
      const picked = me && ui.figure === kind && ui.source === source;
      g.append(svg("rect", { class: "br-face", x: x - 4, y: yy - 12, width: 44, height: 24, rx: 6, fill: picked ? "#cde2f2" : "transparent", stroke: picked ? "#0072B2" : "none", "stroke-width": 2 }));
      g.append(figure(c.seat, kind, x + 8, yy, t));
      g.append(label(x + 22, yy + 4, `×${n}`, 11, { "pointer-events": "none" }));
      if (me && tg.select.get(`${source}:${kind}`)) {
        choiceTarget(g, `${source}:${kind}`, t("br.ui.select_figure", { figure: figureName(kind, t) }), "br-legal", () => {
          const again = ui.figure === kind && ui.source === source;
          ui.figure = again ? null : kind;
          ui.source = source;
          ui.card = null;
          rerender();
        }, tg.select.get(`${source}:${kind}`));
      }
      sheet.append(g);
      x += 46;
    }
  };
  drawPool(c.reserve, "reserve", 12, y, t("br.ui.reserve"));
  y += 26;
  if (c.valhalla.length) drawPool(c.valhalla, "valhalla", 12, y, t("br.ui.valhalla"));
  sheet.append(part(label(W - 12, H - 12, `${t("br.ui.cards", { n: c.hand })} · ${t("br.ui.quest_count", { n: c.quests })}`, 11, { "text-anchor": "end", fill: "#5c5c66" }),
    [`clans/${ci}/hand`, `clans/${ci}/quests`]));
  return sheet;
}

// -- the bar of moves without a target ---------------------------------------------------

function drawBar(ctx, tg, ui) {
  const { t } = ctx;
  const hint = ui.card ? t("br.ui.choose_slot", { card: cardName((cardsById(ctx.view).get(ui.card) || {}).name || "", t) })
    : tg.select.size && !ui.figure ? t("br.ui.choose_figure") : "";
  if (!tg.bar.length && !hint) return null;
  const buttons = tg.bar.map((m) => {
    const text = moveLabel(m, ctx);
    const w = Math.max(90, textWidth(text, 13) + 28);
    // 44 px high: a finger's width on a phone.
    const el = svg("svg", { class: "br-bar-button", viewBox: `0 0 ${w} 44`, width: w, height: 44, style: { flex: "0 0 auto", overflow: "visible" } });
    const g = svg("g", {});
    g.append(svg("rect", { class: "br-face", x: 0.75, y: 0.75, width: w - 1.5, height: 42.5, rx: 8, fill: "#fffdf6", stroke: "#1b1b1b", "stroke-width": 1.5 }));
    g.append(label(w / 2, 27, text, 13, { "text-anchor": "middle", "font-weight": 700, "pointer-events": "none" }));
    el.append(moveTarget(g, m, ctx, text, "br-legal"));
    return el;
  });
  return h("div", { class: "br-bar", style: { display: "flex", flexWrap: "wrap", alignItems: "center", gap: "8px", margin: "0 0 8px" } },
    buttons, hint ? h("span", { class: "small muted", id: "br-hint" }, hint) : null);
}

// -- render ------------------------------------------------------------------------------

const STYLE = `
.br-board [role=button]:focus { outline: none; }
.br-board [role=button]:focus-visible > .br-face { stroke: #0072B2; stroke-width: 5; }
.br-board .br-legal > .br-face { stroke: #111; stroke-width: 4; stroke-dasharray: 9 4; }
.br-board .br-card-face.br-legal > .br-face { stroke-dasharray: none; }
.br-board .br-legal:hover > .br-face { stroke: #0072B2; }
.br-board .br-figure.br-legal > .br-face { stroke-dasharray: none; stroke-width: 3.5; }
.br-board svg text { font-family: system-ui, "Noto Sans", "Noto Sans CJK JP", sans-serif; }
`;

export function render(root, ctx) {
  const ui = boardState(root, freshUi);
  const { view, t } = ctx;
  // A half-made choice that the current moves no longer allow is dropped.
  const types = new Set(ctx.legal.map((m) => m.type));
  if (ui.figure && !ctx.legal.some((m) => (m.type === "invade" && ui.source === "reserve" || m.type === "valhalla_invade" && ui.source === "valhalla") && m.figure === ui.figure)) ui.figure = null;
  if (ui.card && !ctx.legal.some((m) => m.type === "upgrade" && m.card === ui.card)) ui.card = null;
  // With a single figure kind to invade with, it is chosen already: one click fewer.
  const invaders = [...new Set(ctx.legal.filter((m) => m.type === "invade").map((m) => m.figure))];
  if (!ui.figure && !ui.card && invaders.length === 1 && !types.has("valhalla_invade")) {
    ui.figure = invaders[0];
    ui.source = "reserve";
  }
  // A phone-width board (the root narrower than the map's natural size) gets larger
  // lettering on the map and a narrower final table (the kit draws it again when the
  // width crosses that line).
  ctx = { ...ctx, compact: compactBelow(root, 560) };
  drawnWith(root, ctx, render);
  const rerender = ui.redraw;
  const tg = targets(ctx, ui);

  const you = view.you || null;
  const board = h("div", { class: "br-board", "data-phase": view.phase, "data-age": view.age, "data-compact": ctx.compact ? "1" : "0" },
    h("style", {}, STYLE),
    drawBar(ctx, tg, ui),
    h("div", { class: "br-top", style: { display: "flex", flexWrap: "wrap", gap: "12px", alignItems: "flex-start" } },
      drawMap(ctx, tg),
      h("div", { class: "br-side-col", style: { display: "flex", flexDirection: "column", gap: "10px", flex: "1 1 260px", maxWidth: "340px" } },
        drawBattle(ctx, tg), drawSide(ctx))),
    you ? cardRow(t("br.ui.pack"), you.pack || [], ctx, tg, ui, rerender, "pack") : null,
    you ? cardRow(t("br.ui.hand"), you.hand || [], ctx, tg, ui, rerender, "hand") : null,
    you ? cardRow(t("br.ui.quests"), you.quests || [], { ...ctx, legal: [] }, tg, ui, rerender, "quests") : null,
    h("div", { class: "br-clans", style: { display: "flex", flexWrap: "wrap", gap: "10px", marginTop: "8px" } },
      view.clans.map((c) => drawClan(c, ctx, tg, ui, rerender))));
  keepFocus(root, () => root.replaceChildren(board));
  const area = decisionArea(ctx, tg, ui);
  const sheet = `.br-clan[data-seat="${ctx.seat}"]`;
  const where = { reserve: `${sheet} .br-pool[data-select]`, clan: sheet, map: ".br-map", battle: ".br-battle.live",
    pack: ".br-cards[data-row=pack]", hand: ".br-cards[data-row=hand]" };
  focusArea(root, area ? board.querySelectorAll(where[area]) : [], area);
}

// The part of the board the reader's decision is about, where its first step is taken: the
// reserve while a figure is to be chosen (several kinds may invade), the map once one is
// (or for a march, a pillage, a call to arms), the clan sheet for an upgrade's slot or a
// stat, the pack in the draft, the hand for a card to play or keep, the battle for a card
// to take back. None when only the bar's buttons decide.
function decisionArea(ctx, tg, ui) {
  if (!isMine(ctx) || !ctx.legal.length) return null;
  if (ui.card) return "clan";
  if (ui.figure) return "map";
  if (tg.select.size) return "reserve";
  if (tg.byPlace.size || tg.byFigure.size || tg.byToken.size) return "map";
  const you = ctx.view.you || {};
  const has = (cards) => (cards || []).some((c) => tg.byCard.has(c.id));
  if (has(you.pack)) return "pack";
  if (has(you.hand)) return "hand";
  if (has(you.played)) return "battle";
  if (tg.byStat.size) return "clan";
  return null;
}

export function moveLabel(move, ctx) {
  const { t } = ctx;
  const cards = cardsById(ctx.view);
  const card = move.card ? cardName((cards.get(move.card) || {}).name || move.card, t) : "";
  const fig = move.figure ? figureName(move.figure, t) : "";
  switch (move.type) {
    case "clan": return t("br.ui.choose_clan", { clan: clanName(move.clan, t) });
    case "pick": return t("br.ui.pick", { card });
    case "play": case "play_extra": return t("br.ui.play", { card });
    case "upgrade": {
      // Two slots of a kind read the same unless the one whose card is replaced is named.
      const clan = (ctx.view.clans || []).find((c) => c.seat === ctx.seat);
      const old = clan && clan.upgrades ? clan.upgrades[move.slot] : null;
      const slot = t(`br.ui.slot.${SLOT_BASE(move.slot)}`);
      return old ? t("br.ui.upgrade_replace", { card, slot, old: cardName(old, t) }) : t("br.ui.upgrade", { card, slot });
    }
    case "quest": return t("br.ui.quest", { card });
    case "keep": return t("br.ui.keep", { card });
    case "keep_card": return t("br.ui.keep_card", { card });
    case "invade": return t("br.ui.invade", { place: place(move.to, t), figure: fig });
    case "free_invade": return t("br.ui.free_invade", { place: place(move.to, t), figure: fig });
    case "valhalla_invade": return t("br.ui.valhalla_invade", { place: place(move.to, t), figure: fig });
    case "march": return t("br.ui.march_from", { place: place(move.from, t) });
    case "march_add": return t("br.ui.march_add", { figure: fig });
    case "march_to": return t("br.ui.march_to", { place: place(move.to, t) });
    case "move_leader": return t("br.ui.move_leader", { place: place(move.to, t) });
    case "pillage": return t("br.ui.pillage", { place: place(move.province, t) });
    case "domain_pillage": return t("br.ui.domain_pillage", { place: place(move.province, t) });
    case "join": return t("br.ui.join", { figure: fig, place: place(move.from, t) });
    case "keep_figure": return t("br.ui.keep_figure", { figure: fig, place: place(move.at, t) });
    case "protect": return t("br.ui.protect", { figure: fig, place: place(move.at, t) });
    case "sacrifice_figure": return t("br.ui.sacrifice_figure", { figure: fig, place: place(move.at, t) });
    case "raise": return t("br.ui.raise", { stat: t(`br.stat.${move.stat}`) });
    case "pass": return t("br.ui.pass");
    case "decline": return t("br.ui.decline");
    case "discard_all": return t("br.ui.discard_all");
    case "sacrifice": return t("br.ui.sacrifice");
    default: return null;
  }
}

// The end-of-game statistics (the frame's "points by source" table): glory won during
// the game, each legendary stat's bonus, Thor's Conquest. The rows add up to the score.
export function statistics(result, { t }) {
  const b = (result.breakdown || []).map((x) => x || {});
  const rows = [{ label: t("br.breakdown.before_bonus"), values: b.map((x) => x.before_bonus ?? 0) }];
  for (const stat of ["rage", "axes", "horns"]) {
    rows.push({ label: t("score.source_part", { source: t("br.breakdown.legendary"), part: t(`br.stat.${stat}`) }),
      values: b.map((x) => (x.legendary || {})[stat] ?? 0) });
  }
  rows.push({ label: t("br.breakdown.thors_conquest"), values: b.map((x) => x.thors_conquest ?? 0) });
  return rows;
}

// Each clan's key resources, for its seat panel: glory, rage left, its axes and horns (the
// values of its stat tracks), its cards in hand and its figures in reserve.
export function resources(view, seat, { t }) {
  const c = (view.clans || []).find((x) => x.seat === seat);
  if (!c) return [];
  const stat = (s) => TRACKS[s][(c.stats[s] || {}).step - 1] ?? 0;
  return [
    { key: "glory", label: t("br.ui.glory"), value: c.glory },
    { key: "rage", label: t("br.ui.rage_left"), value: c.rage },
    { key: "axes", label: t("br.stat.axes"), value: stat("axes") },
    { key: "horns", label: t("br.stat.horns"), value: stat("horns") },
    { key: "cards", label: t("br.ui.res_cards"), value: c.hand },
    { key: "reserve", label: t("br.ui.reserve"), value: (c.reserve || []).length },
  ];
}

export function scores(view) {
  return view.clans.map((c) => c.glory);
}

export function destroy(root) {
  dropBoardState(root);
}
