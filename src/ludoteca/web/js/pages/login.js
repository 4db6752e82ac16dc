// Sign up, log in, or play as a guest.
import * as api from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { setUser } from "../session.js";

export function mount(main) {
  const message = h("p", { class: "message error", role: "alert", hidden: true });

  function fail(e) {
    message.hidden = false;
    message.textContent = e.code && e.code !== "http_error" && t(`errors.${e.code}`) !== e.code.replace(/_/g, " ") ? t(`errors.${e.code}`) : e.message;
  }

  function form(id, title, submitLabel, action, autocomplete) {
    const user = h("input", { id: `${id}-username`, name: "username", required: true, autocomplete: "username", minlength: 3, maxlength: 32 });
    const pass = h("input", { id: `${id}-password`, name: "password", type: "password", required: true, autocomplete, minlength: 8 });
    const el = h("form", { class: "panel", id: `${id}-form` },
      h("h2", {}, title),
      h("div", { class: "field" }, h("label", { for: user.id }, t("auth.username")), user),
      h("div", { class: "field" }, h("label", { for: pass.id }, t("auth.password")), pass),
      h("button", { type: "submit", class: "primary" }, submitLabel));
    el.addEventListener("submit", async (e) => {
      e.preventDefault();
      message.hidden = true;
      try {
        await action(user.value.trim(), pass.value);
        setUser(await api.me());
        location.hash = "#/";
      } catch (err) {
        fail(err);
      }
    });
    return el;
  }

  main.append(h("div", { class: "grid", style: { maxWidth: "460px", margin: "0 auto" } },
    h("h1", {}, t("auth.title")),
    message,
    form("login", t("auth.log_in"), t("auth.log_in"), (u, p) => api.logIn(u, p), "current-password"),
    h("p", {}, h("a", { href: "#/reset", id: "forgot-link" }, t("account.forgot"))),
    form("signup", t("auth.sign_up"), t("auth.sign_up"), async (u, p) => {
      await api.signUp(u, p);
      await api.logIn(u, p);
    }, "new-password"),
    h("section", { class: "panel" },
      h("p", {}, t("auth.guest_hint")),
      h("button", { type: "button", id: "guest", onclick: async () => {
        try {
          await api.guest();
          setUser(await api.me());
          location.hash = "#/";
        } catch (err) {
          fail(err);
        }
      } }, t("auth.play_as_guest")))));
  return {};
}
