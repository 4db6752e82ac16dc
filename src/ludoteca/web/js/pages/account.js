// The account page (#/account): email address and its confirmation, password change,
// alert preferences (push and email, per kind) with this device's push switch, the
// sessions signed in, and deleting the account. #/account/verify/<token> is the link of
// the confirmation email. The server's rules are in server/accounts/service.py.
import * as api from "../api.js";
import { clear, h } from "../dom.js";
import { language, t } from "../i18n.js";
import { session, setUser } from "../session.js";

const KINDS = ["your_turn", "invitation", "matched", "tournament", "review_ready"];
const CHANNELS = ["push", "email"];

export function errorText(e) {
  if (e && e.code && e.code !== "http_error") {
    const own = t(`account.errors.${e.code}`);
    if (own !== e.code.replace(/_/g, " ")) return own;
    const shared = t(`errors.${e.code}`);
    if (shared !== e.code.replace(/_/g, " ")) return shared;
  }
  return (e && e.message) || t("account.errors.unknown");
}

function delayLabel(minutes) {
  return minutes % 60 === 0 ? t("account.hours", { n: minutes / 60 }) : t("account.minutes", { n: minutes });
}

function when(iso) {
  return new Date(iso).toLocaleString(language());
}

// The VAPID key as pushManager.subscribe takes it.
function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function currentSubscription() {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

export async function mount(main, params = {}) {
  const root = h("div", { class: "grid account-page", id: "account-page" });
  main.append(root);
  const status = h("p", { class: "message", id: "account-message", role: "status", hidden: true });
  const say = (text, error = false) => {
    status.hidden = false;
    status.className = `message ${error ? "error" : "ok"}`;
    status.textContent = text;
  };
  const attempt = async (action, done) => {
    try {
      const out = await action();
      if (done) say(done);
      return out ?? true;
    } catch (e) {
      say(errorText(e), true);
      return null;
    }
  };

  root.append(h("h1", {}, t("account.title")), status);

  if (params.token) {
    // The confirmation link works signed in or not.
    await attempt(() => api.verifyEmail(params.token), t("account.verified_ok"));
  }
  if (!session.user) {
    root.append(h("section", { class: "panel" }, h("p", {}, t("account.sign_in_first")),
      h("a", { href: "#/login", class: "button primary" }, t("auth.log_in"))));
    return {};
  }
  if (session.user.guest) {
    root.append(h("section", { class: "panel" }, h("p", { id: "account-guest" }, t("account.guest_note")),
      h("a", { href: "#/login", class: "button primary" }, t("auth.sign_up"))));
    return {};
  }

  let info;
  try {
    info = await api.account();
  } catch (e) {
    say(errorText(e), true);
    return {};
  }
  api.accountLanguage(language()).catch(() => {});

  // -- email --------------------------------------------------------------------------
  const emailBox = h("section", { class: "panel", id: "account-email", "aria-labelledby": "email-title" });
  function drawEmail() {
    const input = h("input", { id: "email", name: "email", type: "email", autocomplete: "email", maxlength: 254,
      required: true, value: info.email || "" });
    const state = info.email
      ? h("p", { id: "email-state", class: info.email_verified ? "ok" : "hint" },
        info.email_verified ? t("account.email_verified") : t("account.email_unverified"))
      : null;
    const form = h("form", { id: "email-form" },
      h("div", { class: "field" }, h("label", { for: "email" }, t("account.email_label")), input),
      h("div", { class: "row" },
        h("button", { type: "submit", class: "primary", disabled: !info.email_enabled }, t("account.email_save")),
        info.email && !info.email_verified && info.email_enabled
          ? h("button", { type: "button", id: "email-resend", onclick: async () => {
            const got = await attempt(() => api.resendEmail(), t("account.email_sent", { email: info.email }));
            if (got) info = got;
          } }, t("account.email_resend")) : null,
        info.email ? h("button", { type: "button", id: "email-remove", onclick: async () => {
          const got = await attempt(() => api.removeEmail(), t("account.saved"));
          if (got) { info = got; drawEmail(); }
        } }, t("account.email_remove")) : null));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const got = await attempt(() => api.setEmail(input.value.trim()));
      if (got) {
        info = got;
        drawEmail();
        say(info.email_verified ? t("account.saved") : t("account.email_sent", { email: info.email }));
      }
    });
    clear(emailBox, h("h2", { id: "email-title" }, t("account.email_title")),
      info.email_enabled ? null : h("p", { class: "hint", id: "email-off" }, t("account.email_off")),
      state, form);
  }
  drawEmail();

  // -- password -----------------------------------------------------------------------
  const current = h("input", { id: "current-password", type: "password", autocomplete: "current-password", required: true, maxlength: 256 });
  const next = h("input", { id: "new-password", type: "password", autocomplete: "new-password", required: true, minlength: 8, maxlength: 256 });
  const passwordForm = h("form", { class: "panel", id: "password-form", "aria-labelledby": "password-title" },
    h("h2", { id: "password-title" }, t("account.password_title")),
    h("div", { class: "field" }, h("label", { for: current.id }, t("account.current_password")), current),
    h("div", { class: "field" }, h("label", { for: next.id }, t("account.new_password")), next),
    h("button", { type: "submit", class: "primary" }, t("account.password_save")));
  passwordForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (await attempt(() => api.changePassword(current.value, next.value), t("account.password_changed"))) {
      current.value = next.value = "";
      drawSessions();
    }
  });

  // -- alerts -------------------------------------------------------------------------
  // Its heading is there before the look-up answers: a section named by a missing heading
  // is a nameless region, where aria-labelledby is not allowed.
  const alertsBox = h("section", { class: "panel", id: "account-alerts", "aria-labelledby": "alerts-title" },
    h("h2", { id: "alerts-title" }, t("account.alerts_title")));
  async function drawAlerts() {
    let prefs;
    try {
      prefs = await api.alertPreferences();
    } catch (e) {
      say(errorText(e), true);
      return;
    }
    const rows = KINDS.filter((k) => prefs.kinds.includes(k)).map((kind) => h("tr", {},
      h("th", { scope: "row" }, t(`account.kind.${kind}`)),
      CHANNELS.map((channel) => h("td", {}, h("label", { class: "check" },
        h("input", { type: "checkbox", id: `pref-${kind}-${channel}`, checked: prefs.preferences[kind][channel],
          onchange: async (e) => {
            const ok = await attempt(() => api.setAlertPreferences({ set: [{ kind, channel, enabled: e.target.checked }] }),
              t("account.saved"));
            if (!ok) e.target.checked = !e.target.checked;
          } }),
        h("span", { class: "visually-hidden" }, `${t(`account.kind.${kind}`)}: ${t(`account.channel.${channel}`)}`))))));
    const delay = h("select", { id: "turn-delay", onchange: (e) => attempt(() =>
      api.setAlertPreferences({ turn_email_minutes: Number(e.target.value) }), t("account.saved")) },
    prefs.turn_email_choices.map((m) => h("option", { value: m, selected: m === prefs.turn_email_minutes }, delayLabel(m))));
    clear(alertsBox, h("h2", { id: "alerts-title" }, t("account.alerts_title")),
      h("p", { class: "hint" }, t("account.alerts_hint")),
      h("table", { class: "prefs" },
        h("thead", {}, h("tr", {}, h("th", {}, ""), CHANNELS.map((c) => h("th", { scope: "col" }, t(`account.channel.${c}`))))),
        h("tbody", {}, rows)),
      h("div", { class: "field" }, h("label", { for: "turn-delay" }, t("account.turn_delay")), delay),
      pushBox);
    drawPush();
  }

  const pushBox = h("div", { id: "push-box", class: "row" });
  async function drawPush() {
    if (!pushSupported()) {
      clear(pushBox, h("p", { class: "hint", id: "push-state" }, t("account.push_unsupported")));
      return;
    }
    const subscription = await currentSubscription().catch(() => null);
    const on = Boolean(subscription) && Notification.permission === "granted";
    clear(pushBox,
      h("p", { id: "push-state" }, on ? t("account.push_on") : Notification.permission === "denied" ? t("account.push_denied") : t("account.push_off")),
      on
        ? h("button", { type: "button", id: "push-disable", onclick: disablePush }, t("account.push_disable"))
        : h("button", { type: "button", id: "push-enable", class: "primary", onclick: enablePush,
          disabled: Notification.permission === "denied" }, t("account.push_enable")));
  }
  async function enablePush() {
    const done = await attempt(async () => {
      const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      if ((await Notification.requestPermission()) !== "granted") throw { code: "push_denied" };
      const { public_key: key } = await api.pushKey();
      const ready = await navigator.serviceWorker.ready;
      const subscription = await (ready || registration).pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
      await api.pushSubscribe(subscription.toJSON());
    }, t("account.push_on"));
    if (done) drawPush();
  }
  async function disablePush() {
    await attempt(async () => {
      const subscription = await currentSubscription();
      if (subscription) {
        await api.pushUnsubscribe(subscription.endpoint).catch(() => {});
        await subscription.unsubscribe();
      }
    }, t("account.push_off"));
    drawPush();
  }

  // -- sessions -----------------------------------------------------------------------
  // Its heading is there before the look-up answers: a section named by a missing heading
  // is a nameless region, where aria-labelledby is not allowed.
  const sessionsBox = h("section", { class: "panel", id: "account-sessions", "aria-labelledby": "sessions-title" },
    h("h2", { id: "sessions-title" }, t("account.sessions_title")));
  async function drawSessions() {
    let list;
    try {
      list = await api.accountSessions();
    } catch (e) {
      say(errorText(e), true);
      return;
    }
    clear(sessionsBox, h("h2", { id: "sessions-title" }, t("account.sessions_title")),
      h("ul", { class: "sessions", id: "session-list" }, list.map((s) => h("li", { class: "row" },
        h("span", {}, t("account.session_created", { when: when(s.created_at) })),
        s.current ? h("strong", {}, t("account.session_current"))
          : h("button", { type: "button", class: "session-end", onclick: async () => {
            if (await attempt(() => api.endSession(s.id), t("account.saved"))) drawSessions();
          } }, t("account.session_end"))))),
      h("button", { type: "button", id: "end-all", class: "danger-outline", onclick: async () => {
        if (await attempt(() => api.endAllSessions())) {
          setUser(null);
          location.hash = "#/login";
        }
      } }, t("account.end_all")));
  }

  // -- deletion -----------------------------------------------------------------------
  const deletePassword = h("input", { id: "delete-password", type: "password", autocomplete: "current-password", required: true, maxlength: 256 });
  const understood = h("input", { type: "checkbox", id: "delete-sure", required: true });
  const deleteForm = h("form", { class: "panel", id: "delete-form", "aria-labelledby": "delete-title" },
    h("h2", { id: "delete-title" }, t("account.delete_title")),
    h("p", {}, t("account.delete_warning")),
    h("div", { class: "field" }, h("label", { for: deletePassword.id }, t("account.delete_password")), deletePassword),
    h("label", { class: "check", for: understood.id }, understood, t("account.delete_confirm")),
    h("button", { type: "submit", class: "danger" }, t("account.delete_button")));
  deleteForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (await attempt(() => api.deleteAccount(deletePassword.value))) {
      setUser(null);
      location.hash = "#/";
    }
  });

  root.append(emailBox, passwordForm, alertsBox, sessionsBox, deleteForm);
  await Promise.all([drawAlerts(), drawSessions()]);
  return {};
}
