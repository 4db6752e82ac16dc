// The one module that knows the server's HTTP paths and how it answers.
// Every call resolves to parsed JSON (a game's rules: Markdown text) or throws an
// ApiError carrying the server's {code, message}, so pages can show a refusal as it came.

const CSRF_KEY = "ludoteca.csrf";

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.code = (body && body.code) || "http_error";
    this.body = body || {};
  }
}

// Cookie sessions must echo their CSRF token on unsafe methods; the server hands it
// out at log-in and with GET /api/sessions, and it is kept for the tab's life.
let csrf = sessionStorage.getItem(CSRF_KEY) || "";

export function setCsrf(token) {
  csrf = token || "";
  if (csrf) sessionStorage.setItem(CSRF_KEY, csrf);
  else sessionStorage.removeItem(CSRF_KEY);
}

export async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && csrf) headers["X-CSRF-Token"] = csrf;
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, { code: "offline", message: "the server cannot be reached" });
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { message: text };
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

const get = (path) => request("GET", path);
const post = (path, body = {}) => request("POST", path, body);
const enc = encodeURIComponent;

function remember(session) {
  if (session && session.csrf) setCsrf(session.csrf);
  return session;
}

// -- accounts ---------------------------------------------------------------------
// Who is signed in (null: nobody). /api/sessions/current answers 200 either way: a
// signed-out page load logs no 401 in the console.
export const me = () => get("/api/sessions/current").then((s) => (s && s.user ? remember(s) : null));
export const signUp = (username, password) => post("/api/accounts", { username, password });
export const logIn = (username, password) => post("/api/sessions", { username, password }).then(remember);
export const guest = () => post("/api/sessions/guest").then(remember);
export const logOut = () => request("DELETE", "/api/sessions").finally(() => setCsrf(""));

// -- games and lobby --------------------------------------------------------------
export const health = () => get("/api/health");
export const games = () => get("/api/games");
export const gameStringsUrl = (gameId, lang) => `/api/games/${enc(gameId)}/i18n/${enc(lang)}`;
// A game's rules as Markdown text (the route answers text, not JSON); null if it has none.
export async function rules(gameId) {
  let res;
  try {
    res = await fetch(`/api/games/${enc(gameId)}/rules`, { headers: { Accept: "text/markdown, text/plain" } });
  } catch {
    throw new ApiError(0, { code: "offline", message: "the server cannot be reached" });
  }
  return res.ok ? res.text() : null;
}
export const tables = (query = {}) => get(`/api/tables?${new URLSearchParams(query)}`);
export const createTable = (spec) => post("/api/tables", spec);
export const table = (id) => get(`/api/tables/${enc(id)}`);
export const join = (id, seat) => post(`/api/tables/${enc(id)}/join`, seat === undefined ? {} : { seat });
export const leave = (id) => post(`/api/tables/${enc(id)}/leave`);
export const resign = (id) => post(`/api/tables/${enc(id)}/resign`);
export const addBot = (id, seat, bot = "random") => post(`/api/tables/${enc(id)}/bots`, { seat, bot });
export const kick = (id, seat) => post(`/api/tables/${enc(id)}/kick`, { seat });
export const start = (id) => post(`/api/tables/${enc(id)}/start`);
export const rematch = (id) => post(`/api/tables/${enc(id)}/rematch`);

// -- playing ----------------------------------------------------------------------
export const move = (id, version, mv, seat, moveId = newMoveId()) =>
  post(`/api/tables/${enc(id)}/moves`, { version, move: mv, id: moveId, ...(seat === undefined ? {} : { seat }) });
export const undo = (id, version) => post(`/api/tables/${enc(id)}/undo`, { version });
export const chatRecent = (id) => get(`/api/tables/${enc(id)}/chat`);
export const log = (id) => get(`/api/tables/${enc(id)}/log`);
export const record = (id) => get(`/api/tables/${enc(id)}/record`);
// The replay as its first frame plus changes (js/changes.js puts the views back together).
export const replay = (id, seat) => get(`/api/tables/${enc(id)}/replay?changes=true${seat === null ? "" : `&seat=${enc(seat)}`}`);
export const staticPart = (id, key) => get(`/api/tables/${enc(id)}/static/${enc(key)}`);
export const liveUrl = (id) => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/tables/${enc(id)}/live`;

// -- players ----------------------------------------------------------------------
export const player = (name) => get(`/api/players/${enc(name)}`);
export const leaderboard = (gameId) => get(`/api/games/${enc(gameId)}/leaderboard`);

// -- blocking, reporting and moderation (server/moderation/routes.py) ------------------
export const blocks = () => get("/api/blocks");
export const block = (name) => request("PUT", `/api/blocks/${enc(name)}`);
export const unblock = (name) => request("DELETE", `/api/blocks/${enc(name)}`);
export const report = (body) => post("/api/reports", body);
export const modReports = (status) => get(`/api/moderation/reports?status=${enc(status)}`);
export const modResolve = (id, note) => post(`/api/moderation/reports/${enc(id)}/resolve`, note ? { note } : {});
export const modUser = (name) => get(`/api/moderation/users/${enc(name)}`);
export const modSanction = (name, what, minutes, reason) =>
  post(`/api/moderation/users/${enc(name)}/${what}`, { ...(minutes ? { minutes } : {}), ...(reason ? { reason } : {}) });
export const modLift = (name, what) => post(`/api/moderation/users/${enc(name)}/un${what}`);
export const modAbort = (tableId, reason) => post(`/api/moderation/tables/${enc(tableId)}/abort`, reason ? { reason } : {});
export const modRemoveChat = (id) => post(`/api/moderation/chat/${enc(id)}/remove`);
export const modAudit = () => get("/api/moderation/audit");

// -- the account page and alerts (server/accounts/routes.py) -------------------------------
export const account = () => get("/api/account");
export const accountLanguage = (language) => request("PUT", "/api/account/language", { language });
export const setEmail = (email) => request("PUT", "/api/account/email", { email });
export const removeEmail = () => request("DELETE", "/api/account/email");
export const resendEmail = () => post("/api/account/email/resend");
export const verifyEmail = (token) => post("/api/account/email/verify", { token });
export const changePassword = (current, next) => request("PUT", "/api/account/password", { current, new: next });
export const askReset = (email) => post("/api/account/reset", { email });
export const resetPassword = (token, password) => post("/api/account/reset/confirm", { token, password });
export const accountSessions = () => get("/api/account/sessions");
export const endSession = (id) => request("DELETE", `/api/account/sessions/${enc(id)}`);
export const endAllSessions = () => request("DELETE", "/api/account/sessions").finally(() => setCsrf(""));
export const deleteAccount = (password) => post("/api/account/delete", { password });
export const alertPreferences = () => get("/api/alerts/preferences");
export const setAlertPreferences = (body) => request("PUT", "/api/alerts/preferences", body);
export const pushKey = () => get("/api/push/key");
export const pushSubscribe = (subscription) => post("/api/push/subscriptions", subscription);
export const pushUnsubscribe = (endpoint) => post("/api/push/unsubscribe", { endpoint });

// A retried request must carry the same id, so each move gets one when first sent.
export function newMoveId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}
