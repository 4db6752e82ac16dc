// The board of Crusaders: Thy Will Be Done (games/crusaders/ in the engine): the hex map,
// every player's action wheel (a mancala ring of six wedges), building rows, troops,
// trophies, the enemy strength tracks and, at the end, the score breakdown.
// Every legal move has a control on the board: wedges, the upgrade badges, map regions,
// and a tray of choice buttons for the moves that have no place on the map (split, stop,
// pass, the Saracen's reward, how to sow). See README.md in this folder for the interface.
import { boardState, choiceTarget, drawnWith, dropBoardState, focusArea, keepFocus, moveButton, moveTarget, part, piece, tooltip } from "/js/board.js";
import { clear, h, svg } from "/js/dom.js";
import { seatName } from "/js/gamemodule.js";
import { seatShape, seatStyle } from "/js/seats.js";
import { fit, textWidth } from "/js/svgtext.js";

const SQRT3 = Math.sqrt(3);
const HEX = 38; // hex radius on the map, in SVG units
// A player's board: the wheel's radius, where the wheel stands, where the building rows
// start. At 1x on a desktop the board is drawn at its size (see render), so its lettering
// is never under 11 units; the wedges are wide enough for "Influence" whole at that size.
const WHEEL_R = 86;
const PLAYER_W = 460;
const PLAYER_H = 312;
const ROWS_X = 226;
// Where the knights of a region stand, relative to its centre: the lower half, or beside
// the enemy token when there is one.
const KNIGHT_SPOTS = [[-9, 22], [9, 22], [-24, 5], [24, 5], [0, 8], [-23, -6]];
const KNIGHT_SPOTS_ENEMY = [[-23, 8], [23, 8], [-20, 22], [20, 22], [-24, -5], [24, -5]];
const BUILDINGS = ["castle", "church", "farm", "bank"];
const ENEMIES = ["prussian", "slav", "saracen"];
// Light fills, so the black text and tokens on them stay readable; the action's name is
// always written too, so the colour is never the only cue.
const ACTION_FILL = { move: "#cfe4f5", muster: "#f6dcc0", crusade: "#f2c8c2", influence: "#f1e5a6", build: "#cfead3" };
const ACTION_INK = { move: "#1f5a85", muster: "#8a4b0f", crusade: "#8f2418", influence: "#6b5800", build: "#21603a" };
const TARGET = "#0072B2";
// Moves played on a wedge of the reader's wheel.
const WHEEL_MOVES = new Set(["resolve", "upgrade", "skip", "sow_wedge", "remove_token", "add_token", "setup_upgrade"]);

// A region's name as players read it on the map and in the log ("D2": row D from the top,
// second place from the left; CR-43), from the game's strings.
function regionName(t, id) {
  return t(`cr.region.${id}`);
}

// -- small drawings -----------------------------------------------------------------

// Icons are drawn in a 20x20 box centred on (0, 0), then placed and scaled.
const ICON_PATHS = {
  castle: "M-8,8 V-8 H-5 V-5 H-2 V-8 H2 V-5 H5 V-8 H8 V8 Z M-2,8 V3 A2,2 0 0 1 2,3 V8 Z",
  church: "M-7,8 V0 L0,-5 L7,0 V8 Z M0,-5 V-10 M-2.5,-8 H2.5 M-1.5,8 V4 H1.5 V8",
  farm: "M-8,8 V-1 L-4,-7 H4 L8,-1 V8 Z M-3,8 V2 H3 V8 M-3,2 L3,8 M3,2 L-3,8",
  bank: "M-9,-2 L0,-8 L9,-2 Z M-7,0 H-4 V5 H-7 Z M-1.5,0 H1.5 V5 H-1.5 Z M4,0 H7 V5 H4 Z M-9,6 H9 V8 H-9 Z",
  troop: "M-6,-7 H6 V0 C6,5 0,8 0,8 C0,8 -6,5 -6,0 Z M0,-7 V8 M-6,-1 H6",
  knight: "M-6,8 V-1 A6,7 0 0 1 6,-1 V8 Z M-6,0 H6 M-1,-8 V-12",
  move: "M-8,0 H6 M1,-5 L6,0 L1,5",
  muster: "M-6,-7 H6 V0 C6,5 0,8 0,8 C0,8 -6,5 -6,0 Z",
  crusade: "M-7,7 L6,-6 M3,-7 L7,-7 L7,-3 M-7,2 L-2,7 M-8,8 L-5,5",
  influence: "M0,-8 L2.4,-2.6 L8,-2.6 L3.5,1 L5.2,7 L0,3.6 L-5.2,7 L-3.5,1 L-8,-2.6 L-2.4,-2.6 Z",
  build: "M-8,8 V-1 L0,-8 L8,-1 V8 Z",
  any: "M0,-8 L2.4,-2.6 L8,-2.6 L3.5,1 L5.2,7 L0,3.6 L-5.2,7 L-3.5,1 L-8,-2.6 L-2.4,-2.6 Z",
};
// Line icons (an arrow, a sword) are stroked; the others are filled shapes.
const STROKED = new Set(["move", "crusade"]);

function icon(kind, x, y, size = 16, colour = "#1d1d1f", extra = {}) {
  const s = size / 20;
  const stroked = STROKED.has(kind);
  return svg("path", {
    d: ICON_PATHS[kind] || ICON_PATHS.build,
    transform: `translate(${x},${y}) scale(${s})`,
    fill: stroked ? "none" : colour,
    stroke: stroked ? colour : "#1d1d1f",
    "stroke-width": (stroked ? 2.4 : 1.2),
    "stroke-linejoin": "round",
    "stroke-linecap": "round",
    "fill-rule": "evenodd",
    ...extra,
  });
}

function text(x, y, content, attrs = {}) {
  return svg("text", { x, y, "font-size": 11, fill: "#1d1d1f", "text-anchor": "middle", ...attrs }, String(content));
}

function titled(el, label) {
  el.append(svg("title", {}, label));
  return el;
}

const hexCorner = (cx, cy, r, i) => {
  const a = (Math.PI / 180) * (60 * i - 30);
  return `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`;
};
const hexPoints = (cx, cy, r) => [0, 1, 2, 3, 4, 5].map((i) => hexCorner(cx, cy, r, i)).join(" ");

// An enemy token: Prussians a dark shield, Slavs a brown disc, Saracens a light octagon
// showing their reward; the strength is always written on it.
function enemyToken(token, strength, cx, cy, t) {
  const kind = token.startsWith("saracen") ? "saracen" : token;
  const reward = kind === "saracen" ? token.split(":")[1] : null;
  const g = svg("g", { class: "cr-enemy", "data-enemy": kind });
  if (kind === "prussian") {
    g.append(svg("path", { d: `M${cx - 11},${cy - 11} H${cx + 11} V${cy + 1} C${cx + 11},${cy + 8} ${cx},${cy + 13} ${cx},${cy + 13} C${cx},${cy + 13} ${cx - 11},${cy + 8} ${cx - 11},${cy + 1} Z`, fill: "#33333d", stroke: "#000", "stroke-width": 1 }));
    g.append(text(cx, cy + 4, strength, { "font-size": 13, "font-weight": 700, fill: "#fff" }));
  } else if (kind === "slav") {
    g.append(svg("circle", { cx, cy, r: 12, fill: "#8c5a2b", stroke: "#3d2410", "stroke-width": 1.5 }));
    g.append(text(cx, cy + 4.5, strength, { "font-size": 13, "font-weight": 700, fill: "#fff" }));
  } else {
    const pts = [];
    for (let i = 0; i < 8; i++) {
      const a = Math.PI / 8 + (i * Math.PI) / 4;
      pts.push(`${(cx + 13 * Math.cos(a)).toFixed(1)},${(cy + 13 * Math.sin(a)).toFixed(1)}`);
    }
    g.append(svg("polygon", { points: pts.join(" "), fill: "#f6f1e1", stroke: "#2d6a4f", "stroke-width": 2 }));
    g.append(icon(reward, cx - 4, cy, 11, "#2d6a4f"));
    g.append(text(cx + 6, cy + 4.5, strength, { "font-size": 12, "font-weight": 700, fill: "#2d6a4f" }));
  }
  const label = reward
    ? t("cr.ui.enemy_saracen", { strength, reward: t(reward === "troop" ? "cr.ui.troop" : `cr.building.${reward}`) })
    : t("cr.ui.enemy", { enemy: t(`cr.enemy.${kind}`), strength });
  return titled(g, label);
}

// A building: its type's outline filled in the owner's colour, the owner's shape in the
// corner (so colour is not the only cue) and its level.
function building(b, cx, cy, t, size = 16, side = 1) {
  const g = svg("g", { class: "cr-building", "data-seat": b.seat, "data-building": b.building });
  g.append(icon(b.building, cx, cy, size, seatStyle(b.seat).colour));
  g.append(seatShape(b.seat, cx + size * 0.55, cy + size * 0.45, size * 0.22));
  // The level on a small badge over the building's outer top corner (`side`: -1 left,
  // 1 right), clear of the seat's shape, of the printed bonuses beside it and of the
  // region's name above it.
  const [lx, ly] = [cx + side * size * 0.66, cy - size * 0.56];
  g.append(svg("circle", { cx: lx, cy: ly, r: 5.2, fill: "#fffdf6", stroke: "#6d6658", "stroke-width": 0.8 }),
    text(lx, ly + 3, b.level, { "font-size": 8.5, "font-weight": 700 }));
  return titled(g, t("cr.ui.building_on_map", { building: t(`cr.building.${b.building}`), level: b.level }));
}

function knight(seat, cx, cy, r = 7) {
  const g = svg("g", { class: "cr-knight", "data-seat": seat });
  // A pennant on a pole above the seat's shape: what makes it a knight rather than a token.
  g.append(svg("path", { d: `M${cx},${cy - r - 5} V${cy - r + 1}`, stroke: "#1d1d1f", "stroke-width": 1.4 }));
  g.append(svg("path", { d: `M${cx},${cy - r - 5} L${cx + 5},${cy - r - 3.5} L${cx},${cy - r - 2} Z`, fill: seatStyle(seat).colour, stroke: "#1d1d1f", "stroke-width": 0.8 }));
  g.append(seatShape(seat, cx, cy, r));
  return g;
}

function bonusMark(kind, n, x, y, colour = "#1d1d1f") {
  const g = svg("g", {});
  // In the wheel's narrower lettering: two marks share a building's space at 11 units.
  g.append(text(x, y + 4, `+${n}`, { "font-size": 11, "font-weight": 700, fill: colour, "text-anchor": "end", "font-family": WHEEL_FONT }));
  g.append(icon(kind, x + 5, y, 9, kind === "knight" ? "#ffffff" : colour));
  return g;
}

// -- per-page memory --------------------------------------------------------------------

// Kept between updates in the board kit's state: what the reader has picked (a knight to
// move, a region to build in: a click that picks draws again with mem.redraw()), the
// tokens last drawn (to show a sowing) and the parts of the drawing (see cached()).
const freshMemory = () => ({ knight: null, region: null, tokens: null, sown: undefined, cache: new Map(), next: new Map() });

// Parts of the drawing kept between updates: `build()` runs only when `sig` (everything
// the part shows) differs from last time. Parts not used in a render are forgotten.
function cached(mem, name, sig, build) {
  const hit = mem.cache.get(name);
  const el = hit && hit.sig === sig ? hit.el : build();
  mem.next.set(name, { sig, el });
  return el;
}

// -- the map ----------------------------------------------------------------------------

// The reader's knights that may step now (index -> its steps), and the one picked to move
// (`mem.knight`, the first of them unless the reader picked another).
function stepsByKnight(ctx, mem) {
  const knightSteps = new Map();
  if (ctx.view.turn.phase !== "move") return knightSteps;
  for (const m of ctx.legal) if (m.type === "step") {
    if (!knightSteps.has(m.knight)) knightSteps.set(m.knight, []);
    knightSteps.get(m.knight).push(m);
  }
  if (!knightSteps.has(mem.knight)) mem.knight = knightSteps.size ? [...knightSteps.keys()][0] : null;
  return knightSteps;
}

// The other knights the reader may pick to move instead, one per region (knights on one
// spot take the same steps): region id -> knight index.
function otherKnights(ctx, mem, knightSteps) {
  const picks = new Map();
  if (knightSteps.size < 2) return picks;
  const where = ctx.view.players[ctx.view.seat].knights;
  const picked = where[mem.knight];
  for (const n of knightSteps.keys()) if (where[n] !== picked && !picks.has(where[n])) picks.set(where[n], n);
  return picks;
}

function mapSvg(ctx, mem) {
  const { view, legal, t } = ctx;
  const centre = (reg) => [HEX * SQRT3 * (reg.q + reg.r / 2), HEX * 1.5 * reg.r];
  const xs = view.regions.map((reg) => centre(reg)[0]);
  const ys = view.regions.map((reg) => centre(reg)[1]);
  const minX = Math.min(...xs) - HEX - 6;
  const minY = Math.min(...ys) - HEX - 6;
  const width = Math.max(...xs) - minX + HEX + 6;
  const height = Math.max(...ys) - minY + HEX + 6;
  const board = svg("svg", {
    viewBox: `${minX.toFixed(0)} ${minY.toFixed(0)} ${width.toFixed(0)} ${height.toFixed(0)}`, width: width.toFixed(0),
    class: "cr-map", role: "group", "aria-label": t("cr.ui.map"),
  });

  const phase = view.turn.phase;
  const byRegion = new Map();
  const add = (region, move) => {
    if (!byRegion.has(region)) byRegion.set(region, []);
    byRegion.get(region).push(move);
  };
  const knightSteps = stepsByKnight(ctx, mem);
  for (const m of knightSteps.get(mem.knight) || []) add(m.to, m);
  for (const m of legal) {
    if (m.type === "place_knight" || m.type === "crusade" || m.type === "build") add(m.region, m);
  }
  // A region picked for building counts only while it still offers a building.
  if (phase !== "build" || !(byRegion.get(mem.region) || []).some((m) => m.type === "build")) mem.region = null;
  const me = view.seat;
  const myKnights = me !== null && me !== undefined && view.players[me] ? view.players[me].knights : [];

  const picking = phase === "move" ? `${[...knightSteps.keys()]}|${mem.knight}` : "";
  for (const reg of view.regions) {
    const strength = reg.enemy ? (reg.enemy.startsWith("saracen") ? view.saracen_strength : view.tracks[reg.enemy].strength) : 0;
    const moves = byRegion.get(reg.id);
    const sig = [ctx.lang, view.seats, JSON.stringify(reg), strength, JSON.stringify(moves || null), phase,
      mem.region === reg.id, reg.knights.includes(me) ? picking : "", myKnights.join()].join("|");
    board.append(cached(mem, `region:${reg.id}`, sig, () => regionGroup(ctx, mem, reg, centre(reg), moves, knightSteps, myKnights)));
  }
  // Regions that are targets drawn last, so their thick outline is never hidden by a neighbour.
  for (const g of [...board.querySelectorAll(".cr-target")]) board.append(g);
  return board;
}

// One region of the map. Rebuilding 43 regions on every update is the slowest part of a
// redraw, so each is kept (see cached()) until something it shows has changed.
function regionGroup(ctx, mem, reg, [cx, cy], moves, knightSteps, myKnights) {
  const { view, t } = ctx;
  const phase = view.turn.phase;
  const me = view.seat;
  const g = part(svg("g", { class: "cr-region", "data-region": reg.id }), `regions/${reg.id}`);
  const fill = reg.start ? "#f3e3bf" : reg.flag ? "#e9e4d2" : "#f4efe0";
  g.append(svg("polygon", { class: "cr-hex", points: hexPoints(cx, cy, HEX - 1), fill, stroke: "#8b8270", "stroke-width": 1 }));
  if (reg.start) g.append(svg("polygon", { points: hexPoints(cx, cy, HEX - 5), fill: "none", stroke: "#b08a3e", "stroke-width": 1.2, "stroke-dasharray": "3 3" }));
  // The region's name, as the log uses it ("… from D2 to C1").
  g.append(text(cx, cy - 25, regionName(t, reg.id), { "font-size": 9, "font-weight": 700, fill: "#5a5346", class: "cr-region-name" }));
  if (reg.flag && !reg.enemy) {
    // An empty flag space: an enemy stood here and was beaten.
    g.append(svg("path", { d: `M${cx - 4},${cy + 10} V${cy - 4} L${cx + 6},${cy - 1} L${cx - 4},${cy + 2}`, fill: "#cfc8b2", stroke: "#8b8270", "stroke-width": 1 }));
  }

  // The building space (two at five seats), with the region's printed bonus beside it.
  const spaces = view.seats >= 5 ? 2 : 1;
  const side = spaces === 2 ? 19 : 14;
  for (let i = 0; i < spaces; i++) {
    const bx = cx + (spaces === 2 ? (i ? 8.5 : -8.5) : 0);
    const by = cy - 16;
    const b = reg.buildings[i];
    if (b) g.append(building(b, bx, by, t, 16, spaces === 2 && !i ? -1 : 1));
    else g.append(svg("rect", { class: "cr-space", x: bx - 7.5, y: by - 7.5, width: 15, height: 15, rx: 2, fill: "#fffdf6", stroke: "#8b8270", "stroke-dasharray": reg.enemy ? "2 2" : null }));
  }
  for (const [type, n] of Object.entries(reg.discount || {})) {
    g.append(titled(svg("g", { class: "cr-printed" }, text(cx + side, cy - 11, `−${n}`, { "font-size": 9, "font-weight": 700, fill: "#7a1f1f" }), icon(type, cx + side + 11, cy - 14.5, 9, "#fffdf6")),
      t("cr.ui.printed_discount", { n, building: t(`cr.building.${type}`) })));
  }
  for (const [type, n] of Object.entries(reg.influence || {})) {
    g.append(titled(svg("g", { class: "cr-printed" }, text(cx - side, cy - 11, `+${n}`, { "font-size": 9, "font-weight": 700, fill: "#5b4a00" }), icon(type, cx - side - 11, cy - 14.5, 9, "#f1e5a6")),
      t("cr.ui.printed_influence", { n, building: t(`cr.building.${type}`) })));
  }
  if (reg.tile) {
    const tile = reg.tile;
    const tg = svg("g", { class: "cr-tile" });
    tg.append(svg("rect", { x: cx - 13, y: cy - 5, width: 26, height: 13, rx: 3, fill: "#fff6d6", stroke: "#b08a3e", "stroke-width": 1.2 }));
    tg.append(icon(tile.building === "any" ? "any" : tile.building, cx - 6, cy + 1.5, 9, tile.building === "any" ? "#f1e5a6" : "#fffdf6"));
    tg.append(text(cx + 6, cy + 5, tile.discount ? `−${tile.discount}` : `+${tile.influence}`, { "font-size": 9, "font-weight": 700, fill: tile.discount ? "#7a1f1f" : "#5b4a00" }));
    const what = tile.building === "any" ? t("cr.ui.any_building") : t(`cr.building.${tile.building}`);
    g.append(titled(tg, tile.discount ? t("cr.ui.tile_discount", { n: tile.discount, building: what }) : t("cr.ui.tile_influence", { n: tile.influence, building: what })));
  }
  if (reg.enemy) {
    const strength = reg.enemy.startsWith("saracen") ? view.saracen_strength : view.tracks[reg.enemy].strength;
    g.append(enemyToken(reg.enemy, strength, cx, cy + 4, t));
  }
  // Knights below the middle (beside the enemy if there is one); the reader's own
  // knights are told apart by their index in the view, in order.
  const spots = reg.enemy ? KNIGHT_SPOTS_ENEMY : KNIGHT_SPOTS;
  const mineHere = myKnights.map((where, n) => (where === reg.id ? n : -1)).filter((n) => n >= 0);
  // With several knights that can move, another one is picked by its region, the whole
  // hex (never by a knight each: their finger-wide targets would lie over each other), or,
  // in a region the picked knight may step into, by a button of the tray.
  const pick = moves ? null : otherKnights(ctx, mem, knightSteps).get(reg.id) ?? null;
  // Each knight is its seat's n-th (where the view lists it): it slides when it moves.
  const theirs = new Map();
  reg.knights.forEach((seat, i) => {
    const [dx, dy] = spots[i % spots.length];
    const kx = cx + dx;
    const ky = cy + dy;
    const k = knight(seat, kx, ky, 7.5);
    if (!theirs.has(seat)) theirs.set(seat, ((view.players[seat] || {}).knights || []).map((where, n) => (where === reg.id ? n : -1)).filter((n) => n >= 0));
    const n = theirs.get(seat).shift();
    if (n !== undefined) piece(k, `${seat}-${n}`);
    if (seat === me) {
      const index = mineHere.shift();
      // The knight that moves is ringed.
      if (phase === "move" && index === mem.knight) k.prepend(svg("circle", { cx: kx, cy: ky, r: 11, fill: "#ffffff", stroke: TARGET, "stroke-width": 2.5 }));
    }
    g.append(k);
  });
  if (pick !== null) {
    g.dataset.knight = pick;
    choiceTarget(g, null, t("cr.ui.pick_knight", { region: regionName(t, reg.id) }), "cr-pick", () => { mem.knight = pick; mem.redraw(); }, knightSteps.get(pick));
  }

  tooltip(g, regionTip(ctx, reg));
  if (moves) {
    // What the move acts on is marked too: the enemy to crusade, the space to build on.
    if (phase === "crusade") g.append(svg("circle", { cx, cy: cy + 4, r: 17, fill: "none", stroke: TARGET, "stroke-width": 2.5, "stroke-dasharray": "4 2" }));
    if (phase === "build") for (const space of g.querySelectorAll(".cr-space")) { space.setAttribute("stroke", TARGET); space.setAttribute("stroke-width", 2); }
    g.querySelector(".cr-hex").setAttribute("stroke", TARGET);
    g.querySelector(".cr-hex").setAttribute("stroke-width", 3.5);
    g.querySelector(".cr-hex").setAttribute("fill", "#e3f0fa");
    if (phase === "build") {
      if (mem.region === reg.id) g.querySelector(".cr-hex").setAttribute("fill", "#bcdcf3");
      if (moves.length === 1) moveTarget(g, moves[0], ctx, moveLabel(moves[0], ctx), "cr-target");
      else {
        choiceTarget(g, null, t("cr.ui.pick_region", { region: regionName(t, reg.id) }), "cr-target", () => { mem.region = reg.id; mem.redraw(); }, moves);
      }
    } else {
      moveTarget(g, moves[0], ctx, moveLabel(moves[0], ctx), "cr-target");
    }
  }
  return g;
}

// A region's full text for its tooltip: its name, the enemy there, its buildings, and
// how many knights of whom stand in it.
function regionTip(ctx, reg) {
  const { view, t } = ctx;
  const parts = [regionName(t, reg.id)];
  if (reg.enemy) {
    const strength = reg.enemy.startsWith("saracen") ? view.saracen_strength : view.tracks[reg.enemy].strength;
    parts.push(t("cr.ui.enemy", { enemy: t(`cr.enemy.${reg.enemy.split(":")[0]}`), strength }));
  }
  for (const b of reg.buildings || []) if (b) parts.push(`${t(`cr.building.${b.building}`)} (${seatName(ctx.seats, b.seat)})`);
  const knights = new Map();
  for (const seat of reg.knights || []) knights.set(seat, (knights.get(seat) || 0) + 1);
  for (const [seat, n] of knights) parts.push(`${seatName(ctx.seats, seat)}: ${n} × ${t("cr.ui.knight")}`);
  return parts.join(" · ");
}

// The board's few style rules, added to the page once (a <style> per drawing would make
// the browser restyle the whole page on every update).
function ensureStyle() {
  if (document.getElementById("cr-style")) return;
  document.head.append(h("style", { id: "cr-style" }, `
    .cr-target { cursor: pointer; }
    .cr-target:hover .cr-hex, .cr-target:focus .cr-hex { fill: #bcdcf3; }
    .cr-target .cr-wedge-shape { stroke: ${TARGET}; stroke-width: 3; }
    .cr-target:hover .cr-wedge-shape, .cr-target:focus .cr-wedge-shape { filter: brightness(0.92); }
    .cr-pick { cursor: pointer; }
    .cr-region.cr-pick:hover .cr-hex, .cr-region.cr-pick:focus .cr-hex { fill: #ece4cc; }
    .cr-choice { min-height: 44px; }
    svg [tabindex]:focus:not(:focus-visible) { outline: none; }
    .cr-sown { animation: cr-sown 2.4s ease-out both; }
    @keyframes cr-sown { 0% { opacity: 0; } 15% { opacity: 1; } 80% { opacity: 1; } 100% { opacity: 0; } }
    @media (prefers-reduced-motion: reduce) { .cr-sown { animation: none; opacity: 0; } }
    @media (max-width: 760px) { .cr-layout.wheel-first .cr-side { order: -1; } }
  `));
}

// -- a player's board: wheel, buildings, troops, trophies --------------------------------

function sector(cx, cy, r0, r1, a0, a1) {
  const p = (r, a) => `${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`;
  return `M${p(r1, a0)} A${r1},${r1} 0 0 1 ${p(r1, a1)} L${p(r0, a1)} A${r0},${r0} 0 0 0 ${p(r0, a0)} Z`;
}

function wedgeName(wedge, pos, t) {
  const name = t(`cr.action.${wedge.action}`);
  return wedge.upgraded ? t("cr.ui.wedge_upgraded", { action: name, upgrade: t(`cr.action.${wedge.upgrade}`), n: pos + 1 })
    : t("cr.ui.wedge", { action: name, n: pos + 1 });
}

// A label along the wheel's rim at angle `mid`, turned so that it never reads upside
// down: written across the wedge, it fits however long the action's name is in the
// reader's language.
function arcText([x, y], mid, content, attrs) {
  return text(x, y, content, { ...attrs, "dominant-baseline": "central", transform: `rotate(${uprightAngle(mid).toFixed(1)} ${x.toFixed(1)} ${y.toFixed(1)})` });
}

// The turn (in degrees) of something written across the wheel at angle `mid`, upright.
function uprightAngle(mid) {
  const deg = (mid * 180) / Math.PI + 90;
  return Math.sin(mid) > 0.01 ? deg - 180 : deg; // the lower half of the wheel
}

// The wheel's lettering, and the width of `content` in it at `size`, measured by the
// browser (the estimate of svgtext.js left a fifth to spare, which no wedge had).
const WHEEL_FONT = '"Noto Sans", "Noto Sans CJK JP", "Noto Sans JP", sans-serif';
let measurer = null;
function boldWidth(content, size) {
  measurer ||= document.createElement("canvas").getContext("2d");
  if (!measurer) return textWidth(content, size) * 1.1;
  measurer.font = `700 ${size}px ${WHEEL_FONT}`;
  return measurer.measureText(content).width;
}

// The lines of `content` cut once between words (none when it is one word: a word is
// never split, "Influ/ence"), the longer line as short as can be.
function twoLines(content) {
  const words = content.split(/\s+/);
  let best = null;
  for (let k = 1; k < words.length; k++) {
    const lines = [words.slice(0, k).join(" "), words.slice(k).join(" ")];
    const longest = Math.max(...lines.map((l) => boldWidth(l, 1)));
    if (!best || longest < best.longest) best = { lines, longest };
  }
  return best && best.lines;
}

// A wedge's label at radius r, written across the wedge: on one line at `size` where it
// fits the wedge's width there (the narrower inner edge of its lines), else on two lines
// cut between words, else smaller.
function wedgeLabel(cx, cy, mid, r, content, size, attrs) {
  const room = (lines, s) => 2 * (r - (lines * s * 1.1) / 2) * Math.sin(Math.PI / 6 - 0.03) - 3;
  const fits = (lines, s) => lines.every((l) => boldWidth(l, s) <= room(lines.length, s));
  const split = twoLines(content);
  let f = null;
  for (let s = size; !f && s >= size * 0.6; s -= 0.5) {
    if (fits([content], s)) f = { size: s, lines: [content] };
    else if (split && fits(split, s)) f = { size: s, lines: split };
  }
  f ||= { size: size * 0.6, lines: [content] };
  const at = [cx + r * Math.cos(mid), cy + r * Math.sin(mid)];
  const label = arcText(at, mid, "", { ...attrs, "font-size": f.size, "font-family": WHEEL_FONT });
  const lh = f.size * 1.1;
  label.replaceChildren(...f.lines.map((line, i) => svg("tspan", { x: at[0].toFixed(1), dy: i ? lh : (-(f.lines.length - 1) * lh) / 2 }, line)));
  return label;
}

function wheelGroup(ctx, seat, cx, cy, mem, sownGain) {
  const { view, legal, t } = ctx;
  const player = view.players[seat];
  const mine = seat === ctx.seat;
  const R = WHEEL_R;
  const r0 = 18;
  const g = svg("g", { class: "cr-wheel", "data-seat": seat });
  const current = view.turn.current === seat && view.turn.wedge ? player.wheel.findIndex((w) => w.wedge === view.turn.wedge) : -1;
  player.wheel.forEach((w, pos) => {
    const a0 = -Math.PI / 2 + ((pos - 0.5) * Math.PI) / 3;
    const a1 = a0 + Math.PI / 3;
    const mid = (a0 + a1) / 2;
    const at = (r) => [cx + r * Math.cos(mid), cy + r * Math.sin(mid)];
    const wg = part(svg("g", { class: ["cr-wedge", w.upgraded && "upgraded"], "data-pos": pos, "data-wedge": w.wedge }), `players/${seat}/wheel/${pos}`);
    wg.append(svg("path", { class: "cr-wedge-shape", d: sector(cx, cy, r0, R, a0 + 0.012, a1 - 0.012), fill: ACTION_FILL[w.action], stroke: pos === current ? "#1d1d1f" : "#6d6658", "stroke-width": pos === current ? 3 : 1 }));
    if (w.upgraded) {
      // The flipped side: the secondary action on an outer band with a gold edge.
      wg.append(svg("path", { d: sector(cx, cy, R - 15, R, a0 + 0.02, a1 - 0.02), fill: ACTION_FILL[w.upgrade], stroke: "#b08a3e", "stroke-width": 2 }));
      // Written on it as "+" and the action's icon, at a size one reads: on so narrow a band
      // a name had to shrink to a few pixels ("+Thập tự chinh"). The wedge's tooltip and
      // its move's label name it.
      const [bx, by] = at(R - 7.5);
      const band = svg("g", { class: "cr-band", transform: `rotate(${uprightAngle(mid).toFixed(1)} ${bx.toFixed(1)} ${by.toFixed(1)})` });
      band.append(text(bx - 6, by + 3.8, "+", { "font-size": 11, "font-weight": 700, fill: ACTION_INK[w.upgrade] }));
      band.append(icon(w.upgrade, bx + 4, by, 11, ACTION_INK[w.upgrade]));
      wg.append(band);
    }
    wg.append(wedgeLabel(cx, cy, mid, w.upgraded ? R - 25 : R - 21, t(`cr.action.${w.action}`), 11, { "font-weight": 700, fill: ACTION_INK[w.action] }));
    // The tokens: their number, and one dot each (up to fifteen) in rows across the wedge.
    const [nx, ny] = at(w.upgraded ? 38 : 43);
    const countSize = w.upgraded ? 11 : 13;
    wg.append(text(nx, ny + countSize * 0.35, w.tokens, { "font-size": countSize, "font-weight": 700, class: "cr-count" }));
    const tangent = mid + Math.PI / 2;
    const shown = Math.min(w.tokens, 15);
    for (let i = 0; i < shown; i++) {
      const row = Math.floor(i / 5);
      const inRow = Math.min(5, shown - row * 5);
      const along = (i % 5 - (inRow - 1) / 2) * 4.6;
      const r = 25 + row * 5;
      wg.append(svg("circle", {
        cx: (cx + r * Math.cos(mid) + along * Math.cos(tangent)).toFixed(2),
        cy: (cy + r * Math.sin(mid) + along * Math.sin(tangent)).toFixed(2), r: 2.1, fill: "#3a3a3a",
      }));
    }
    if (sownGain && sownGain.gain[pos] > 0) {
      const [sx, sy] = at(R + 2);
      wg.append(text(sx, sy + 4, `+${sownGain.gain[pos]}`, { class: "cr-sown", "font-size": 12, "font-weight": 700, fill: "#0072B2", style: `animation-delay: ${sownGain.step[pos] * 0.25}s` }));
    }
    titled(wg, `${wedgeName(w, pos, t)} · ${t("cr.ui.tokens", { n: w.tokens })}`);

    if (mine) {
      const onWedge = legal.find((m) => m.wedge === pos && ["resolve", "sow_wedge", "remove_token", "add_token", "setup_upgrade"].includes(m.type));
      if (onWedge) moveTarget(wg, onWedge, ctx, moveLabel(onWedge, ctx), "cr-target");
    }
    g.append(wg);
    if (mine) {
      const up = legal.find((m) => m.type === "upgrade" && m.wedge === pos);
      if (up) {
        // The flip badge outside the rim: upgrading is a different move from resolving.
        const [bx, by] = at(R + 11);
        const badge = svg("g", { class: "cr-upgrade", "data-pos": pos });
        badge.append(svg("circle", { cx: bx, cy: by, r: 9, fill: "#fff6d6", stroke: "#b08a3e", "stroke-width": 1.5 }));
        badge.append(svg("path", { d: `M${bx - 4.5},${by + 1} A4.5,4.5 0 1 1 ${bx + 1},${by + 4.4}`, fill: "none", stroke: "#6b5800", "stroke-width": 1.6 }));
        badge.append(svg("path", { d: `M${bx - 7},${by - 1} L${bx - 4.5},${by + 2.5} L${bx - 1.5},${by - 0.5}`, fill: "none", stroke: "#6b5800", "stroke-width": 1.6 }));
        moveTarget(badge, up, ctx, moveLabel(up, ctx), "cr-target");
        g.append(badge);
      }
    }
  });
  g.append(svg("circle", { cx, cy, r: r0 - 3, fill: "#fffdf6", stroke: "#6d6658" }));
  g.append(seatShape(seat, cx, cy, 9));
  return g;
}

// A player's building rows and troops: costs, uncovered bonuses, what is built.
function rowsGroup(ctx, seat) {
  const { view, t } = ctx;
  const p = view.players[seat];
  const board = svg("g", { class: "cr-rows" });
  const x0 = ROWS_X;
  // Building rows: cost on each space, its uncovered bonus beneath (faint until built).
  const cat = view.catalogue;
  if (!cat) return board; // a view from before the catalogue was added: no rows to draw
  board.append(text(x0 + 116, 56, t("cr.ui.buildings"), { "font-size": 11, fill: "#5c5c66" }));
  BUILDINGS.forEach((type, row) => {
    const y = 62 + row * 32;
    const built = p.buildings[type];
    board.append(part(titled(icon(type, x0 + 8, y + 13, 16, built ? seatStyle(seat).colour : "#eeeae0"), t(`cr.building.${type}`)), `players/${seat}/buildings/${type}`));
    cat.buildings[type].costs.forEach((cost, level) => {
      const x = x0 + 22 + level * 52;
      const done = level < built;
      const next = level === built;
      const cell = svg("g", { class: ["cr-slot", done && "built"], "data-building": type, "data-level": level + 1 });
      cell.append(svg("rect", { x, y, width: 50, height: 28, rx: 4, fill: done ? seatStyle(seat).colour : "#f7f5ef", stroke: next ? "#1d1d1f" : "#c9c2b0", "stroke-width": next ? 1.8 : 1 }));
      if (done) cell.append(seatShape(seat, x + 8, y + 8, 4.5));
      cell.append(text(x + (done ? 34 : 10), y + 12, cost, { "font-size": 11, "font-weight": 700, fill: "#1d1d1f" }));
      const uncovers = Object.entries(cat.buildings[type].uncovers[level] || {});
      uncovers.forEach(([kind, n], i) => {
        const mark = bonusMark(kind, n, x + 16 + i * 23, y + 21, done ? "#1d1d1f" : "#9b9585");
        cell.append(mark);
      });
      if (!uncovers.length && level === 3) cell.append(icon("influence", x + 36, y + 19, 10, done ? "#f1e5a6" : "#eeeae0"));
      const bonus = uncovers.map(([kind, n]) => `+${n} ${t(kind === "knight" ? "cr.ui.knight" : `cr.action.${kind}`)}`).join(", ");
      titled(cell, t("cr.ui.slot", { building: t(`cr.building.${type}`), level: level + 1, cost, bonus: bonus || t("cr.ui.end_scoring") }));
      board.append(cell);
    });
  });

  // Troops: cost and influence; mustered ones in the seat's colour.
  const ty = 196;
  board.append(part(titled(icon("troop", x0 + 8, ty + 11, 15, p.troops ? seatStyle(seat).colour : "#eeeae0"), t("cr.ui.troops")), `players/${seat}/troops`));
  cat.troops.forEach((troop, i) => {
    const x = x0 + 22 + i * 38;
    const done = i < p.troops;
    const cell = svg("g", { class: ["cr-troop", done && "mustered"] });
    cell.append(svg("rect", { x, y: ty, width: 34, height: 22, rx: 4, fill: done ? seatStyle(seat).colour : "#f7f5ef", stroke: i === p.troops ? "#1d1d1f" : "#c9c2b0", "stroke-width": i === p.troops ? 1.8 : 1 }));
    cell.append(text(x + 9, ty + 15, troop.cost, { "font-size": 11, "font-weight": 700 }));
    cell.append(text(x + 24, ty + 15, `+${troop.influence}`, { "font-size": 11, fill: "#5b4a00" }));
    board.append(titled(cell, t("cr.ui.troop_slot", { n: i + 1, cost: troop.cost, influence: troop.influence })));
  });

  return board;
}

function playerSvg(ctx, seat, mem) {
  const { view, t } = ctx;
  const p = view.players[seat];
  const W = PLAYER_W;
  const H = PLAYER_H;
  const board = svg("svg", {
    viewBox: `0 0 ${W} ${H}`, width: W, class: "cr-player", "data-seat": seat, role: "group",
    "aria-label": t("cr.ui.player_board", { name: seatName(ctx.seats, seat) }),
  });
  const acting = view.turn.current === seat && !["order", "over"].includes(view.turn.phase);
  board.append(svg("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 8, fill: "#fffdf6", stroke: acting ? seatStyle(seat).colour : "#d9d4c7", "stroke-width": acting ? 4 : 1.5 }));

  // Header: who, influence, order.
  board.append(seatShape(seat, 16, 18, 8));
  const name = `${acting ? "▶ " : ""}${seatName(ctx.seats, seat)}${seat === ctx.seat ? ` (${t("cr.ui.you")})` : ""}`;
  board.append(text(30, 22, name, { "text-anchor": "start", "font-size": 13, "font-weight": 700 }));
  board.append(part(titled(svg("g", { class: "cr-influence" }, icon("influence", W - 60, 17, 16, "#f1e5a6"), text(W - 48, 22, p.influence, { "text-anchor": "start", "font-size": 15, "font-weight": 700 })), t("cr.ui.influence_n", { n: p.influence })),
    `players/${seat}/influence`));
  // Knight's Tournament: another player's wheel, while it is arranged, is not shown (CR-42).
  const arranging = p.wheel_done === false && seat !== ctx.seat;
  const order = p.order ? t(`cr.order.${p.order}`) : arranging ? t("cr.ui.wheel_hidden")
    : p.order_chosen ? t("cr.ui.order_hidden") : view.options.knight_orders ? t("cr.ui.order_choosing") : "";
  if (order) board.append(text(30, 37, order, { "text-anchor": "start", "font-size": 11, fill: "#5c5c66", class: "cr-order" }));
  if (p.order) board.lastChild.append(svg("title", {}, t(`cr.order.${p.order}.text`)));

  const sownGain = mem.sownGain && mem.sownGain.seat === seat ? mem.sownGain : null;
  // Kept between updates while unchanged, which also lets the sowing's "+n" marks play out.
  const wheelSig = [ctx.lang, JSON.stringify(p.wheel), seat === ctx.seat ? JSON.stringify(ctx.legal.filter((m) => "wedge" in m)) : "",
    view.turn.current === seat ? view.turn.wedge || "" : "", sownGain ? sownGain.id : ""].join("|");
  board.append(cached(mem, `wheel:${seat}`, wheelSig, () => wheelGroup(ctx, seat, 108, 152, mem, sownGain)));

  const rowsSig = [ctx.lang, JSON.stringify(p.buildings), p.troops].join("|");
  board.append(cached(mem, `rows:${seat}`, rowsSig, () => rowsGroup(ctx, seat)));

  // Trophies (beaten enemies) and the sum of uncovered bonuses.
  const by = 286;
  ENEMIES.forEach((enemy, i) => {
    const x = 18 + i * 52;
    const token = enemy === "saracen" ? "saracen:troop" : enemy;
    const g = part(enemyToken(token, p.defeated[enemy], x, by, t), `players/${seat}/defeated/${enemy}`);
    g.querySelector("title").textContent = t("cr.ui.trophies", { enemy: t(`cr.enemy.${enemy}`), n: p.defeated[enemy] });
    g.setAttribute("transform", `translate(${x},${by}) scale(1) translate(${-x},${-by})`);
    board.append(g);
    if (enemy === "saracen") {
      // A trophy count, not a reward: the Saracen's reward icon makes no sense here.
      g.querySelector("path")?.remove();
      g.querySelector("text").setAttribute("x", x);
    }
  });
  const bonuses = Object.entries(p.bonuses).filter(([, n]) => n > 0);
  if (bonuses.length) board.append(text(176, by - 15, t("cr.ui.bonuses"), { "text-anchor": "start", "font-size": 11, fill: "#5c5c66" }));
  bonuses.forEach(([kind, n], i) => {
    board.append(titled(bonusMark(kind, n, 186 + i * 34, by, ACTION_INK[kind]), `+${n} ${t(`cr.action.${kind}`)}`));
  });
  const knightsWaiting = p.knights.filter((k) => k === null).length;
  if (knightsWaiting) {
    board.append(titled(svg("g", {}, knight(seat, W - 38, by + 2, 5), text(W - 22, by + 6, `×${knightsWaiting}`, { "font-size": 11 })), t("cr.ui.knights_waiting", { n: knightsWaiting })));
  }
  return board;
}

// -- tracks, supply and round ---------------------------------------------------------------

function tracksSvg(ctx) {
  const { view, t } = ctx;
  const W = PLAYER_W;
  const H = 92;
  const board = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, class: "cr-tracks", role: "group", "aria-label": t("cr.ui.tracks") });
  board.append(svg("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 8, fill: "#fffdf6", stroke: "#d9d4c7", "stroke-width": 1.5 }));
  ["prussian", "slav"].forEach((enemy, row) => {
    const y = 20 + row * 27;
    const track = view.tracks[enemy];
    board.append(part(enemyToken(enemy, track.strength, 16, y, t), `tracks/${enemy}/strength`));
    (track.values || [track.strength]).forEach((v, i) => {
      const x = 34 + i * 26;
      const here = i === Math.min(track.step, (track.values || [0]).length - 1);
      const cell = svg("g", { class: ["cr-track-step", here && "current"], "data-enemy": enemy });
      cell.append(svg("rect", { x, y: y - 10, width: 23, height: 20, rx: 3, fill: here ? "#1d1d1f" : i < track.step ? "#e6e1d3" : "#f7f5ef", stroke: "#8b8270" }));
      cell.append(text(x + 11.5, y + 4, v, { "font-size": 11, "font-weight": here ? 700 : 400, fill: here ? "#fff" : i < track.step ? "#9b9585" : "#1d1d1f" }));
      board.append(cell);
    });
  });
  board.append(enemyToken("saracen:troop", view.saracen_strength, 16, 74, t));
  board.lastChild.querySelector("path")?.remove();
  board.lastChild.querySelector("text").setAttribute("x", 16);
  board.append(text(34, 78, t("cr.ui.saracen_always", { n: view.saracen_strength }), { "text-anchor": "start", "font-size": 11 }));
  board.append(icon("influence", 250, 74, 14, "#f1e5a6"));
  board.append(part(text(262, 78, t("cr.ui.supply", { n: view.supply }), { "text-anchor": "start", "font-size": 11, "font-weight": 700, class: "cr-supply" }), "supply"));
  board.append(text(W - 12, 78, view.ending && view.turn.phase !== "over" ? t("cr.ui.last_round") : t("cr.ui.round", { n: view.turn.phase === "over" ? view.round : view.round + 1 }), { "text-anchor": "end", "font-size": 11, fill: view.ending ? "#8a1f00" : "#1d1d1f", "font-weight": view.ending ? 700 : 400 }));
  return board;
}

// -- the tray: choices that have no place on the map or the wheel ------------------------------

function trayButton(move, ctx, content) {
  return moveButton(move, ctx, { class: "cr-choice" }, content ?? moveLabel(move, ctx));
}

function trayIcon(kind, colour = "#fffdf6") {
  const s = svg("svg", { width: 16, height: 16, viewBox: "-10 -10 20 20", "aria-hidden": "true", style: "vertical-align: -3px; margin-right: 4px" });
  s.append(icon(kind, 0, 0, 18, colour));
  return s;
}

function tray(ctx, mem) {
  const { view, legal, t } = ctx;
  const phase = view.turn.phase;
  const buttons = [];
  // Another knight to move, standing where the picked one may step (a tap there is that step).
  const knightSteps = stepsByKnight(ctx, mem);
  const steps = new Set((knightSteps.get(mem.knight) || []).map((m) => m.to));
  for (const [region, n] of otherKnights(ctx, mem, knightSteps)) {
    if (!steps.has(region)) continue;
    buttons.push(h("button", {
      type: "button", class: "cr-choice cr-pick", "data-knight": n, onclick: () => { mem.knight = n; mem.redraw(); },
    }, trayIcon("knight", seatStyle(ctx.seat).colour), t("cr.ui.pick_knight", { region: regionName(t, region) })));
  }
  for (const m of legal) {
    if (m.type === "order") {
      buttons.push(moveButton(m, ctx, {
        class: "cr-choice cr-order-card", style: { display: "block", textAlign: "left", maxWidth: "26em", whiteSpace: "normal" },
      }, h("strong", {}, t(`cr.order.${m.order}`)), h("br"), h("span", { class: "small" }, t(`cr.order.${m.order}.text`))));
    } else if (m.type === "build") {
      if (mem.region && m.region !== mem.region) continue;
      buttons.push(trayButton(m, ctx, [trayIcon(m.building, seatStyle(ctx.seat).colour), moveLabel(m, ctx)]));
    } else if (["split", "stop", "pass", "saracen", "no_sow", "skip", "sow", "arrange"].includes(m.type)) {
      const kind = m.type === "saracen" ? (m.take === "building" ? view.turn.reward : m.take === "troop" ? "troop" : "influence") : null;
      buttons.push(trayButton(m, ctx, kind ? [trayIcon(kind, kind === "influence" ? "#f1e5a6" : seatStyle(ctx.seat).colour), moveLabel(m, ctx)] : undefined));
    }
  }
  const info = [];
  const turn = view.turn;
  if (turn.value !== undefined && ["move", "crusade", "build"].includes(phase)) {
    info.push(t(`cr.ui.value_${phase}`, { n: turn.value }));
  }
  for (const a of turn.actions || []) info.push(t("cr.ui.then", { action: t(`cr.action.${a.action}`), n: a.value }));
  if (phase === "move" && legal.some((m) => m.type === "step")) info.push(t("cr.ui.hint_move"));
  if (phase === "build" && legal.some((m) => m.type === "build")) info.push(t(mem.region ? "cr.ui.hint_build_type" : "cr.ui.hint_build"));
  if (phase === "crusade" && legal.some((m) => m.type === "crusade")) info.push(t("cr.ui.hint_crusade"));
  if (phase === "turn" && legal.some((m) => m.type === "resolve")) info.push(t("cr.ui.hint_turn"));
  if (!buttons.length && !info.length) return null;
  return h("div", { class: "cr-tray", style: { display: "flex", flexWrap: "wrap", gap: "6px", alignItems: "center", margin: "0 0 8px" } },
    info.length ? h("span", { class: "small muted", style: { flexBasis: "100%" } }, info.join(" · ")) : null,
    buttons);
}

// -- sowing, shown as +n on the wedges that received tokens --------------------------------------

function noteSowing(ctx, mem) {
  const { view } = ctx;
  const last = [...(ctx.events || [])].reverse().find((e) => e.key === "cr.sown");
  const tokens = view.players.map((p) => p.wheel.map((w) => w.tokens));
  if (last && mem.tokens && mem.sown !== undefined && last.number !== mem.sown) {
    const seat = last.args.seat;
    const before = mem.tokens[seat];
    const now = tokens[seat];
    const from = view.players[seat].wheel.findIndex((w) => w.wedge === last.args.wedge);
    const gain = now.map((n, i) => Math.max(0, n - (i === from ? 0 : before[i])));
    const step = now.map((_, i) => (i - from + 6) % 6);
    mem.sownGain = { id: last.number, seat, gain, step, until: Date.now() + 3000 };
  } else if (mem.sownGain && Date.now() > mem.sownGain.until) {
    mem.sownGain = null;
  }
  mem.sown = last ? last.number : -1;
  mem.tokens = tokens;
}

// -- the interface ----------------------------------------------------------------------------------

export function render(root, ctx) {
  const { view, t } = ctx;
  const mem = boardState(root, freshMemory);
  ensureStyle();
  ctx = { ...ctx, legal: ctx.legal || [] };
  drawnWith(root, ctx, render);
  mem.next = new Map();
  noteSowing(ctx, mem);
  const seats = view.players.map((_, s) => s);
  // The reader's own board first: on a phone it is the one they need under the map.
  const me = ctx.seat;
  const order = me !== null && me !== undefined && view.players[me] ? [me, ...seats.filter((s) => s !== me)] : seats;
  // On a phone the map and the boards are stacked: the reader's wheel goes above the map
  // while the choice to make is on it (see ensureStyle).
  const onWheel = ctx.legal.some((m) => WHEEL_MOVES.has(m.type));
  // The map on a row of its own, drawn large enough to read (its lettering is 9 units,
  // at 1.25x or more on a desktop); under it the boards at their own size, side by side
  // where two fit: the reader's first, with the enemy tracks.
  const side = order.slice(0, 1);
  const rest = order.slice(side.length);
  const boardBox = { flex: `1 1 ${PLAYER_W - 20}px`, minWidth: 0, maxWidth: `${PLAYER_W}px` };
  // Keyboard players keep their place: the control they were on gets the focus back.
  keepFocus(root, () => clear(root,
    ctx.legal.length ? tray(ctx, mem) : null,
    h("div", { class: ["cr-layout", onWheel && "wheel-first"], style: { display: "flex", flexWrap: "wrap", gap: "10px", alignItems: "flex-start" } },
      h("div", { class: "cr-map-box", style: { flex: "1 1 100%", minWidth: 0 } }, mapSvg(ctx, mem), h("p", { class: "small muted", style: { margin: "4px 0" } }, t("cr.ui.legend"))),
      h("div", { class: "cr-side", style: { ...boardBox, display: "flex", flexDirection: "column", gap: "8px" } },
        side.map((s) => playerSvg(ctx, s, mem)),
        cached(mem, "tracks", [ctx.lang, JSON.stringify(view.tracks), view.supply, view.round, view.ending, view.turn.phase === "over"].join("|"), () => tracksSvg(ctx))),
      rest.map((s) => h("div", { class: "cr-others", style: boardBox }, playerSvg(ctx, s, mem))))));
  for (const el of root.querySelectorAll("svg.cr-map, svg.cr-player, svg.cr-tracks")) {
    el.style.width = "100%";
    el.style.height = "auto";
  }
  const map = root.querySelector("svg.cr-map");
  if (map) Object.assign(map.style, { maxWidth: `${Math.round(Number(map.getAttribute("width")) * 1.3)}px`, margin: "0 auto" });
  mem.cache = mem.next;
  // The part of the board the decision is about: the reader's wheel for a wedge to take
  // (or to sow, or to flip), the map for a knight, a crusade or a building's place.
  const onMap = root.querySelector(".cr-map [data-move], .cr-map [role=button]");
  const area = onWheel ? "wheel" : onMap ? "map" : null;
  focusArea(root, area ? root.querySelectorAll(area === "wheel" ? `.cr-player[data-seat="${me}"] .cr-wheel` : ".cr-map") : [], area);
}

export function moveLabel(move, ctx) {
  const { t, view } = ctx;
  const seat = ctx.seat ?? (view && view.turn ? view.turn.current : 0);
  const wheel = view && view.players && view.players[seat] ? view.players[seat].wheel : null;
  const wedge = (pos) => (wheel && wheel[pos] ? wedgeName(wheel[pos], pos, t) : String(pos + 1));
  const action = (a) => t(`cr.action.${a}`);
  switch (move.type) {
    case "order": return t(`cr.order.${move.order}`);
    case "place_knight": return t("cr.ui.m.place_knight", { region: regionName(t, move.region) });
    case "arrange": {
      // Knight's Tournament: the wedge for the next place of the reader's own wheel (CR-42).
      const w = view && view.catalogue && view.catalogue.wedges ? view.catalogue.wedges[move.wedge] : null;
      const placed = wheel ? wheel.length : 0;
      return w ? t("cr.ui.m.arrange", { n: placed + 1, action: action(w.action), upgrade: action(w.upgrade) }) : move.wedge;
    }
    case "remove_token": return t("cr.ui.m.remove_token", { wedge: wedge(move.wedge) });
    case "add_token": return t("cr.ui.m.add_token", { wedge: wedge(move.wedge) });
    case "setup_upgrade": return t("cr.ui.m.upgrade", { wedge: wedge(move.wedge) });
    case "resolve": return t("cr.ui.m.resolve", { wedge: wedge(move.wedge), n: wheel && wheel[move.wedge] ? wheel[move.wedge].tokens : "" });
    case "upgrade": return t("cr.ui.m.upgrade", { wedge: wedge(move.wedge) });
    case "skip": return t("cr.ui.m.skip");
    case "split": {
      const w = wheel && view.turn.wedge ? wheel.find((x) => x.wedge === view.turn.wedge) : null;
      if (!w) return null;
      const total = w.tokens;
      const parts = { [w.action]: move.primary, [w.upgrade]: total - move.primary };
      const second = move.first === w.action ? w.upgrade : w.action;
      if (!parts[second]) return t("cr.ui.m.split_all", { action: action(move.first), n: parts[move.first] });
      return t("cr.ui.m.split", { first: action(move.first), n: parts[move.first], second: action(second), m: parts[second] });
    }
    case "step": return t("cr.ui.m.step", { to: regionName(t, move.to), n: move.knight + 1 });
    case "stop": return t("cr.ui.m.stop");
    case "crusade": {
      const reg = view && view.regions ? view.regions.find((r) => r.id === move.region) : null;
      const enemy = reg && reg.enemy ? t(`cr.enemy.${reg.enemy.split(":")[0]}`) : "";
      return t("cr.ui.m.crusade", { region: regionName(t, move.region), enemy });
    }
    case "pass": return t("cr.ui.m.pass");
    case "saracen":
      if (move.take === "building") return t("cr.ui.m.take_building", { building: t(`cr.building.${view.turn.reward}`) });
      return t(move.take === "troop" ? "cr.ui.m.take_troop" : "cr.ui.m.take_influence");
    case "build": return t("cr.ui.m.build", { building: t(`cr.building.${move.building}`), region: regionName(t, move.region) });
    case "sow_wedge": return t("cr.ui.m.sow_wedge", { wedge: wedge(move.wedge) });
    case "no_sow": return t("cr.ui.m.no_sow");
    case "sow": {
      const parts = [t(move.from === "same" ? "cr.ui.m.sow_same" : "cr.ui.m.sow_next"), t(move.dir === "cw" ? "cr.ui.m.sow_cw" : "cr.ui.m.sow_ccw")];
      if (move.skip >= 0) parts.push(t("cr.ui.m.sow_skip", { wedge: wedge(move.skip) }));
      if (move.double >= 0) parts.push(t("cr.ui.m.sow_double", { wedge: wedge(move.double) }));
      return parts.join(", ");
    }
    default: return null;
  }
}

// The end-of-game statistics (the frame's "points by source" table): influence gained
// during the game, each enemy's majority, the level-4 buildings. They add up to the score.
export function statistics(result, { t }) {
  const b = (result.breakdown || []).map((x) => x || {});
  const enemies = [...new Set(b.flatMap((x) => Object.keys(x.majorities || {})))];
  const sum = (o) => Object.values(o || {}).reduce((a, v) => a + (Number(v) || 0), 0);
  return [
    { label: t("cr.breakdown.influence"), values: b.map((x) => x.influence ?? 0) },
    ...enemies.map((e) => ({ label: t("score.source_part", { source: t("cr.breakdown.majorities"), part: t(`cr.enemy.${e}`) }),
      values: b.map((x) => (x.majorities || {})[e] ?? 0) })),
    { label: t("cr.breakdown.buildings"), values: b.map((x) => sum(x.buildings)) },
  ];
}

// Each player's key resources, for the seat panel: influence, troops, buildings, enemies
// beaten, and knights still waiting for a castle.
export function resources(view, seat, { t }) {
  const p = (view.players || [])[seat];
  if (!p) return [];
  const sum = (o) => Object.values(o || {}).reduce((a, n) => a + (Number(n) || 0), 0);
  return [
    { key: "influence", label: t("cr.breakdown.influence"), value: p.influence },
    { key: "troops", label: t("cr.ui.troops"), value: p.troops },
    { key: "buildings", label: t("cr.ui.res_buildings"), value: sum(p.buildings) },
    { key: "beaten", label: t("cr.ui.res_beaten"), value: sum(p.defeated) },
    { key: "knights", label: t("cr.ui.res_knights"), value: (p.knights || []).filter((k) => k === null).length },
  ];
}

export function scores(view) {
  if (view.scores) return view.scores.map((r) => r.total);
  return view.players.map((p) => p.influence);
}

export function destroy(root) {
  dropBoardState(root);
}
