"""The Content-Security-Policy lets in only the app's own scripts and styles (and the
<style> elements its boards add, which carry the page's nonce), with the other usual
security headers; every game's table page draws under it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

GAMES = ("bloodrage", "crusaders", "iwari", "hadrianswall")

WATCH = """
  window.__violations = [];
  document.addEventListener('securitypolicyviolation',
    (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
"""

SET_UP = """async (games) => {
  const post = async (path, body, csrf) => {
    const r = await fetch(path, {method: 'POST', headers: {'Content-Type': 'application/json',
      ...(csrf ? {'X-CSRF-Token': csrf} : {})}, body: body ? JSON.stringify(body) : undefined});
    if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  const me = await fetch('/api/sessions').then((r) => r.ok ? r.json() : null);
  const csrf = me ? me.csrf : (await post('/api/sessions/guest')).csrf;
  const ids = [];
  for (const game of games) {
    const table = await post('/api/tables', {game, seats: 2}, csrf);
    await post(`/api/tables/${table.id}/bots`, {bot: 'random'}, csrf);
    await post(`/api/tables/${table.id}/start`, null, csrf);
    ids.push(table.id);
  }
  return ids;
}"""


def _violations(page: Page) -> list[str]:
    return page.evaluate("window.__violations")


def poll(page: Page, expression: str, seconds: float = 15) -> None:
    """Playwright's wait_for_function evaluates its text with eval, which this page's
    policy forbids (as it should): poll with evaluate, which the policy does not see."""
    for _ in range(int(seconds * 10)):
        if page.evaluate(expression):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never true: {expression}")


def test_csp_and_headers_with_every_board_drawn(server, browser) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        context.add_init_script(WATCH)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        answer = page.goto(server.url + "/")
        assert answer is not None
        headers = answer.headers
        policy = headers["content-security-policy"]
        assert "script-src 'self';" in policy and "'unsafe-inline'" not in policy.split("style-src-attr")[0]
        assert "object-src 'none'" in policy and "frame-ancestors 'none'" in policy and "'nonce-" in policy
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "same-origin" and "camera=()" in headers["permissions-policy"]
        assert headers["cache-control"] == "no-store"  # the nonce is fresh on every load
        nonce = page.evaluate("document.querySelector('meta[name=csp-nonce]').content")
        assert nonce and f"'nonce-{nonce}'" in policy
        page.wait_for_selector("main:not(:has(.loading))")
        ids = page.evaluate(SET_UP, list(GAMES))
        for game, table_id in zip(GAMES, ids, strict=True):
            page.goto(f"{server.url}/#/table/{table_id}")
            poll(page, "document.querySelectorAll('#board svg *').length > 20")
            # The boards that add style rules have them applied (a blocked <style> would not be).
            assert page.evaluate("[...document.querySelectorAll('style')].every((s) => s.sheet !== null)"), game
            assert _violations(page) == [], (game, _violations(page))
        # What an injection would try is refused: an inline script, a foreign script, a
        # <style> without the nonce.
        page.evaluate("""() => {
            const s = document.createElement('script'); s.textContent = 'window.__ran = 1'; document.body.append(s);
            const f = document.createElement('script'); f.src = 'https://example.invalid/x.js'; document.body.append(f);
            const st = document.createElement('style'); st.textContent = 'body { color: rgb(1, 2, 3) }';
            document.head.append(st);
        }""")
        poll(page, "window.__violations.length >= 3")
        assert page.evaluate("window.__ran") is None
        assert page.evaluate("getComputedStyle(document.body).color") != "rgb(1, 2, 3)"
        assert errors == [], errors
        # The API answers carry the policy and the headers too.
        api = page.request.get(server.url + "/api/health")
        assert "script-src 'self'" in api.headers["content-security-policy"]
        assert api.headers["x-frame-options"] == "DENY"
    finally:
        context.close()
