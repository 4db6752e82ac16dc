// The moderators' page: the report queue, a player look-up with mute and ban (each with
// an end), table abort, chat line removal, and the audit log of every moderator action.
// The server answers 403 not_moderator to anyone else (server/moderation/routes.py); this
// page shows that refusal as it came. What players wrote (reasons, chat lines, names) is
// marked .user-text: it is theirs, not the page's words, and is never set as HTML.
import * as api from "../api.js";
import { clear, h } from "../dom.js";
import { language, t } from "../i18n.js";

const DURATIONS = ["60", "1440", "10080", "43200", "none"];

function errorText(e) {
  if (e.code && e.code !== "http_error") {
    const said = t(`errors.${e.code}`);
    if (said !== e.code.replace(/_/g, " ")) return said;
  }
  return e.message || t("errors.unknown");
}

const userText = (text) => h("span", { class: "user-text" }, text);

function when(iso) {
  if (!iso) return "";
  if (iso === "forever") return t("mod.forever");
  return new Date(iso).toLocaleString(language());
}

export async function mount(main) {
  const message = h("p", { class: "message", id: "mod-message", role: "status", hidden: true });
  const say = (text, error = false) => {
    message.hidden = false;
    message.className = `message${error ? " error" : ""}`;
    message.textContent = text;
  };
  const attempt = async (action, after) => {
    try {
      await action();
      say(t("mod.done"));
      if (after) await after();
    } catch (e) {
      say(errorText(e), true);
    }
  };

  // Only a moderator gets past this read; anyone else sees the server's refusal.
  let first;
  try {
    first = await api.modReports("open");
  } catch (e) {
    main.append(h("section", { class: "panel" }, h("h1", {}, t("mod.title")),
      h("p", { class: "message error", role: "alert", id: "mod-refused" }, errorText(e))));
    return {};
  }

  const statusSelect = h("select", { id: "mod-status", onchange: () => loadReports() },
    ["open", "resolved"].map((s) => h("option", { value: s }, t(`mod.${s}`))));
  const reportList = h("ul", { class: "mod-list", id: "report-list" });
  const lookupName = h("input", { id: "lookup-name", name: "username", required: true, maxlength: 40, autocomplete: "off" });
  const userCard = h("div", { id: "user-card" });
  const auditBody = h("tbody", { id: "audit-rows" });

  function reportItem(r) {
    const about = [];
    if (r.user) about.push(h("span", {}, `${t("mod.kind.player")}: `, userText(r.user)));
    if (r.table) about.push(h("span", {}, `${t("mod.kind.table")}: `, h("a", { href: `#/table/${encodeURIComponent(r.table)}`, class: "user-text" }, r.table)));
    if (r.chat_text) about.push(h("q", { class: "user-text" }, r.chat_text));
    const actions = [];
    if (r.status === "open") {
      actions.push(h("button", { type: "button", class: "primary resolve", onclick: () => attempt(() => api.modResolve(r.id), refresh) }, t("mod.resolve")));
      if (r.chat) actions.push(h("button", { type: "button", class: "remove-line", onclick: () => attempt(() => api.modRemoveChat(r.chat), refresh) }, t("mod.remove_line")));
      if (r.table && r.kind === "table") {
        actions.push(h("button", { type: "button", class: "abort", onclick: () => {
          if (window.confirm(t("mod.confirm_abort"))) attempt(() => api.modAbort(r.table), refresh);
        } }, t("mod.abort")));
      }
    }
    if (r.user) actions.push(h("button", { type: "button", class: "look-up", onclick: () => { lookupName.value = r.user; lookUp(); } }, t("mod.look_up")));
    return h("li", { class: "report", dataset: { id: r.id, kind: r.kind } },
      h("p", {}, h("strong", {}, t(`mod.kind.${r.kind}`)), " · ", h("span", { class: "muted small" }, when(r.created_at))),
      h("p", { class: "small" }, `${t("mod.by")}: `, userText(r.reporter || "?")),
      about.length ? h("p", { class: "small" }, `${t("mod.about")}: `, about.flatMap((a, i) => (i ? [" · ", a] : [a]))) : null,
      h("p", {}, `${t("mod.reason")}: `, userText(r.reason)),
      h("div", { class: "row mod-actions" }, actions));
  }

  async function loadReports() {
    const rows = await api.modReports(statusSelect.value).catch((e) => (say(errorText(e), true), []));
    clear(reportList, rows.length ? rows.map(reportItem) : h("li", { class: "muted" }, t("mod.no_reports")));
  }

  function sanctionForm(user) {
    const duration = h("select", { id: "sanction-minutes", "aria-label": t("mod.duration") },
      DURATIONS.map((d) => h("option", { value: d }, t(`mod.minutes.${d}`))));
    const reason = h("input", { id: "sanction-reason", maxlength: 500, "aria-label": t("mod.why"), placeholder: t("mod.why") });
    const minutes = () => (duration.value === "none" ? null : Number(duration.value));
    const act = (what) => attempt(() => api.modSanction(user.username, what, minutes(), reason.value.trim()), lookUp);
    const lift = (what) => attempt(() => api.modLift(user.username, what), lookUp);
    return h("div", { class: "grid" },
      h("div", { class: "field" }, h("label", { for: duration.id }, t("mod.duration")), duration),
      h("div", { class: "field" }, h("label", { for: reason.id }, t("mod.why")), reason),
      h("div", { class: "row mod-actions" },
        user.muted_until
          ? h("button", { type: "button", id: "unmute", onclick: () => lift("mute") }, t("mod.unmute"))
          : h("button", { type: "button", id: "mute", onclick: () => act("mute") }, t("mod.mute")),
        user.banned_until
          ? h("button", { type: "button", id: "unban", onclick: () => lift("ban") }, t("mod.unban"))
          : h("button", { type: "button", id: "ban", class: "danger", onclick: () => act("ban") }, t("mod.ban"))));
  }

  async function lookUp() {
    const name = lookupName.value.trim();
    if (!name) return;
    let user;
    try {
      user = await api.modUser(name);
    } catch (e) {
      clear(userCard);
      say(errorText(e), true);
      return;
    }
    clear(userCard, h("div", { class: "panel inner", dataset: { user: user.username } },
      h("h3", {}, userText(user.username), ` (${t(`mod.role.${user.role || "none"}`)})`),
      h("p", { class: "small" }, t("mod.joined", { date: new Date(user.created_at).toLocaleDateString(language()) }),
        " · ", t("mod.reported", { n: user.reports })),
      h("p", { id: "user-banned" }, user.banned_until ? t("mod.banned_until", { when: when(user.banned_until) }) : t("mod.not_banned")),
      h("p", { id: "user-muted" }, user.muted_until ? t("mod.muted_until", { when: when(user.muted_until) }) : t("mod.not_muted")),
      sanctionForm(user),
      h("h4", {}, t("mod.chat")),
      user.chat.length
        ? h("ul", { class: "mod-list", id: "user-chat" }, user.chat.map((c) => h("li", { dataset: { id: c.id } },
            h("q", { class: "user-text" }, c.text), " ",
            c.hidden ? h("span", { class: "muted small" }, t("mod.removed"))
              : h("button", { type: "button", class: "remove-line", onclick: () => attempt(() => api.modRemoveChat(c.id), lookUp) }, t("mod.remove")))))
        : h("p", { class: "muted" }, t("mod.no_chat"))));
    await loadAudit();
  }

  function target(text) {
    const [kind, ...rest] = String(text).split(" ");
    return [t(`mod.target.${kind}`), " ", userText(rest.join(" "))];
  }

  async function loadAudit() {
    const rows = await api.modAudit().catch(() => []);
    clear(auditBody, rows.length
      ? rows.map((e) => h("tr", {},
          h("td", {}, when(e.at)),
          h("td", {}, e.actor === "@cli" ? t("mod.cli") : userText(e.actor)),
          h("td", {}, t(`mod.action.${e.action}`)),
          h("td", {}, target(e.target), e.detail && e.detail.reason ? [" — ", userText(e.detail.reason)] : null)))
      : h("tr", {}, h("td", { colspan: 4, class: "muted" }, t("mod.no_audit"))));
  }

  async function refresh() {
    await loadReports();
    await loadAudit();
  }

  const lookupForm = h("form", { id: "lookup-form", class: "row" },
    h("label", { for: lookupName.id }, t("mod.username")), lookupName,
    h("button", { type: "submit", class: "primary" }, t("mod.find")));
  lookupForm.addEventListener("submit", (e) => {
    e.preventDefault();
    lookUp();
  });

  main.append(h("div", { class: "grid moderation-page" },
    h("h1", {}, t("mod.title")),
    message,
    h("section", { class: "panel", id: "mod-reports", "aria-labelledby": "mod-reports-h" },
      h("h2", { id: "mod-reports-h" }, t("mod.reports")),
      h("div", { class: "field row" }, h("label", { for: statusSelect.id }, t("mod.show")), statusSelect),
      reportList),
    h("section", { class: "panel", id: "mod-user", "aria-labelledby": "mod-user-h" },
      h("h2", { id: "mod-user-h" }, t("mod.user")), lookupForm, userCard),
    h("section", { class: "panel", id: "mod-audit", "aria-labelledby": "mod-audit-h" },
      h("h2", { id: "mod-audit-h" }, t("mod.audit")),
      h("table", { class: "audit-log" },
        h("thead", {}, h("tr", {}, h("th", {}, t("mod.when")), h("th", {}, t("mod.who")), h("th", {}, t("mod.action_h")), h("th", {}, t("mod.target_h")))),
        auditBody))));
  clear(reportList, first.length ? first.map(reportItem) : h("li", { class: "muted" }, t("mod.no_reports")));
  await loadAudit();
  return {};
}
