"""Rating history in Chromium against a real server: rated games played (seeded over
HTTP), the profile draws each game's rating history as our own SVG, one point per rated
game, with its text alternative (a description and a table a keyboard opens), the lifetime
statistics; ratings read as lichess shows them ("1523?" while provisional) on the profile
and the leaderboard; in Japanese, at phone size, with finger-wide controls; players'
ratings beside their names at a table; the create form offers the zombie level."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.server.conftest import Api
from tests.web.conftest import screenshot

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
GAME = "sealedbids"
SMALL_CONTROLS = """() => [...document.querySelectorAll('#rating-history summary, #leaderboard-game, #create-zombie')]
  .filter((el) => el.getBoundingClientRect().width > 0)
  .filter((el) => el.getBoundingClientRect().height < 44)
  .map((el) => `${el.tagName}#${el.id} ${Math.round(el.getBoundingClientRect().height)}`)"""
SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"


def rated_games(http: Any, winner: Api, loser: Api, n: int) -> list[str]:
    """``n`` rated two-seat games that ``winner`` wins (``loser`` resigns at once)."""
    tables = []
    for _ in range(n):
        r = winner.post("/api/tables", {"game": GAME, "seats": 2, "rated": True})
        assert r.status_code == 201, r.text
        table_id = r.json()["id"]
        assert loser.post(f"/api/tables/{table_id}/join").status_code == 200
        assert winner.post(f"/api/tables/{table_id}/start").status_code == 200
        assert loser.post(f"/api/tables/{table_id}/resign").json()["over"]
        tables.append(table_id)
    return tables


def http_rating(url: str, name: str) -> int:
    return httpx.get(f"{url}/api/players/{name}/ratings/{GAME}", params={"limit": 1}).json()["rating"]


@pytest.fixture
def players(server: Any):
    with httpx.Client(base_url=server.url, timeout=15) as http:
        winner, loser = Api(http), Api(http)
        tables = rated_games(http, winner, loser, 3)
        unrated = winner.post("/api/tables", {"game": GAME, "seats": 2}).json()["id"]
        assert loser.post(f"/api/tables/{unrated}/join").status_code == 200
        assert winner.post(f"/api/tables/{unrated}/start").status_code == 200
        assert winner.post(f"/api/tables/{unrated}/resign").json()["over"]  # the loser wins this one
        history = http.get(f"/api/players/{winner.name}/ratings/{GAME}").json()
        yield winner, loser, tables, history


def test_the_profile_draws_the_rating_history_with_its_text_alternative(server, new_page, players) -> None:
    winner, loser, tables, history = players
    ratings = [p["rating"] for p in history["points"]]
    assert len(ratings) == 3 and ratings == sorted(ratings)
    page = new_page(f"{server.url}/#/player/{winner.name}", viewport=PHONE)
    chart = page.locator(f"svg.rating-chart#chart-{GAME}")
    expect(chart).to_be_visible()
    # One point per rated game, each carrying its rating; provisional ones hollow.
    points = chart.locator("circle.point")
    expect(points).to_have_count(3)
    assert [int(v) for v in points.evaluate_all("els => els.map((e) => e.dataset.rating)")] == ratings
    expect(chart.locator("circle.point.provisional")).to_have_count(3)
    expect(chart.locator("path.line")).to_have_count(1)
    # Each point is higher than the one before (the winner went up every game).
    ys = points.evaluate_all("els => els.map((e) => Number(e.getAttribute('cy')))")
    assert ys == sorted(ys, reverse=True), ys
    # The text alternative: the chart is an image with a title and a description...
    assert chart.get_attribute("role") == "img"
    desc = chart.locator("desc").text_content()
    assert "3 rated games" in desc and "from 1500" in desc and f"to {ratings[-1]}?" in desc, desc
    expect(page.locator(f"#{chart.get_attribute('aria-describedby')}")).to_have_count(1)
    # ...and a table a keyboard opens, one row per game, newest first.
    summary = page.locator(f"[data-game={GAME}] details.rating-table summary")
    summary.focus()
    page.keyboard.press("Enter")
    rows = page.locator(f"#history-{GAME} tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.first.locator("td").nth(2)).to_have_text(f"{ratings[-1]}?")
    for cell in rows.first.locator("td").all():  # every column shows on a phone
        expect(cell).to_be_visible()
    expect(rows.first.locator("td").nth(1)).to_have_text("1 of 2")
    assert rows.first.locator("a").get_attribute("href") == f"#/replay/{tables[-1]}"
    # The ratings table and the statistics: as lichess shows ratings, "?" while provisional.
    expect(page.locator("main table.tables").first.locator("tbody td").nth(1)).to_have_text(
        re.compile(rf"^{ratings[-1]}\?$"))
    expect(page.locator("#stats-games")).to_have_text("4")  # 3 rated and 1 unrated, all public
    expect(page.locator("#stats-wins")).to_have_text("3")
    expect(page.locator(f"#stats-by-game tr[data-game={GAME}] td").nth(3)).to_have_text(f"{ratings[-1]}?")
    expect(page.locator("#rating-note")).to_contain_text("1500")
    assert page.evaluate(SMALL_CONTROLS) == []
    assert page.evaluate(SIDEWAYS) <= 0
    screenshot(page, "rating-history-phone")

    # The leaderboard shows the same figure.
    page.goto(f"{server.url}/#/leaderboard/{GAME}")
    row = page.locator("main table.tables tbody tr", has=page.locator(f"a:text-is('{winner.name}')"))
    expect(row.locator(".rating")).to_have_text(f"{ratings[-1]}?")
    page.set_viewport_size(PHONE)
    expect(row.locator(".rating")).to_be_visible()
    # At a table, beside each person's name (the winner sat at seat 0, the loser at 1).
    page.goto(f"{server.url}/#/table/{tables[-1]}")
    loser_rating = http_rating(server.url, loser.name)
    expect(page.locator("#seats-panel [data-seat='0'] .seat-rating")).to_have_text(f"{ratings[-1]}?")
    expect(page.locator("#seats-panel [data-seat='1'] .seat-rating")).to_have_text(f"{loser_rating}?")
    assert page.evaluate(SMALL_CONTROLS) == []


def test_the_chart_and_statistics_speak_japanese(server, new_page, players) -> None:
    winner, _loser, _tables, _history = players
    page = new_page(f"{server.url}/#/player/{winner.name}", locale="ja-JP", viewport=PHONE)
    chart = page.locator(f"svg.rating-chart#chart-{GAME}")
    expect(chart.locator("circle.point")).to_have_count(3)
    expect(chart.locator("desc")).to_contain_text("レーティング戦 3 局")
    expect(page.locator("#stats-h")).to_have_text("戦績")
    expect(page.locator(f"[data-game={GAME}] details.rating-table summary")).to_have_text("表で見る")
    screenshot(page, "rating-history-ja-phone")


def test_the_create_form_offers_the_zombie_level(server, new_page) -> None:
    page = new_page(server.url, viewport=PHONE)
    page.locator(f"[data-game={GAME}] button.primary").click()
    zombie = page.locator("#create-zombie")
    expect(zombie).to_be_visible()
    assert zombie.locator("option").first.get_attribute("value") == ""  # by rating, unless chosen
    assert zombie.locator("option").all_inner_texts()[0] == "A bot near their rating"
    zombie.scroll_into_view_if_needed()
    screenshot(page, "create-form-zombie-level-phone")
    zombie.select_option("normal")
    page.locator("#create-form input[name=bot]").uncheck()
    page.locator("#create-submit").click()
    expect(page.locator("#waiting")).to_be_visible()
    assert page.evaluate(SMALL_CONTROLS) == []
