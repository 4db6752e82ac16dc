// Languages: the frame's own strings live in web/i18n/<lang>.json; each game's prompts,
// log lines and card texts come from the server (games/<id>/i18n/<lang>.json). Every
// lookup falls back to English, then to a readable form of the key, so a missing
// translation never hides information.
import { gameStringsUrl } from "./api.js";

export const LANGUAGES = { en: "English", ja: "日本語", vi: "Tiếng Việt" };
const STORE_KEY = "ludoteca.lang";

let current = "en";
const frame = {}; // lang -> flat dict
const games = {}; // `${lang}:${game}` -> flat dict (or a pending promise)
const nameRules = {}; // `${lang}:${game}` -> the "_names" object of the game's strings (see names())
let gameTablesLoaded = 0;

// How many game string tables have come so far: text drawn before one came may read
// differently now (a panel that keeps its lines draws them again when this changes).
export function gameStringsLoaded() {
  return gameTablesLoaded;
}

export function language() {
  return current;
}

// The remembered choice first, then the browser's languages in order of preference.
export function preferredLanguage() {
  const stored = safeStorage("get", STORE_KEY);
  if (stored && stored in LANGUAGES) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

export async function setLanguage(lang, { remember = true } = {}) {
  if (!(lang in LANGUAGES)) lang = "en";
  await Promise.all([loadFrame("en"), loadFrame(lang)]);
  const loadedGames = Object.keys(games).filter((k) => k.startsWith("en:")).map((k) => k.slice(3));
  await Promise.all(loadedGames.map((g) => loadGame(g, lang)));
  current = lang;
  document.documentElement.lang = lang;
  if (remember) safeStorage("set", STORE_KEY, lang);
  window.dispatchEvent(new CustomEvent("ludoteca:language", { detail: lang }));
}

async function loadFrame(lang) {
  if (frame[lang]) return;
  const res = await fetch(`/i18n/${lang}.json`);
  frame[lang] = res.ok ? flatten(await res.json()) : {};
}

// A game's strings, in English (the fallback) and the current language.
export async function loadGameStrings(gameId) {
  await Promise.all([loadGame(gameId, "en"), loadGame(gameId, current)]);
}

async function loadGame(gameId, lang) {
  const key = `${lang}:${gameId}`;
  if (!games[key]) {
    games[key] = fetch(gameStringsUrl(gameId, lang))
      .then((res) => (res.ok ? res.json() : {}))
      .catch(() => ({}))
      .then((data) => {
        if (data && data._names && typeof data._names === "object") nameRules[key] = data._names;
        gameTablesLoaded += 1;
        return (games[key] = flatten(data));
      });
  }
  return games[key];
}

function flatten(data, prefix = "", out = {}) {
  for (const [k, v] of Object.entries(data || {})) {
    if (k.startsWith("_")) continue; // "_provenance" and other notes are not strings
    const name = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v)) flatten(v, name, out);
    else out[name] = v;
  }
  return out;
}

// The game on screen: its strings are looked up after the frame's. Games name their
// keys freely ("card.x", "br.prompt.y"), so only one game's strings are in play at once.
let activeGame = null;

export function useGame(gameId) {
  activeGame = gameId || null;
}

function gameDicts(gameId, lang) {
  const key = `${lang}:${gameId}`;
  const served = games[key] && !(games[key] instanceof Promise) ? games[key] : null;
  return served ? [served] : [];
}

function lookup(key, lang) {
  if (frame[lang] && key in frame[lang]) return frame[lang][key];
  if (activeGame) {
    for (const dict of gameDicts(activeGame, lang)) if (key in dict) return dict[key];
  }
  return undefined;
}

// A string of one game whose key ends with `suffix` ("game.name", "option.map"): games
// prefix their keys differently (iwari., cr., hw.), the endings are shared.
export function gameText(gameId, suffix, args = {}) {
  for (const lang of [current, "en"]) {
    for (const dict of gameDicts(gameId, lang)) {
      const key = suffix in dict ? suffix : Object.keys(dict).find((k) => k.endsWith(`.${suffix}`));
      if (key !== undefined) return fill(dict[key], args);
    }
  }
  return undefined;
}

// -- Names of ids -----------------------------------------------------------------------
// Event and prompt arguments often carry ids ("glorious_death", "andlang", "fort_3").
// A game's strings may hold a "_names" object that says, per argument name, which of its
// own keys names such a value: a key template, or a list of them (the first that exists
// wins). In a template, {id} is the value; {base} and {n} split a value that ends in a
// number, after "-", "_", "." or nothing ("fort_3": "fort", 3); {head} and {tail} split it at its first "-" or "_"
// ("p0-ranger": "p0", "ranger"). A rule may also be an object {key, <arg>: template}:
// the key's string is filled with the names the other templates give (all must exist).
// The string found is filled with {id}, {base}, {n}, {head}, {tail}. See
// games/README.md.
const NUMBERED = /^(.+?)[-_.]?(\d+)$/;
const SPLIT = /^([^-_]+)[-_](.+)$/;

function idParts(id) {
  const numbered = NUMBERED.exec(id);
  const split = SPLIT.exec(id);
  return {
    id, base: numbered ? numbered[1] : id, n: numbered ? String(Number(numbered[2])) : "",
    head: split ? split[1] : id, tail: split ? split[2] : id,
  };
}

function gameString(gameId, key) {
  for (const lang of [current, "en"]) {
    for (const dict of gameDicts(gameId, lang)) if (key in dict) return dict[key];
  }
  return undefined;
}

function rulesFor(gameId, arg) {
  for (const lang of [current, "en"]) {
    const rules = nameRules[`${lang}:${gameId}`];
    if (rules && Object.prototype.hasOwnProperty.call(rules, arg)) return [].concat(rules[arg]);
  }
  return null;
}

const substitute = (template, parts) => String(template).replace(/\{(\w+)\}/g, (whole, k) => (k in parts ? parts[k] : whole));

function nameOne(gameId, rules, value) {
  const parts = idParts(value);
  for (const rule of rules) {
    const spec = rule && typeof rule === "object" ? rule : { key: rule };
    const text = gameString(gameId, substitute(spec.key, parts));
    if (text === undefined) continue;
    const args = { ...parts };
    let complete = true;
    for (const [name, template] of Object.entries(spec)) {
      if (name === "key") continue;
      const inner = gameString(gameId, substitute(template, parts));
      if (inner === undefined) complete = false;
      else args[name] = fill(inner, parts);
    }
    if (complete) return fill(text, args);
  }
  return value;
}

// The rules for an argument of a game's events and prompts (null: none).
export function argRules(gameId, arg) {
  const game = gameId || activeGame;
  return game ? rulesFor(game, arg) : null;
}

// The readable name of an argument's value: a string id (or a list of them, nested or not) named by the
// game's "_names" rules; anything else, or an id with no name, is returned as it is.
export function argName(gameId, arg, value) {
  const game = gameId || activeGame;
  if (!game) return value;
  const rules = rulesFor(game, arg);
  if (!rules) return value;
  // A yes/no is named as its word ("true", "false") would be: Blood Rage's fulfilled quests.
  const named = (v) => (typeof v === "string" ? nameOne(game, rules, v) : typeof v === "boolean" ? nameOne(game, rules, String(v))
    : Array.isArray(v) ? v.map(named) : v);
  return named(value);
}

export function has(key) {
  return lookup(key, current) !== undefined || lookup(key, "en") !== undefined;
}

// t("table.waiting_for", {names: "Ana"}): "{name}" placeholders are filled from args.
export function t(key, args = {}) {
  let text = lookup(key, current);
  if (text === undefined) text = lookup(key, "en");
  if (text === undefined) return humanize(key, args);
  return fill(text, args);
}

function fill(text, args) {
  return String(text).replace(/\{(\w+)\}/g, (whole, name) => (name in args ? display(args[name]) : whole));
}

// "iwari.tent_placed" with {seat: 1} reads "tent placed (seat: 1)".
function humanize(key, args) {
  const last = key.split(".").pop().replace(/_/g, " ");
  const parts = Object.entries(args || {}).map(([k, v]) => `${k}: ${display(v)}`);
  return parts.length ? `${last} (${parts.join(", ")})` : last;
}

function display(value) {
  if (value === null || value === undefined) return "—";
  // Japanese lists take the ideographic comma; a pair inside a list reads "whose: what"
  // (Blood Rage's revealed cards are [seat, card] pairs).
  if (Array.isArray(value)) {
    const pair = (v) => (Array.isArray(v) && v.length === 2 ? `${display(v[0])}${current === "ja" ? "：" : ": "}${display(v[1])}` : display(v));
    return value.map(pair).join(current === "ja" ? "、" : ", ");
  }
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k}: ${display(v)}`).join(", ");
  return signed(value);
}

// A number as the pages print it: a negative one with the minus sign (U+2212), as the
// boards draw theirs ("−7"), never the hyphen String() gives ("-15").
export function signed(value) {
  return typeof value === "number" && value < 0 ? `\u2212${-value}` : String(value);
}

function safeStorage(op, key, value) {
  try {
    if (op === "get") return localStorage.getItem(key);
    localStorage.setItem(key, value);
  } catch {
    return null; // private browsing may refuse storage; the choice then lasts the page
  }
  return null;
}
