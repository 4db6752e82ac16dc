// Boot and routing. Pages live behind the hash (#/table/abc), so the server only has
// to serve index.html and the static files, and every page has a link to share.
import * as api from "./api.js";
import { myGamesLink, startSocial } from "./social.js";
import { clear, h } from "./dom.js";
import { LANGUAGES, language, preferredLanguage, setLanguage, t } from "./i18n.js";
import { session, setUser } from "./session.js";

const routes = [
  [/^\/?$/, () => import("./pages/lobby.js")],
  [/^\/table\/([^/]+)$/, () => import("./pages/table.js"), ["id"]],
  [/^\/replay\/([^/]+)$/, () => import("./pages/replay.js"), ["id"]],
  [/^\/player\/([^/]+)$/, () => import("./pages/profile.js"), ["name"]],
  [/^\/leaderboard(?:\/([^/]+))?$/, () => import("./pages/leaderboard.js"), ["game"]],
  [/^\/help(?:\/([^/]+))?$/, () => import("./pages/help.js"), ["game"]],
  [/^\/login$/, () => import("./pages/login.js")],
  [/^\/my$/, () => import("./pages/mygames.js")],
  [/^\/tournaments$/, () => import("./pages/tournaments.js")],
  [/^\/tournament\/([^/]+)$/, () => import("./pages/tournament.js"), ["id"]],
  [/^\/moderation$/, () => import("./pages/moderation.js")],
  [/^\/account(?:\/verify\/([^/]+))?$/, () => import("./pages/account.js"), ["token"]],
  [/^\/reset(?:\/([^/]+))?$/, () => import("./pages/reset.js"), ["token"]],
];

let page = null; // {unmount?, relabel?} of the page on screen
let routeSerial = 0;
let routing = Promise.resolve();

// One page mounts at a time. Two mounts in flight (an address change, or a change of
// language, while a page was still loading) let the older one's unmount run after the
// newer one had mounted, and it undid the page-wide things the newer one had set up.
function route(event) {
  const serial = ++routeSerial;
  const run = routing.then(() => (serial === routeSerial ? routeNow(event, serial) : undefined));
  routing = run.catch(() => {});
  return run;
}

async function routeNow(event, serial) {
  const moved = Boolean(event && event.type === "hashchange");
  const path = decodeURIComponent(location.hash.replace(/^#/, "").split("?")[0]) || "/";
  if (page && page.unmount) page.unmount();
  page = null;
  const main = document.getElementById("main");
  const found = routes.find(([re]) => re.test(path));
  if (!found) {
    clear(main, h("section", { class: "panel" }, h("h1", {}, t("nav.not_found")), h("a", { href: "#/" }, t("nav.lobby"))));
    return;
  }
  const [re, load, names = []] = found;
  const values = path.match(re).slice(1);
  const params = Object.fromEntries(names.map((n, i) => [n, values[i]]));
  const module = await load();
  if (serial !== routeSerial) return; // the reader already went elsewhere
  // Each page draws into its own box: a slow page that finishes loading after the reader
  // left draws into a box no longer on screen, never over the next page.
  const box = document.createElement("div");
  clear(main, box);
  const mounted = (await module.mount(box, params)) || {};
  if (serial !== routeSerial) {
    if (mounted.unmount) mounted.unmount();
    return;
  }
  page = mounted;
  renderHeader();
  // Keyboard and screen-reader users start reading the new page, not the old link.
  if (moved) main.focus({ preventScroll: true });
}

export function renderHeader() {
  const top = document.getElementById("top");
  // index.html's own words (the skip link) are English until the strings have loaded.
  const skip = document.querySelector("a.skip");
  if (skip) skip.textContent = t("nav.skip");
  const user = session.user;
  const langSelect = h("select", {
    id: "language",
    "aria-label": t("nav.language"),
    onchange: (e) => setLanguage(e.target.value),
  }, Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === language() }, name)));
  const account = user
    ? [
        h("a", { href: `#/player/${encodeURIComponent(user.username)}`, class: "user" }, user.guest ? `${user.username} (${t("auth.guest")})` : user.username),
        user.guest ? null : h("a", { href: "#/account", id: "account-link" }, t("account.nav")),
        h("button", { type: "button", class: "link", id: "logout", onclick: logOut }, t("auth.log_out")),
      ]
    : [h("a", { href: "#/login", id: "login-link" }, t("auth.log_in"))];
  clear(top,
    h("a", { href: "#/", class: "brand" }, h("img", { src: "/img/icon.svg", alt: "", width: 28, height: 28 }), "Ludoteca"),
    h("nav", { "aria-label": t("nav.main") },
      h("a", { href: "#/" }, t("nav.lobby")),
      myGamesLink(), // with the badge: tables waiting for my decision (social.js)
      h("a", { href: "#/leaderboard" }, t("nav.leaderboard")),
      h("a", { href: "#/tournaments", id: "tournaments-link" }, t("tournaments.nav")),
      h("a", { href: "#/help" }, t("nav.help")),
      session.role ? h("a", { href: "#/moderation", id: "moderation-link" }, t("nav.moderation")) : null,
      // AGPL section 13: whoever plays here can take the code this server runs.
      h("a", { href: "/api/source", download: "", id: "source-link", title: "GNU AGPL-3.0" }, t("nav.source"))),
    h("div", { class: "account" }, account, langSelect));
}

async function logOut() {
  try {
    await api.logOut();
  } catch {
    // already signed out on the server: forget it here too
  }
  setUser(null);
  if (location.hash === "#/" || location.hash === "") route();
  else location.hash = "#/";
}

let booted = false;

// Emails and push messages are written in the account's language: the page's.
function syncLanguage() {
  if (session.user && !session.user.guest) api.accountLanguage(language()).catch(() => {});
}

// Before the boot has drawn its first page, a change of address waits for it: the boot's
// own route reads the address then (routing both drew the page twice, and the second
// drawing emptied a form the reader had started to fill).
window.addEventListener("hashchange", (event) => { if (booted) route(event); });
window.addEventListener("ludoteca:language", () => {
  // Boot draws the header and the first page itself; drawing them here too would mount
  // the first page twice and wipe what the reader has already typed into it.
  if (!booted) return;
  document.title = "Ludoteca";
  syncLanguage();
  renderHeader();
  if (page && page.relabel) page.relabel();
  else route();
});
window.addEventListener("ludoteca:session", renderHeader);
window.addEventListener("ludoteca:session", startSocial); // the personal live socket
window.addEventListener("ludoteca:session", syncLanguage);

async function boot() {
  await setLanguage(preferredLanguage(), { remember: false });
  try {
    setUser(await api.me());
  } catch {
    setUser(null);
  }
  renderHeader();
  booted = true;
  await route();
}

boot();
