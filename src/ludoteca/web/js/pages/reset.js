// Password reset (#/reset and #/reset/<token>): ask for a link by email, then choose a new
// password with it. The server answers the request the same whether an account has the
// address or not, so this page says the same either way.
import * as api from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { errorText } from "./account.js";

export function mount(main, params = {}) {
  const status = h("p", { class: "message", id: "reset-message", role: "status", hidden: true });
  const say = (text, error = false) => {
    status.hidden = false;
    status.className = `message ${error ? "error" : "ok"}`;
    status.textContent = text;
  };
  let form;
  if (params.token) {
    const password = h("input", { id: "reset-password", type: "password", autocomplete: "new-password", required: true, minlength: 8, maxlength: 256 });
    form = h("form", { class: "panel", id: "reset-form" },
      h("div", { class: "field" }, h("label", { for: password.id }, t("account.reset_new_password")), password),
      h("button", { type: "submit", class: "primary" }, t("account.reset_save")));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        await api.resetPassword(params.token, password.value);
        password.value = "";
        form.hidden = true;
        say(t("account.reset_done"));
        status.append(" ", h("a", { href: "#/login", id: "reset-login" }, t("auth.log_in")));
      } catch (err) {
        say(errorText(err), true);
      }
    });
  } else {
    const email = h("input", { id: "reset-email", type: "email", autocomplete: "email", required: true, maxlength: 254 });
    form = h("form", { class: "panel", id: "reset-request" },
      h("p", {}, t("account.reset_intro")),
      h("div", { class: "field" }, h("label", { for: email.id }, t("account.reset_email")), email),
      h("button", { type: "submit", class: "primary" }, t("account.reset_send")));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        await api.askReset(email.value.trim());
        say(t("account.reset_sent"));
      } catch (err) {
        say(errorText(err), true);
      }
    });
  }
  main.append(h("div", { class: "grid account-page", style: { maxWidth: "460px", margin: "0 auto" } },
    h("h1", {}, t("account.reset_title")), status, form));
  return {};
}
