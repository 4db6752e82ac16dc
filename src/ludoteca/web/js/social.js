// Play now, invitations, follows and my games, around the tables on every page: the
// personal live socket (/api/me/live: the header's badge of tables waiting for me,
// invitations, "matched: go to table X", friends online), the invitations box, and their
// API calls (server/playnow/routes.py, server/social/routes.py).
import { ApiError, request } from "./api.js";
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { Live } from "./live.js";
import { session } from "./session.js";

const enc = encodeURIComponent;

// -- the API ---------------------------------------------------------------------------
export const playNow = (body) => request("POST", "/api/playnow", body);
export const playNowStatus = () => request("GET", "/api/playnow");
export const playNowCancel = () => request("DELETE", "/api/playnow");
export const invite = (tableId, username, seat) =>
  request("POST", `/api/tables/${enc(tableId)}/invitations`, seat == null ? { username } : { username, seat });
export const invitations = () => request("GET", "/api/invitations");
export const accept = (id) => request("POST", `/api/invitations/${enc(id)}/accept`, {});
export const decline = (id) => request("POST", `/api/invitations/${enc(id)}/decline`, {});
export const follows = () => request("GET", "/api/follows");
export const follow = (name) => request("PUT", `/api/follows/${enc(name)}`);
export const unfollow = (name) => request("DELETE", `/api/follows/${enc(name)}`);
export const myTables = () => request("GET", "/api/me/tables");

// -- what the personal socket says -----------------------------------------------------
export const social = { badge: 0, friendsOnline: [], received: [] };

let live = null;
let liveUser = null;

function changed() {
  window.dispatchEvent(new CustomEvent("ludoteca:social"));
  drawBadge();
  drawInvitations();
}

export async function refreshInvitations() {
  if (!session.user) return;
  try {
    social.received = (await invitations()).received || [];
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
  }
  changed();
}

function onMessage(m) {
  if (m.type === "hello") {
    social.badge = m.badge || 0;
    social.friendsOnline = m.friends_online || [];
  } else if (m.type === "badge") {
    social.badge = m.count || 0;
  } else if (m.type === "friends") {
    social.friendsOnline = m.online || [];
  } else if (m.type === "invitations" || (m.type === "alert" && m.kind === "invitation")) {
    refreshInvitations();
    return;
  } else if (m.type === "alert" && m.kind === "matched" && m.table) {
    // The player asked to be seated: Play now takes them to the table (as lichess does).
    location.hash = `#/table/${m.table}`;
  } else {
    return;
  }
  changed();
}

// (Re)opens the socket for whoever is signed in now; called on every session change.
export function startSocial() {
  const user = session.user;
  const name = user ? user.username : null;
  if (name === liveUser) return;
  if (live) live.stop();
  live = null;
  liveUser = name;
  social.badge = 0;
  social.friendsOnline = [];
  social.received = [];
  changed();
  if (!user) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  live = new Live(() => `${scheme}://${location.host}/api/me/live`, { onMessage });
  live.start();
  refreshInvitations();
}

// -- the header's link and badge -------------------------------------------------------
export function myGamesLink() {
  if (!session.user) return null;
  return h("a", { href: "#/my", id: "my-link" }, t("arena.my_games"),
    h("span", { class: "count-badge", id: "my-badge", hidden: !social.badge,
      "aria-label": t("arena.badge_label", { n: social.badge }) }, String(social.badge)));
}

function drawBadge() {
  const badge = document.getElementById("my-badge");
  if (!badge) return;
  badge.hidden = !social.badge;
  badge.textContent = String(social.badge);
  badge.setAttribute("aria-label", t("arena.badge_label", { n: social.badge }));
}

// -- invitations received, on every page -------------------------------------------------
function drawInvitations() {
  let box = document.getElementById("invitations");
  if (!social.received.length) {
    if (box) box.remove();
    return;
  }
  if (!box) {
    box = h("aside", { id: "invitations", class: "invitations panel", role: "region", "aria-live": "polite",
      "aria-label": t("arena.invitations") });
    document.body.append(box);
  }
  clear(box, h("h2", {}, t("arena.invitations")),
    social.received.map((inv) => h("div", { class: "invitation", dataset: { invitation: inv.id } },
      h("p", {}, t("arena.invited_by", { name: inv.inviter, game: inv.game })),
      h("div", { class: "row" },
        h("button", { type: "button", class: "primary accept", onclick: () => answer(inv, true) }, t("arena.accept")),
        h("button", { type: "button", class: "decline", onclick: () => answer(inv, false) }, t("arena.decline"))))));
}

async function answer(inv, yes) {
  try {
    if (yes) {
      await accept(inv.id);
      location.hash = `#/table/${inv.table}`;
    } else {
      await decline(inv.id);
    }
  } catch (e) {
    window.alert(e.message);
  }
  refreshInvitations();
}

window.addEventListener("ludoteca:language", () => drawInvitations());

// "1:05" or "3 h 20 min" for a time left in milliseconds.
export function timeLeft(ms) {
  if (ms == null) return "";
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  const hours = Math.floor(s / 3600);
  return t("arena.hours_minutes", { h: hours, m: Math.floor((s % 3600) / 60) });
}
