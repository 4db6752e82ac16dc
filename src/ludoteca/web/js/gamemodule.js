// Loading a game's board module (/games/<id>.js: web/board.js in the game's package) and
// the helpers every game shares: move labels, log lines and seat names in the reader's
// language. A game without a module, or whose module fails, still plays through the
// frame's list of moves.
import { h } from "./dom.js";
import { argName, argRules, gameText, has, t } from "./i18n.js";

const modules = {};

export function loadModule(gameId) {
  if (!(gameId in modules)) {
    modules[gameId] = import(`/games/${encodeURIComponent(gameId)}.js`).catch(() => null);
  }
  return modules[gameId];
}

export function seatName(seats, seat) {
  const s = seats && seats[seat];
  if (!s) return t("seat.numbered", { n: Number(seat) + 1 });
  if (s.username) return s.zombie ? `${s.username} (${t("seat.bot")})` : s.username;
  if (s.bot) return t("seat.bot_named", { n: Number(seat) + 1 });
  return t("seat.empty");
}

// Seats named in args (seat, winner, or *_seat) read as players' names, not numbers;
// ids the game's strings name (their "_names" rules, see i18n.js) read as those names.
function formatArgs(args, seats, game) {
  const out = {};
  for (const [k, v] of Object.entries(args || {})) {
    const isSeat = (k === "seat" || k === "winner" || k === "player" || k.endsWith("_seat")) && Number.isInteger(v);
    out[k] = isSeat ? seatName(seats, v) : argValue(game, k, v, seats);
  }
  return out;
}

// Numbers inside a list are named as a number on its own is (Blood Rage's revealed cards
// are [seat, card] pairs); a list whose rule is "@each:<owner>" holds one entry per seat
// (or tribe), each shown with whose it is.
function argValue(game, arg, value, seats) {
  if (Number.isInteger(value)) return numberName(game, arg, value, seats);
  const owner = Array.isArray(value) ? eachOwner(game, arg) : null;
  if (owner) {
    return value.map((v, i) => t("common.each", {
      who: owner === "seat" ? seatName(seats, i) : numberName(game, owner, i, seats), value: v }));
  }
  if (Array.isArray(value) && value.some((v) => Number.isInteger(v) || Array.isArray(v))) {
    return value.map((v) => argValue(game, arg, v, seats));
  }
  return argName(game, arg, value);
}

function eachOwner(game, arg) {
  const rule = (argRules(game, arg) || []).find((r) => typeof r === "string" && r.startsWith("@each:"));
  return rule ? rule.slice("@each:".length) : null;
}

// A number named by the game's rules: "@seat" reads a seat's player (when the number is
// one of the table's seats), a key template names the others ("iwari.tribe.{id}").
function numberName(game, arg, value, seats) {
  const rules = argRules(game, arg);
  if (!rules) return value;
  if (rules.includes("@seat") && value >= 0 && value < (seats || []).length) return seatName(seats, value);
  const named = argName(game, arg, String(value));
  return named === String(value) ? value : named;
}

// The seat a log line is about, for its badge: its "seat" (or "player", "winner"), else
// an argument the game's "_names" rules read as a seat ("@seat": Iwari's tribe), else
// the one seat a private line is for; null when the line is about no one.
export function eventSeat(game, event) {
  const args = (event && event.args) || {};
  for (const k of ["seat", "player", "winner"]) if (Number.isInteger(args[k])) return args[k];
  for (const [k, v] of Object.entries(args)) {
    if (Number.isInteger(v) && (argRules(game, k) || []).includes("@seat")) return v;
  }
  return Number.isInteger(event && event.to) ? event.to : null;
}

export function eventText(game, event, seats) {
  return t(event.key, formatArgs(event.args, seats, game));
}

// The game is the one on screen unless given.
export function promptText(prompt, seats, game) {
  return t(prompt.key, formatArgs(prompt.args, seats, game));
}

export function moveLabel(gameId, module, move, ctx) {
  if (module && typeof module.moveLabel === "function") {
    try {
      const label = module.moveLabel(move, ctx);
      if (label) return label;
    } catch {
      // fall through to the generic label
    }
  }
  const label = gameText(gameId, `move.${move.type}`, formatArgs(move, ctx.seats, gameId));
  if (label !== undefined) return label;
  const rest = Object.entries(move).filter(([k]) => k !== "type").map(([, v]) => (typeof v === "object" ? JSON.stringify(v) : v));
  return [String(move.type || "move").replace(/_/g, " "), ...rest].join(" · ");
}

export function errorText(gameId, error) {
  const own = gameText(gameId, `error.${error.code}`, error.body || {}) ?? gameText(gameId, `errors.${error.code}`, error.body || {});
  if (own !== undefined) return own;
  if (has(`errors.${error.code}`)) return t(`errors.${error.code}`, error.body || {});
  return error.message || t("errors.unknown");
}

// The frame's stand-in for a board: the view itself, readable, behind a disclosure.
export function genericBoard(root, view) {
  root.replaceChildren(
    h("p", { class: "muted small" }, t("table.no_board")),
    h("details", { class: "no-board" }, h("summary", {}, t("table.show_view")), h("pre", {}, JSON.stringify(view, null, 1))));
}
