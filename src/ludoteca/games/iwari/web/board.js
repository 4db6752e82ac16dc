// Iwari's board: the map (territories, tent spaces, totem circles, roads, numbered
// connections and mountains), the tribes' pieces, the hand and the display as cards,
// and a scoring overlay after the half-journey and at the end. Every legal move the
// board can show is a clickable shape carrying its move in `data-move`; the frame's
// list of moves stays as the fallback (a rare "pass"). See README.md in this folder.
//
// The geometry comes with the view (`view.board`, built from the map files' layout
// blocks), so this module holds no copy of any map.
import { boardState, dropBoardState, focusArea, keepFocus, moveTarget, part, tooltip } from "/js/board.js";
import { h, svg } from "/js/dom.js";
import { eventText, seatName } from "/js/gamemodule.js";
import { seatShape } from "/js/seats.js";
import { fit } from "/js/svgtext.js";

// Light tints that differ in lightness as well as hue, so they stay apart for the common
// colour-vision deficiencies; each biome also has its own pattern (the second cue) and
// its name is written on the territory and on every card (the third).
const BIOMES = {
  tundra: { fill: "#cfc79f", ink: "#5b5236" },
  forest: { fill: "#84b47e", ink: "#234a22" },
  glacier: { fill: "#eef4f8", ink: "#3d6280" },
  coast: { fill: "#9ccbe3", ink: "#1c5b80" },
  desert: { fill: "#f0cf7c", ink: "#8a5d12" },
};
const LAND_INK = "#6b4e2e";
const SEA_INK = "#1f5f96";
const HIGHLIGHT = "#111111";
const CARD_W = 70;
const CARD_H = 96;

const biomeOf = (cardId) => cardId.split("-")[0];
const territoryNumber = (tid) => tid.split("-").pop();
const spaceNumber = (sid) => sid.split(".").pop();

function territoryName(tid, t) {
  return t("iwari.ui.territory", { biome: t(`iwari.biome.${tid.split("-")[0]}`), n: territoryNumber(tid) });
}

function tribeName(tribe, view, seats, t) {
  return tribe < view.seats ? seatName(seats, tribe) : t("iwari.tribe.third");
}

// -- patterns: one per biome, drawn once per board ------------------------------------

function patterns() {
  const p = (id, w, hgt, ...children) => svg("pattern", { id: `iw-pat-${id}`, width: w, height: hgt, patternUnits: "userSpaceOnUse" }, ...children);
  const ink = (b) => BIOMES[b].ink;
  return svg("defs", {},
    p("tundra", 16, 16, svg("circle", { cx: 4, cy: 4, r: 1.6, fill: ink("tundra"), opacity: 0.55 }), svg("circle", { cx: 12, cy: 12, r: 1.6, fill: ink("tundra"), opacity: 0.55 })),
    p("forest", 24, 24, svg("polygon", { points: "6,3 11,13 1,13", fill: ink("forest"), opacity: 0.35 }), svg("polygon", { points: "18,14 23,24 13,24", fill: ink("forest"), opacity: 0.35 })),
    p("glacier", 14, 14, svg("path", { d: "M0 14 L14 0 M-4 4 L4 -4 M10 18 L18 10", stroke: ink("glacier"), "stroke-width": 1.4, opacity: 0.55 })),
    p("coast", 28, 14, svg("path", { d: "M0 9 q7 -6 14 0 t14 0", fill: "none", stroke: ink("coast"), "stroke-width": 1.5, opacity: 0.5 })),
    p("desert", 30, 18, svg("path", { d: "M2 14 q8 -9 16 0", fill: "none", stroke: ink("desert"), "stroke-width": 1.5, opacity: 0.5 })));
}

// -- the map ----------------------------------------------------------------------------

function drawMap(ctx, moves) {
  const { view, t } = ctx;
  const board = view.board;
  const spaceAt = {};
  for (const terr of board.territories) Object.assign(spaceAt, terr.spaces);
  const map = svg("svg", {
    viewBox: `0 0 ${board.width} ${board.height}`, class: "iw-map", role: "group",
    "aria-label": t("iwari.ui.map"), style: { width: "100%", height: "auto", display: "block" },
  }, patterns());

  const choosing = moves.territory.size > 0 || moves.featTerritory.size > 0;
  // Territories: tint, pattern, name, and (when it is a choice) a clickable outline.
  const layerLand = svg("g", {});
  const layerDim = svg("g", { "pointer-events": "none" });
  const layerNames = svg("g", { "pointer-events": "none" });
  const layerTop = svg("g", {});
  for (const terr of board.territories) {
    const points = terr.outline.map((p) => p.join(",")).join(" ");
    const style = BIOMES[terr.biome];
    const [tx, ty] = terr.totem;
    const current = view.territory === terr.id;
    layerLand.append(
      svg("polygon", { points, fill: style.fill, stroke: "#5b5346", "stroke-width": 2 }),
      tooltip(svg("polygon", { points, fill: `url(#iw-pat-${terr.biome})`, class: "iw-land", "data-land": terr.id }),
        `${territoryName(terr.id, t)} · ${t(`iwari.biome.${terr.biome}`)}`));
    // The name sits under the totem circle (the hex's edges carry the connection badges);
    // a pale halo keeps it readable over the roads. A feat's factor follows the name.
    const factor = view.territory_factors[terr.id];
    const name = territoryName(terr.id, t) + (factor ? ` ${t("iwari.ui.factor", { n: factor })}` : "");
    layerNames.append(svg("text", {
      x: tx, y: ty + 45, "text-anchor": "middle", "font-size": 15, "font-weight": 700, fill: style.ink, class: "iw-name",
      stroke: "#fffdf6", "stroke-width": 4, "stroke-linejoin": "round", "paint-order": "stroke",
    }, name));
    const move = moves.territory.get(terr.id) || moves.featTerritory.get(terr.id);
    if (move) {
      const outline = svg("polygon", {
        points, fill: "#ffffff", "fill-opacity": 0.01, stroke: HIGHLIGHT, "stroke-width": 5, "stroke-dasharray": "12 7",
        class: "iw-territory", "data-territory": terr.id,
      });
      const label = move.type === "feat"
        ? t("iwari.move.feat_territory", { feat: t(`iwari.ui.feat.${move.feat}`), territory: territoryName(terr.id, t) })
        : t("iwari.move.territory", { territory: territoryName(terr.id, t) });
      layerTop.append(moveTarget(outline, move, ctx, label, "iw-legal"));
    } else if (choosing) {
      // Under the pieces and badges, so a territory that cannot be chosen stays readable.
      layerDim.append(svg("polygon", { points, fill: "#ffffff", "fill-opacity": 0.5 }));
    } else if (current) {
      // The territory being settled: marked when another tribe has just chosen it.
      layerTop.append(part(svg("polygon", { points, fill: "none", stroke: HIGHLIGHT, "stroke-width": 5, "pointer-events": "none", class: "iw-current" }), "territory"));
    }
  }
  map.append(layerLand, layerDim);

  // The purple road (The Long Road) under the roads, then roads, then connections.
  if (board.purple_road.length) {
    map.append(svg("polyline", {
      points: board.purple_road.map((s) => spaceAt[s].join(",")).join(" "), fill: "none",
      stroke: "#7b3294", "stroke-width": 13, "stroke-opacity": 0.5, "stroke-linejoin": "round", "stroke-linecap": "round",
    }));
  }
  const roads = svg("g", { "aria-hidden": "true" });
  for (const [a, b] of board.roads) {
    const [x1, y1] = spaceAt[a];
    const [x2, y2] = spaceAt[b];
    roads.append(svg("line", { x1, y1, x2, y2, stroke: "#7a5c38", "stroke-width": 6, "stroke-linecap": "round" }),
      svg("line", { x1, y1, x2, y2, stroke: "#e6d3ae", "stroke-width": 2, "stroke-linecap": "round" }));
  }
  map.append(roads);

  const mountains = new Set(view.mountains);
  const links = svg("g", {});
  const badges = svg("g", {});
  for (const c of board.connections) {
    const sea = c.kind === "sea";
    const ink = sea ? SEA_INK : LAND_INK;
    const [ax, ay] = spaceAt[c.ends[0]];
    const [bx, by] = spaceAt[c.ends[1]];
    const [x, y] = c.at;
    // Floating Lands: a connection is also a road, so it is drawn as solid as one.
    links.append(svg("polyline", {
      points: `${ax},${ay} ${x},${y} ${bx},${by}`, fill: "none", stroke: ink, "stroke-width": board.connections_are_roads ? 4 : 2.5,
      "stroke-dasharray": board.connections_are_roads ? "9 4" : "2 5", "stroke-linecap": "round",
    }));
    const covered = mountains.has(c.number);
    const label = t(sea ? "iwari.ui.connection_sea" : "iwari.ui.connection_land", { n: c.number })
      + (c.peaks ? ` · ${t("iwari.ui.peaks", { n: c.peaks })}` : "") + (covered ? ` · ${t("iwari.ui.mountain")}` : "");
    const g = part(svg("g", { class: "iw-connection", "data-connection": c.number, role: "img", "aria-label": label }),
      `connection_factors/${c.number}`, label);
    // Land and sea differ in shape as well as colour: a round badge, a square one.
    g.append(sea
      ? svg("rect", { x: x - 15, y: y - 15, width: 30, height: 30, rx: 5, fill: "#e1f0fb", stroke: ink, "stroke-width": 2 })
      : svg("circle", { cx: x, cy: y, r: 15, fill: "#f7eedc", stroke: ink, "stroke-width": 2 }));
    // Under a mountain the number is written on the mountain instead.
    if (!covered) g.append(svg("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: ink }, String(c.number)));
    for (let i = 0; i < c.peaks; i++) {
      const px = x - ((c.peaks - 1) * 9) / 2 + i * 9;
      g.append(svg("polygon", { points: `${px - 4.5},${y - 17} ${px},${y - 26} ${px + 4.5},${y - 17}`, fill: "#4d4d4d", stroke: "#fff", "stroke-width": 0.8 }));
    }
    if (covered) {
      g.append(svg("polygon", { points: `${x - 22},${y + 14} ${x - 6},${y - 18} ${x + 2},${y - 6} ${x + 9},${y - 20} ${x + 24},${y + 14}`, fill: "#6e6e6e", stroke: "#222", "stroke-width": 1.5, opacity: 0.92 }),
        svg("polygon", { points: `${x - 10},${y - 10} ${x - 6},${y - 18} ${x - 2},${y - 10}`, fill: "#fff" }),
        svg("text", { x, y: y + 10, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#fff" }, String(c.number)));
    }
    const factor = view.connection_factors[String(c.number)];
    // A map label: a pale halo keeps it readable over the hex's edge it sits on.
    if (factor) g.append(svg("text", { x, y: y + 30, "text-anchor": "middle", "font-size": 12, "font-weight": 700, fill: ink,
      stroke: "#fffdf6", "stroke-width": 3, "stroke-linejoin": "round", "paint-order": "stroke" }, t("iwari.ui.factor", { n: factor })));
    const move = moves.featConnection.get(c.number);
    if (move) {
      g.prepend(svg("circle", { cx: x, cy: y, r: 24, fill: "#fff59d", stroke: HIGHLIGHT, "stroke-width": 3, "stroke-dasharray": "6 4" }));
      g.removeAttribute("role");
      moveTarget(g, move, ctx, t("iwari.move.feat_connection", { feat: t(`iwari.ui.feat.${move.feat}`), n: c.number }), "iw-legal");
    }
    badges.append(g);
  }
  map.append(links);

  // Tent spaces and totem circles.
  const pieces = svg("g", {});
  for (const terr of board.territories) {
    for (const [sid, [x, y]] of Object.entries(terr.spaces)) {
      const owner = view.tents[sid];
      const g = part(svg("g", { class: "iw-space", "data-space": sid }), `tents/${sid}`);
      g.append(svg("circle", { cx: x, cy: y, r: 14, fill: "#fffdf6", stroke: "#3b3b3b", "stroke-width": 1.5 }));
      if (owner !== undefined) {
        g.append(seatShape(owner, x, y, 12));
        g.setAttribute("role", "img");
        g.setAttribute("aria-label", t("iwari.ui.tent_of", { tribe: tribeName(owner, view, ctx.seats, t), space: spaceNumber(sid) }));
      }
      if (view.piece === sid) {
        // The tent being paid for: drawn see-through until the cards are paid.
        g.append(svg("circle", { cx: x, cy: y, r: 19, fill: "none", stroke: HIGHLIGHT, "stroke-width": 3 }), seatShape(view.tribe, x, y, 12, { opacity: 0.55 }));
        g.setAttribute("role", "img");
        g.setAttribute("aria-label", t("iwari.ui.paying_tent"));
      }
      tooltip(g, g.getAttribute("aria-label") || t("iwari.ui.empty_space", { territory: territoryName(terr.id, t), n: spaceNumber(sid) }));
      const move = moves.tent.get(sid);
      if (move) {
        g.append(svg("circle", { cx: x, cy: y, r: 19, fill: "#fff59d", "fill-opacity": 0.5, stroke: HIGHLIGHT, "stroke-width": 3, "stroke-dasharray": "5 3" }),
          svg("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: HIGHLIGHT }, "+"));
        moveTarget(g, move, ctx, t("iwari.move.tent", { territory: territoryName(terr.id, t), n: spaceNumber(sid) }), "iw-legal");
      }
      pieces.append(g);
    }
    pieces.append(totemCircle(ctx, terr, moves));
  }
  // The badges go over the highlighted outlines, so a dashed edge never hides a number.
  map.append(layerNames, pieces, layerTop, badges);
  return map;
}

// The totem circle: every tribe's totems stacked as its shape with a count.
function totemCircle(ctx, terr, moves) {
  const { view, t } = ctx;
  const [x, y] = terr.totem;
  const counts = view.totems[terr.id] || [];
  const g = part(svg("g", { class: "iw-totems", "data-totems": terr.id }), `totems/${terr.id}`);
  g.append(svg("circle", { cx: x, cy: y, r: 26, fill: "#f5efe2", stroke: "#6b4e2e", "stroke-width": 2.5 }),
    svg("circle", { cx: x, cy: y, r: 21, fill: "none", stroke: "#6b4e2e", "stroke-width": 1, "stroke-dasharray": "3 3" }));
  const held = counts.map((n, tribe) => [tribe, n]).filter(([, n]) => n > 0);
  const cols = held.length > 3 ? 2 : 1;
  const rows = Math.ceil(held.length / cols);
  held.forEach(([tribe, n], i) => {
    const col = i % cols;
    const row = Math.floor(i / cols);
    const cx = x - (cols - 1) * 11 + col * 22 - 6;
    const cy = y - ((rows - 1) * 14) / 2 + row * 14;
    g.append(seatShape(tribe, cx, cy, 6), svg("text", { x: cx + 8, y: cy + 4.5, "font-size": 12, "font-weight": 700, fill: "#1b1b1b" }, String(n)));
  });
  const parts = held.map(([tribe, n]) => `${tribeName(tribe, view, ctx.seats, t)} ${n}`).join(", ");
  // IW-24 (Floating Lands): no totems in this biome; the circle is struck through.
  const closed = (view.board.no_totems || []).includes(terr.biome);
  if (closed) {
    g.append(svg("line", { x1: x - 18, y1: y + 18, x2: x + 18, y2: y - 18, stroke: "#8a1c1c", "stroke-width": 4, "stroke-linecap": "round" }));
    g.setAttribute("data-no-totems", "1");
  }
  const label = closed ? t("iwari.ui.no_totems", { territory: territoryName(terr.id, t) })
    : t("iwari.ui.totem_circle", { territory: territoryName(terr.id, t) }) + (parts ? `: ${parts}` : "");
  if (view.piece === "totem" && view.territory === terr.id) {
    g.append(svg("circle", { cx: x, cy: y, r: 31, fill: "none", stroke: HIGHLIGHT, "stroke-width": 3 }), seatShape(view.tribe, x + 14, y - 14, 7, { opacity: 0.6 }));
  }
  tooltip(g, label);
  const move = view.territory === terr.id ? moves.totem : null;
  if (move) {
    g.prepend(svg("circle", { cx: x, cy: y, r: 32, fill: "#fff59d", stroke: HIGHLIGHT, "stroke-width": 3, "stroke-dasharray": "6 4" }));
    moveTarget(g, move, ctx, `${t("iwari.move.totem")} · ${label}`, "iw-legal");
  } else {
    g.setAttribute("role", "img");
    g.setAttribute("aria-label", label);
  }
  return g;
}

// -- cards: the hand, the display, the deck ---------------------------------------------

function card(x, y, biome, t, attrs = {}) {
  const style = BIOMES[biome];
  return tooltip(svg("g", { transform: `translate(${x},${y})`, ...attrs },
    svg("rect", { width: CARD_W, height: CARD_H, rx: 7, fill: style.fill, stroke: "#3a3a3a", "stroke-width": 1.5 }),
    svg("rect", { x: 5, y: 5, width: CARD_W - 10, height: CARD_H - 34, rx: 4, fill: `url(#iw-pat-${biome})`, stroke: style.ink, "stroke-width": 1 }),
    svg("rect", { x: 3, y: CARD_H - 27, width: CARD_W - 6, height: 24, rx: 4, fill: "#fffdf6", opacity: 0.9 }),
    cardName(t(`iwari.biome.${biome}`), style.ink)), t("iwari.ui.card_tip", { biome: t(`iwari.biome.${biome}`) }));
}

// A biome's name fitted to the card's label box (Vietnamese names are wider than the card).
function cardName(name, ink) {
  // Bold letters run wider than the estimate: a sixth of the width to spare.
  const { size } = fit(name, (CARD_W - 10) * 0.84, 14, { min: 8 });
  return svg("text", { x: CARD_W / 2, y: CARD_H - 15 + size * 0.36, "text-anchor": "middle", "font-size": size, "font-weight": 700, fill: ink }, name);
}

// A card that plays a move: a highlight round it, and the move on it.
function cardTarget(g, move, ctx, label) {
  g.prepend(svg("rect", { x: -5, y: -5, width: CARD_W + 10, height: CARD_H + 10, rx: 10, fill: "#fff59d", stroke: HIGHLIGHT, "stroke-width": 3, "stroke-dasharray": "6 4" }));
  return moveTarget(g, move, ctx, label, "iw-legal");
}

function button(x, y, w, text, move, ctx, label) {
  const g = svg("g", { transform: `translate(${x},${y})`, class: "iw-button" },
    svg("rect", { width: w, height: 34, rx: 8, fill: "#0072b2", stroke: HIGHLIGHT, "stroke-width": 2 }),
    svg("text", { x: w / 2, y: 22, "text-anchor": "middle", "font-size": 15, "font-weight": 700, fill: "#fff" }, text));
  return moveTarget(g, move, ctx, label || text, "iw-legal");
}

function drawCards(ctx, moves) {
  const { view, t } = ctx;
  const hand = view.hand || [];
  // A spectator has no hand: the tray holds the display and the deck only, rather than
  // an empty row saying the hands are hidden.
  const spectator = view.seat === undefined || view.seat === null;
  const top = spectator ? -170 : 0; // where the display row sits, against a seat's tray
  const width = 470;
  // No <defs> of its own: the card patterns are the map's (ids are document-wide).
  const tray = svg("svg", { viewBox: `0 0 ${width} ${292 + top}`, class: "iw-cards", role: "group",
    "aria-label": spectator ? t("iwari.ui.display") : t("iwari.ui.cards"),
    style: { width: "100%", maxWidth: "560px", height: "auto", display: "block" } });
  const label = (x, y, text) => svg("text", { x, y, "font-size": 16, "font-weight": 700, fill: "#3b3b3b" }, text);

  // The hand: click a card to pay with it (a pair is paid by clicking either card).
  if (!spectator) tray.append(label(8, 18, t("iwari.ui.hand")));
  hand.forEach((id, i) => {
    const x = 10 + i * (CARD_W + 14);
    const g = card(x, 30, biomeOf(id), t, { class: "iw-card iw-hand", "data-card": id });
    const pay = moves.pay.find((m) => m.cards.length === 1 && m.cards[0] === id) || moves.pay.find((m) => m.cards.includes(id));
    if (pay) {
      cardTarget(g, pay, ctx, t("iwari.move.pay", { cards: pay.cards.map((c) => t(`iwari.biome.${biomeOf(c)}`)).join(" + ") }));
    }
    tray.append(g);
    const discard = moves.discard.get(id);
    if (discard) tray.append(button(x, 132, CARD_W, t("iwari.ui.discard"), discard, ctx, t("iwari.move.discard", { biome: t(`iwari.biome.${biomeOf(id)}`) })));
  });
  if (moves.done) tray.append(button(262, 58, 196, t("iwari.ui.end_move"), moves.done, ctx));
  // "Click cards to pay" only to the one who can (not in a replay, not to the others).
  if (view.piece && moves.pay.length) {
    const paying = fit(view.piece === "totem" ? t("iwari.ui.paying_totem") : t("iwari.ui.paying_tent"), width - 270, 14, { min: 11, maxLines: 3 });
    tray.append(svg("text", { x: 262, y: 112, "font-size": paying.size, fill: "#3b3b3b" },
      paying.lines.map((line, i) => svg("tspan", { x: 262, dy: i ? paying.size * 1.2 : 0 }, line))));
  }

  // The display and the deck: click one to draw from it (said only when one can).
  const canDraw = moves.display.size > 0 || Boolean(moves.deck);
  tray.append(label(8, 188 + top, canDraw ? t("iwari.ui.display_take") : t("iwari.ui.display")));
  view.display.forEach((id, i) => {
    const x = 10 + i * (CARD_W + 14);
    const g = part(card(x, 196 + top, biomeOf(id), t, { class: "iw-card iw-display", "data-card": id }), `display/${i}`);
    const move = moves.display.get(id);
    if (move) {
      cardTarget(g, move, ctx, t("iwari.move.draw_display", { biome: t(`iwari.biome.${biomeOf(id)}`) }));
    }
    tray.append(g);
  });
  const dx = 10 + 4 * (CARD_W + 14) + 10;
  const deck = svg("g", { transform: `translate(${dx},${196 + top})`, class: "iw-deck" },
    svg("rect", { width: CARD_W, height: CARD_H, rx: 7, fill: "#3d5a73", stroke: "#1b1b1b", "stroke-width": 1.5 }),
    svg("rect", { x: 6, y: 6, width: CARD_W - 12, height: CARD_H - 12, rx: 5, fill: "none", stroke: "#c9d9e6", "stroke-width": 1.5, "stroke-dasharray": "4 3" }),
    svg("text", { x: CARD_W / 2, y: 44, "text-anchor": "middle", "font-size": 22, "font-weight": 700, fill: "#fff" }, String(view.deck)),
    svg("text", { x: CARD_W / 2, y: 66, "text-anchor": "middle", "font-size": 12, fill: "#fff" }, t("iwari.ui.deck")));
  part(deck, "deck", t("iwari.ui.deck_count", { n: view.deck }));
  if (moves.deck) {
    cardTarget(deck, moves.deck, ctx, t("iwari.move.draw_deck"));
  } else {
    deck.setAttribute("role", "img");
    deck.setAttribute("aria-label", t("iwari.ui.deck_count", { n: view.deck }));
  }
  tray.append(deck, svg("text", { x: dx - 4, y: 188 + top, "font-size": 13, fill: "#3b3b3b" }, t("iwari.ui.discards", { n: view.discard.length })));
  return tray;
}

// -- the tribes' status ------------------------------------------------------------------

function drawStatus(ctx) {
  const { view, t } = ctx;
  const list = h("ul", { class: "iw-status", style: { listStyle: "none", padding: 0, margin: "0 0 8px", display: "flex", flexWrap: "wrap", gap: "6px 16px" } });
  for (let tribe = 0; tribe < view.tribes; tribe++) {
    const badge = svg("svg", { width: 18, height: 18, viewBox: "-10 -10 20 20", "aria-hidden": "true" }, seatShape(tribe, 0, 0, 8.5));
    const turn = tribe === view.tribe && view.phase !== "over";
    list.append(part(h("li", { class: "iw-tribe", dataset: { tribe }, style: { display: "flex", flexWrap: "wrap", alignItems: "center", gap: "0 6px", fontWeight: turn ? 700 : 400 } },
      badge,
      h("span", {}, tribeName(tribe, view, ctx.seats, t)),
      h("span", {}, t("iwari.ui.status", { score: view.scores[tribe], tents: view.tents_left[tribe], totems: view.totems_left[tribe] }))),
    [`scores/${tribe}`, `tents_left/${tribe}`, `totems_left/${tribe}`]));
  }
  const facts = [t("iwari.ui.deck_count", { n: view.deck })];
  if (view.half_journey) facts.push(t("iwari.ui.after_half"));
  if (view.end_triggered) facts.push(t("iwari.ui.last_round"));
  return [list, h("p", { class: "small muted", style: { margin: "0 0 6px" } }, facts.join(" · "))];
}

// -- the face-up expedition cards (IW-20) -------------------------------------------------------

// Each card in words, so it wraps at phone width: the mission, the points for the first and
// the second to complete it, and who did with the points each scored.
function missionText(e, t) {
  return t(`iwari.mission.${e.mission}`, { count: e.count, biome: e.biome ? t(`iwari.biome.${e.biome}`) : "" });
}

function drawExpeditions(ctx) {
  const { view, t } = ctx;
  if (!view.expeditions || !view.expeditions.length) return null;
  const cards = view.expeditions.map((e) => {
    const style = e.biome ? BIOMES[e.biome] : null;
    const done = (e.completed || []).map(({ seat, points }) => h("span", {
      class: "iw-exp-by", dataset: { seat }, style: { display: "inline-flex", alignItems: "center", gap: "4px", marginRight: "10px" } },
    svg("svg", { width: 16, height: 16, viewBox: "-10 -10 20 20", "aria-hidden": "true" }, seatShape(seat, 0, 0, 8.5)),
    t("iwari.ui.expedition_done", { tribe: tribeName(seat, view, ctx.seats, t), points })));
    const state = done.length >= 2 ? t("iwari.ui.expedition_closed") : done.length ? null : t("iwari.ui.expedition_open");
    return h("li", {
      class: "iw-expedition", dataset: { expedition: e.id, done: String(done.length) },
      style: { flex: "1 1 160px", maxWidth: "100%", boxSizing: "border-box", background: "#fffdf6", border: "1px solid #8c7a5b",
        borderLeft: `8px solid ${style ? style.fill : "#8c7a5b"}`, borderRadius: "8px", padding: "6px 8px", opacity: done.length >= 2 ? 0.75 : 1 },
    },
    h("div", { class: "iw-exp-mission", style: { fontWeight: 700, color: style ? style.ink : "#3b2a14" } }, missionText(e, t)),
    h("div", { class: "iw-exp-values small" }, t("iwari.ui.expedition_values", { first: e.values[0], second: e.values[1] })),
    h("div", { class: "iw-exp-done small" }, ...done, state ? h("span", { class: "muted" }, state) : null));
  });
  return h("section", { class: "iw-expeditions", "aria-labelledby": "iw-exp-title", style: { margin: "0 0 8px" } },
    h("h3", { id: "iw-exp-title", style: { margin: "0 0 4px", fontSize: "15px" } }, t("iwari.ui.expeditions")),
    h("ul", { style: { listStyle: "none", padding: 0, margin: 0, display: "flex", flexWrap: "wrap", gap: "6px" } }, cards));
}

// -- the scoring overlay -------------------------------------------------------------------

function table(head, rows) {
  return h("div", { class: "table-scroll" }, h("table", { class: "iw-score-table", style: { borderCollapse: "collapse", width: "100%" } },
    h("thead", {}, h("tr", {}, head.map((c, i) => h("th", { scope: "col", style: { textAlign: i ? "right" : "left", padding: "2px 6px" } }, c)))),
    h("tbody", {}, rows.map((r, ri) => h("tr", { style: { borderTop: "1px solid #d9d4c7", fontWeight: r.bold ? 700 : 400 } },
      r.cells.map((c, i) => h(i ? "td" : "th", { scope: i ? undefined : "row", style: { textAlign: i ? "right" : "left", padding: "2px 6px", fontWeight: i && !r.bold ? 400 : 700 }, dataset: { row: ri } }, String(c))))))));
}

// The scoring lines of the log (half journey, end, feats, expeditions), as the log says them.
function scoringEvents(ctx, keys) {
  const lines = (ctx.events || []).filter((e) => keys.includes(e.key)).map((e) => h("li", {}, eventText("iwari", e, ctx.seats)));
  return lines.length ? h("ul", { class: "small iw-score-events", style: { margin: "8px 0 0", paddingLeft: "18px" } }, lines) : null;
}

function halfJourneyOverlay(ctx) {
  const { view, t } = ctx;
  const tribes = Array.from({ length: view.tribes }, (_, i) => i);
  const head = [t("iwari.ui.territory_col"), ...tribes.map((tr) => tribeName(tr, view, ctx.seats, t))];
  const rows = Object.entries(view.half_journey)
    .filter(([, row]) => row.some((p) => p))
    .map(([tid, row]) => ({ cells: [territoryName(tid, t), ...row] }));
  const totals = tribes.map((tr) => Object.values(view.half_journey).reduce((sum, row) => sum + row[tr], 0));
  rows.push({ bold: true, cells: [t("iwari.ui.total"), ...totals] });
  return [h("h2", { id: "iw-overlay-title" }, t("iwari.ui.half_title")), h("p", { class: "small" }, t("iwari.ui.half_help")), table(head, rows),
    scoringEvents(ctx, ["iwari.half_journey"])];
}

function endOverlay(ctx) {
  const { t, result } = ctx;
  const seats = Array.from({ length: result.scores.length }, (_, i) => i);
  const b = seats.map((s) => result.breakdown[s] || {});
  const head = [t("iwari.ui.scoring_col"), ...seats.map((s) => seatName(ctx.seats, s))];

  // Where the points came from: each territory and connection that scored for anyone.
  const detail = [];
  const territories = [...new Set(seats.flatMap((s) => Object.keys((b[s].end_journey || {}).territories || {})))];
  for (const tid of territories) detail.push({ cells: [territoryName(tid, t), ...seats.map((s) => b[s].end_journey.territories[tid] || 0)] });
  const connections = [...new Set(seats.flatMap((s) => Object.keys((b[s].end_journey || {}).connections || {})))].sort((x, y) => x - y);
  for (const n of connections) detail.push({ cells: [t("iwari.ui.connection_n", { n }), ...seats.map((s) => b[s].end_journey.connections[n] || 0)] });
  seats.forEach((s) => ((b[s].end_journey || {}).settlements || []).forEach((g) => detail.push({
    cells: [t("iwari.ui.settlement_of", { tribe: seatName(ctx.seats, s), n: g.tents }), ...seats.map((o) => (o === s ? g.tents : 0))] })));
  const feats = seats.flatMap((s) => (b[s].feats || []).map((f) => `${seatName(ctx.seats, s)}: ${t(`iwari.ui.feat.${f.feat}`)} → ${f.territory ? territoryName(f.territory, t) : t("iwari.ui.connection_n", { n: f.connection })}`));
  // The scores and their sources are the frame's end screen (one score table): this
  // says where the points of the end of the journey came from.
  return [
    h("h2", { id: "iw-overlay-title" }, t("iwari.ui.end_title")),
    h("h3", {}, t("iwari.ui.end_detail")),
    table(head, detail),
    feats.length ? h("p", { class: "small" }, `${t("iwari.breakdown.feats")}: ${feats.join("; ")}`) : null,
    scoringEvents(ctx, ["iwari.half_journey", "iwari.end_journey", "iwari.expedition"]),
  ];
}

function overlay(root, ctx, state) {
  const { view, result, t } = ctx;
  let kind = null;
  if (result && state.closed !== "end") kind = "end";
  else if (!result && view.half_journey && state.closed !== "half" && state.closed !== "end") kind = "half";
  if (!kind) return null;
  const close = () => {
    state.closed = kind;
    root.querySelector(".iw-overlay")?.remove();
    state.observer?.disconnect();
    root.style.minHeight = "";
  };
  // The half-journey table floats over the board only while the reader has nothing to
  // play; on their own turn it sits below the cards, so the map stays in sight.
  const floating = kind === "end" || !(ctx.legal || []).length;
  const place = floating
    ? { position: "absolute", inset: "0 0 auto 0", margin: "8px auto", boxShadow: "0 6px 24px rgba(0,0,0,.3)", zIndex: 5 }
    : { position: "static", margin: "8px 0" };
  return h("div", {
    class: "iw-overlay", role: "dialog", "aria-modal": "false", "aria-labelledby": "iw-overlay-title", dataset: { kind, floating: String(floating) },
    style: { ...place, maxWidth: "640px", background: "#fffdf6", border: "2px solid #1b1b1b", borderRadius: "10px", padding: "12px 14px" },
  }, ...(kind === "end" ? endOverlay(ctx) : halfJourneyOverlay(ctx)),
  h("div", { class: "row", style: { marginTop: "10px" } }, h("button", { type: "button", class: "primary iw-overlay-close", onclick: close }, t("iwari.ui.close"))));
}

// -- the module's interface ------------------------------------------------------------------

// The legal moves, sorted by what on the board plays them.
function sortMoves(legal) {
  const moves = {
    territory: new Map(), featTerritory: new Map(), featConnection: new Map(), tent: new Map(),
    discard: new Map(), display: new Map(), pay: [], totem: null, done: null, deck: null,
  };
  for (const m of legal) {
    if (m.type === "territory") moves.territory.set(m.territory, m);
    else if (m.type === "tent") moves.tent.set(m.space, m);
    else if (m.type === "totem") moves.totem = m;
    else if (m.type === "done") moves.done = m;
    else if (m.type === "pay") moves.pay.push(m);
    else if (m.type === "discard") moves.discard.set(m.card, m);
    else if (m.type === "draw" && m.from === "deck") moves.deck = m;
    else if (m.type === "draw") moves.display.set(m.card, m);
    else if (m.type === "feat" && m.territory) moves.featTerritory.set(m.territory, m);
    else if (m.type === "feat") moves.featConnection.set(m.connection, m);
  }
  return moves;
}

export function render(root, ctx) {
  const state = boardState(root, () => ({ closed: null }));
  // Not filtered by ctx.busy: the frame does not redraw the board when a move's answer
  // clears it, and play() already ignores clicks while a move is on its way.
  const moves = sortMoves(ctx.legal || []);
  root.style.position = "relative";
  // On a phone the frame zooms the map and pans it (web/js/boardview.js).
  const mapBox = h("div", { class: "iw-map-box" }, drawMap(ctx, moves));
  const parts = [...drawStatus(ctx), drawExpeditions(ctx), mapBox, drawCards(ctx, moves)].filter(Boolean);
  const over = overlay(root, ctx, state);
  if (over) parts.push(over);
  // Keep the keyboard focus on the same control across a redraw, when it still exists.
  keepFocus(root, () => root.replaceChildren(...parts));
  // The part of the board the decision is about: the map for a territory, a tent, a totem
  // or a feat's place; else the cards (the hand to pay with, the display to draw from).
  const area = ["map", "cards"].find((part) => root.querySelector(`.iw-${part} [data-move], .iw-${part} [data-select]`));
  focusArea(root, area ? root.querySelectorAll(`.iw-${area}`) : [], area);
  // The overlay floats over the board; on a phone it can be taller than the board, so
  // the board grows to hold it (and follows it when the width changes) rather than
  // spill over the panels below.
  state.observer?.disconnect();
  state.observer = null;
  root.style.minHeight = "";
  if (over && over.dataset.floating === "true" && typeof ResizeObserver === "function") {
    state.observer = new ResizeObserver(() => { root.style.minHeight = over.isConnected ? `${over.offsetHeight + 16}px` : ""; });
    state.observer.observe(over);
  }
}

export function destroy(root) {
  dropBoardState(root)?.observer?.disconnect();
}

export function moveLabel(move, { t }) {
  const biome = (id) => t(`iwari.biome.${biomeOf(id)}`);
  switch (move.type) {
    case "territory": return t("iwari.move.territory", { territory: territoryName(move.territory, t) });
    case "tent": return t("iwari.move.tent", { territory: territoryName(move.space.split(".")[0], t), n: spaceNumber(move.space) });
    case "totem": return t("iwari.move.totem");
    case "done": return t("iwari.ui.end_move");
    case "pay": return t("iwari.move.pay", { cards: move.cards.map(biome).join(" + ") });
    case "discard": return t("iwari.move.discard", { biome: biome(move.card) });
    case "draw": return move.from === "deck" ? t("iwari.move.draw_deck") : t("iwari.move.draw_display", { biome: biome(move.card) });
    case "pass": return t("iwari.move.pass");
    case "feat": return move.territory
      ? t("iwari.move.feat_territory", { feat: t(`iwari.ui.feat.${move.feat}`), territory: territoryName(move.territory, t) })
      : t("iwari.move.feat_connection", { feat: t(`iwari.ui.feat.${move.feat}`), n: move.connection });
    default: return null;
  }
}

// The end-of-game statistics (the frame's "points by source" table): the half-journey,
// then the end's tents, totems, settlements (and purple road, expeditions where the map
// or the options have them). They add up to the score.
export function statistics(result, { t, view }) {
  const b = (result.breakdown || []).map((x) => x || {});
  const end = (x, k) => (x.end_journey || {})[k] ?? 0;
  const sum = (o) => Object.values(o || {}).reduce((a, v) => a + (Number(v) || 0), 0);
  const rows = [
    { label: t("iwari.breakdown.half_journey"), values: b.map((x) => (x.half_journey || {}).total ?? 0) },
    { label: t("iwari.ui.row_tents"), values: b.map((x) => end(x, "tents_total")) },
    { label: t("iwari.ui.row_totems"), values: b.map((x) => end(x, "totems_total")) },
    { label: t("iwari.ui.row_settlements"), values: b.map((x) => end(x, "settlements_total")) },
  ];
  const purple = b.map((x) => end(x, "purple_road"));
  if ((view && view.board && (view.board.purple_road || []).length) || purple.some(Boolean)) rows.push({ label: t("iwari.ui.row_purple"), values: purple });
  const expeditions = b.map((x) => sum(x.expeditions));
  if ((view && view.options && view.options.expeditions) || expeditions.some(Boolean)) rows.push({ label: t("iwari.breakdown.expeditions"), values: expeditions });
  return rows;
}

// Each tribe's key resources, for the seat panel: its score, its cards in hand, and the
// tents and totems it has left.
export function resources(view, seat, { t }) {
  if (seat >= (view.tribes || 0)) return [];
  return [
    { key: "score", label: t("iwari.ui.res_score"), value: (view.scores || [])[seat] ?? 0 },
    { key: "cards", label: t("iwari.ui.res_cards"), value: (view.hand_sizes || [])[seat] ?? 0 },
    { key: "tents", label: t("iwari.ui.res_tents"), value: (view.tents_left || [])[seat] ?? 0 },
    { key: "totems", label: t("iwari.ui.res_totems"), value: (view.totems_left || [])[seat] ?? 0 },
  ];
}

export function scores(view) {
  return view.scores.slice(0, view.seats);
}
