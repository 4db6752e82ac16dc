// Help: the list of games, or one game's rules for players in the reader's language
// (/rules/<game>/<lang>.md: help/<lang>.md in the game's package, with small pictures
// beside them), its options explained. A game without a players' page shows its numbered
// rules (GET /api/games/<id>/rules: the rules.md of its package); the numbered rules stay
// one link away for the curious.
import * as api from "../api.js";
import { h } from "../dom.js";
import { loadModule } from "../gamemodule.js";
import { language, loadGameStrings, t } from "../i18n.js";
import { renderMarkdown } from "../markdown.js";
import { list } from "../model.js";
import { gameDescription, gameLabel, optionText } from "./lobby.js";

export async function mount(main, { game: gameId }) {
  const games = list(await api.games().catch(() => []), "games");
  // Names and descriptions in the reader's language (a board module may carry them too).
  await Promise.all(games.flatMap((g) => [loadGameStrings(g.id), loadModule(g.id)]));
  if (!gameId) {
    main.append(h("section", { class: "panel" },
      h("h1", {}, t("help.title")),
      h("p", {}, t("help.intro")),
      h("ul", {}, games.map((g) => h("li", {}, h("a", { href: `#/help/${g.id}` }, gameLabel(g)), " — ", gameDescription(g)))),
      h("h2", {}, t("help.how_to_play")),
      h("ul", {}, ["help.step_create", "help.step_moves", "help.step_keyboard", "help.step_colours"].map((k) => h("li", {}, t(k))))));
    return {};
  }
  const game = games.find((g) => g.id === gameId) || { id: gameId, options: [] };
  const guide = await playersRules(gameId);
  const rules = guide ? guide.text : await api.rules(gameId).catch(() => null);
  main.append(h("section", { class: "panel" },
    h("p", {}, h("a", { href: "#/help" }, "← ", t("help.title"))),
    h("h1", {}, gameLabel(game)),
    h("p", {}, gameDescription(game)),
    game.min_seats ? h("p", { class: "muted" }, t("lobby.players_range", { min: game.min_seats, max: game.max_seats })) : null,
    (game.options || []).length ? [
      h("h2", {}, t("create.options")),
      h("dl", {}, game.options.map((o) => {
        const { label, hint } = optionText(game.id, o);
        return [h("dt", {}, h("strong", {}, label)), h("dd", {}, hint || "—")];
      })),
    ] : null,
    h("h2", {}, t("help.rules")),
    rules ? h("div", { class: "rules", id: "rules", lang: guide ? guide.lang : "en", dataset: { kind: guide ? "players" : "numbered" } }, renderMarkdown(rules))
      : h("p", { class: "muted", id: "no-rules" }, t("help.no_rules")),
    guide ? h("p", { class: "small" }, h("a", { href: `/api/games/${encodeURIComponent(gameId)}/rules`, id: "numbered-rules", hreflang: "en" }, t("help.numbered_rules"))) : null));
  return {};
}

// The players' rules in the reader's language, else in English; null when the game has none.
async function playersRules(gameId) {
  for (const lang of [...new Set([language(), "en"])]) {
    try {
      const res = await fetch(`/rules/${encodeURIComponent(gameId)}/${lang}.md`);
      if (res.ok) return { lang, text: await res.text() };
    } catch {
      // not reachable: try the next language
    }
  }
  return null;
}
