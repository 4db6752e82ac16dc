// The table's chat: the recent lines and a form to send one over the socket. The input
// keeps a half-typed message across updates (the panel is built once). Below it, one
// "Report…" control for the table or one of its lines (a button per line would make every
// line a finger tall on a phone).
import * as api from "../api.js";
import { clear, h } from "../dom.js";
import { errorText } from "../gamemodule.js";
import { t } from "../i18n.js";
import { session } from "../session.js";

const SHOWN = 60; // characters of a line in the report's list

export function chatPanel(page) {
  const { store, act } = page;
  const s = store.state;
  // A scrolling list takes the focus, so the keyboard can scroll it too.
  const lines = h("ul", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", tabindex: "0", "aria-labelledby": "chat-h" });
  const input = h("input", { type: "text", id: "chat-input", maxlength: 500, autocomplete: "off" });
  const send = h("button", { type: "submit", id: "chat-send" });
  const form = h("form", {}, input, send);
  const heading = h("h2", { id: "chat-h" });
  const report = reportForm(page);
  const element = h("section", { class: "panel chat" }, heading, lines, form, report.element);

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (page.live.send({ type: "chat", text })) {
      input.value = "";
    } else {
      act.showRefusal(t("table.chat_offline"));
    }
  });

  // The table draws every panel on every update; the lines are rebuilt, and scrolled to
  // the newest, only when they changed: reading scrollHeight made the browser lay out the
  // whole page (the board just redrawn) once more per update.
  let shown = null;
  function draw() {
    heading.textContent = t("table.chat");
    send.textContent = t("table.send");
    input.setAttribute("aria-label", t("table.chat_message"));
    input.placeholder = t("table.chat_placeholder");
    input.disabled = !session.user;
    const last = s.chat.length ? s.chat[s.chat.length - 1] : null;
    const now = `${s.chat.length}:${last ? last.id : ""}`;
    if (now !== shown) {
      shown = now;
      clear(lines, s.chat.map((c) => h("li", {}, h("strong", {}, c.username, ":"), h("span", { class: "user-text" }, c.text))));
      lines.scrollTop = lines.scrollHeight;
    }
    report.draw();
  }

  return { element, draw };
}

function reportForm(page) {
  const s = page.store.state;
  const open = h("button", { type: "button", id: "chat-report" });
  const what = h("select", { id: "report-what" });
  const reason = h("input", { type: "text", id: "report-why", maxlength: 500, required: true, autocomplete: "off" });
  const send = h("button", { type: "submit", class: "primary", id: "report-send" });
  const cancel = h("button", { type: "button" });
  const said = h("p", { class: "message", role: "status", hidden: true });
  const form = h("form", { id: "chat-report-form", hidden: true }, what, reason, h("div", { class: "row" }, send, cancel));
  const element = h("div", { class: "chat-report" }, open, form, said);
  const tell = (text, error = false) => {
    said.hidden = false;
    said.className = `message${error ? " error" : ""}`;
    said.textContent = text;
  };

  open.addEventListener("click", () => {
    form.hidden = false;
    said.hidden = true;
    fill();
    reason.focus();
  });
  cancel.addEventListener("click", () => { form.hidden = true; });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = reason.value.trim();
    if (!text) return;
    const body = what.value === "table" ? { kind: "table", table: page.store.id, reason: text }
      : { kind: "chat", chat: Number(what.value), reason: text };
    try {
      await api.report(body);
      form.hidden = true;
      reason.value = "";
      tell(t("profile.report_sent"));
    } catch (err) {
      tell(errorText("", err), true);
    }
  });

  // The table, then the others' lines, newest first.
  function fill() {
    const me = session.user && session.user.username;
    const others = s.chat.filter((c) => c.username !== me && Number.isInteger(c.id)).reverse();
    clear(what, [h("option", { value: "table" }, t("table.report_this_table")),
      ...others.map((c) => h("option", { value: String(c.id), class: "user-text" },
        `${c.username}: ${c.text.length > SHOWN ? `${c.text.slice(0, SHOWN)}…` : c.text}`))]);
  }

  function draw() {
    element.hidden = !session.user;
    open.textContent = t("table.report");
    what.setAttribute("aria-label", t("table.report_what"));
    reason.setAttribute("aria-label", t("table.report_reason"));
    reason.placeholder = t("table.report_reason");
    send.textContent = t("profile.send");
    cancel.textContent = t("profile.cancel");
  }

  return { element, draw };
}
