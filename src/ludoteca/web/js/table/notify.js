// Telling the reader it is their turn: the page's title, and (when they allowed it) a
// system notification while the page is hidden.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { gameLabel } from "../pages/lobby.js";

const SETTING = "ludoteca.notify";

// The checkbox that turns the notifications on (for a player during play), or null.
export function notifyToggle(s) {
  if (!("Notification" in window) || s.yourSeats.length === 0 || s.table.status !== "playing") return null;
  return h("label", { class: "small" },
    h("input", {
      type: "checkbox", id: "notify", checked: localStorage.getItem(SETTING) === "1" && Notification.permission === "granted",
      onchange: async (e) => {
        if (e.target.checked && Notification.permission !== "granted") {
          e.target.checked = (await Notification.requestPermission()) === "granted";
        }
        localStorage.setItem(SETTING, e.target.checked ? "1" : "0");
      },
    }), t("table.notify"));
}

// Returns `notifyTurn()`, called after each drawing: it says so when the turn has just
// become the reader's.
export function turnNotifier(page) {
  const { id, store } = page;
  const s = store.state;
  let wasMyTurn = false;
  return function notifyTurn() {
    const mine = store.readerDecides() && s.table.status === "playing";
    document.title = mine ? `▶ ${t("table.your_turn_title")} · Ludoteca` : `${gameLabel(store.game())} · Ludoteca`;
    if (mine && !wasMyTurn && document.hidden && localStorage.getItem(SETTING) === "1"
        && "Notification" in window && Notification.permission === "granted") {
      new Notification("Ludoteca", { body: t("table.your_turn_title"), tag: `ludoteca-${id}` });
    }
    wasMyTurn = mine;
  };
}
