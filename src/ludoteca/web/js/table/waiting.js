// The waiting room before the start: the seats (sit down, add a bot, remove a player),
// the link to share, and the creator's start button.
import * as api from "../api.js";
import { clear, h } from "../dom.js";
import { seatName } from "../gamemodule.js";
import { t } from "../i18n.js";
import { seatRating } from "../ratings.js";
import { seatBadge } from "../seats.js";
import { session } from "../session.js";
import { addBot } from "../pages/lobby.js";

export function waitingRoom(page) {
  const { id, store, act } = page;
  const s = store.state;
  const element = h("section", { class: "panel", id: "waiting", hidden: true });

  // The buttons are made once each and put back on every drawing: the room is drawn again
  // on every update (a seat taken, a rating fetched), and a button made anew under the
  // reader's finger would swallow the tap or the click that was on its way to the old one.
  const buttons = new Map();
  function button(key, attrs, label) {
    let made = buttons.get(key);
    if (!made) {
      made = h("button", { type: "button", ...attrs, onclick: undefined });
      made.addEventListener("click", () => attrs.onclick());
      buttons.set(key, made);
    }
    made.textContent = label;
    made.disabled = Boolean(attrs.disabled);
    return made;
  }

  function draw() {
    const open = s.table && s.table.status === "open";
    element.hidden = !open;
    if (!open) return;
    const seats = store.seats();
    const me = session.user && session.user.username;
    const seated = seats.some((x) => x.username && x.username === me);
    const full = seats.every((x) => x.username || x.bot);
    const creator = store.isCreator();
    clear(element,
      h("h2", {}, t("waiting.title")),
      h("p", { class: "muted small" }, t("waiting.share"), " ", h("code", {}, location.href)),
      h("ul", { class: "seats", style: { listStyle: "none", padding: 0 } }, seats.map((x) => h("li", { class: "row", dataset: { seat: x.seat } },
        seatBadge(x.seat), h("strong", {}, seatName(seats, x.seat)),
        x.username && !x.bot ? seatRating(x.username, s.table.game, draw) : null,
        x.username && x.username === me ? h("span", { class: "muted" }, `(${t("table.you")})`) : null,
        !x.username && !x.bot && !seated ? button(`sit-${x.seat}`, { onclick: () => act.seatAction(() => api.join(id, x.seat)) }, t("waiting.sit")) : null,
        !x.username && !x.bot && creator ? button(`bot-${x.seat}`, { class: "add-bot", onclick: () => act.seatAction(() => addBot(id, x.seat, "easy")) }, t("waiting.add_bot")) : null,
        creator && (x.bot || (x.username && x.username !== me)) ? button(`kick-${x.seat}`, { onclick: () => act.seatAction(() => api.kick(id, x.seat)) }, t("waiting.remove")) : null))),
      s.notice && h("p", { class: "message error", role: "alert" }, s.notice),
      h("div", { class: "row" },
        creator ? button("start", { class: "primary", id: "start", disabled: !full, onclick: () => act.seatAction(() => api.start(id)) }, t("waiting.start")) : null,
        !creator && !full ? h("span", { class: "muted" }, t("waiting.for_players")) : null,
        creator && full ? null : creator ? h("span", { class: "muted small" }, t("waiting.fill_seats")) : null,
        seated ? button("leave", { id: "leave", onclick: () => act.seatAction(() => api.leave(id)) }, t("waiting.leave")) : null));
  }

  return { element, draw };
}
