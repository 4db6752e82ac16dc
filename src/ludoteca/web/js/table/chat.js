// The table's chat: the recent lines and a form to send one over the socket. The input
// keeps a half-typed message across updates (the panel is built once).
import { clear, h } from "../dom.js";
import { t } from "../i18n.js";
import { session } from "../session.js";

export function chatPanel(page) {
  const { store, act } = page;
  const s = store.state;
  // A scrolling list takes the focus, so the keyboard can scroll it too.
  const lines = h("ul", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", tabindex: "0", "aria-labelledby": "chat-h" });
  const input = h("input", { type: "text", id: "chat-input", maxlength: 500, autocomplete: "off" });
  const send = h("button", { type: "submit", id: "chat-send" });
  const form = h("form", {}, input, send);
  const heading = h("h2", { id: "chat-h" });
  const element = h("section", { class: "panel chat" }, heading, lines, form);

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

  function draw() {
    heading.textContent = t("table.chat");
    send.textContent = t("table.send");
    input.setAttribute("aria-label", t("table.chat_message"));
    input.placeholder = t("table.chat_placeholder");
    input.disabled = !session.user;
    clear(lines, s.chat.map((c) => h("li", {}, h("strong", {}, c.username, ":"), h("span", {}, c.text))));
    lines.scrollTop = lines.scrollHeight;
  }

  return { element, draw };
}
