// The table's heading: the game, its status, whether the reader only watches, the link's
// state, the rules, the replay and the rematch once it is over; and the banner over the
// page while the socket reconnects.
import { clear, h } from "../dom.js";
import { t } from "../i18n.js";
import { session } from "../session.js";
import { gameLabel } from "../pages/lobby.js";

export function headPanel(page) {
  const { id, store, act } = page;
  const s = store.state;
  const element = h("div", { class: "table-head" });

  function draw() {
    if (!s.table) {
      clear(element, h("h1", {}, t("table.title")), s.error && h("p", { class: "message error", role: "alert" }, s.error),
        s.privateInvite ? h("button", { type: "button", class: "primary", id: "join-private", onclick: act.joinPrivate }, t("lobby.join")) : null);
      return;
    }
    const g = store.game();
    const watching = s.seat === null || s.seat === undefined;
    clear(element,
      h("h1", {}, gameLabel(g)),
      h("span", { class: "tag", id: "table-status", "data-status": s.table.status }, t(`status.${s.table.status}`)),
      watching && s.table.status !== "open" ? h("span", { class: "tag", id: "spectating" }, t("table.spectating")) : null,
      h("span", { class: "small muted", id: "live-status", "data-link": s.link, title: t("link.help") }, t(`link.${s.link}`)),
      h("a", { href: `#/help/${g.id}`, class: "small" }, t("nav.rules")),
      s.table.status === "over" ? h("a", { href: `#/replay/${id}`, class: "small", id: "replay-link" }, t("lobby.replay")) : null,
      rematchControl(),
      s.error && h("p", { class: "message error", role: "alert" }, s.error));
  }

  // Over, a player may set the game up again with the same company (or follow the one who
  // did); a spectator may follow them there.
  function rematchControl() {
    if (!s.table || s.table.status !== "over") return null;
    const next = s.table.rematch;
    const me = session.user && session.user.username;
    const played = Boolean(me && store.seats().some((p) => p.username === me));
    if (!played) return next ? h("a", { href: `#/table/${next}`, class: "small", id: "rematch-link" }, t("table.rematch_watch")) : null;
    return h("button", { type: "button", class: "primary", id: "rematch", onclick: act.askRematch },
      t(next ? "table.rematch_join" : "table.rematch"));
  }

  return { element, draw };
}

// The page's banner (outside the table's own elements) says when the link is down.
export function drawBanner(s) {
  const banner = document.getElementById("banner");
  if (!banner) return;
  banner.hidden = s.link !== "reconnecting";
  banner.textContent = s.link === "reconnecting" ? t("table.reconnecting") : "";
}

export function hideBanner() {
  const banner = document.getElementById("banner");
  if (banner) banner.hidden = true;
}
