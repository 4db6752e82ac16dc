"""The browser client end to end: a real Chromium, a real server, the test-only game
Sealed Bids (tests/toygame/sealedbids), driven through the buttons every game gets:
the list of legal moves, each carrying its move as JSON in `data-move`."""

from __future__ import annotations

import json
import re
import tarfile

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.conftest import DESKTOP, PHONE, ROOT, screenshot
from tests.web.tables import open_move_list

pytestmark = pytest.mark.browser

GAME = "sealedbids"


def create_table(page: Page, bots: bool = True) -> str:
    """From the lobby: create a Sealed Bids table (a bot in seat 2 unless bots=False)."""
    page.locator(f"[data-game={GAME}] button.primary").click()
    form = page.locator("#create-form")
    expect(form).to_be_visible()
    if not bots:
        form.locator("input[name=bot]").uncheck()
    form.locator("#create-bot").select_option("random")  # instant moves keep the tests short
    form.locator("#create-submit").click()
    expect(page.locator("#waiting")).to_be_visible()
    return page.url.split("#/table/")[1]


def start(page: Page) -> None:
    page.locator("#start").click()
    expect(page.locator("#moves button.move").first).to_be_visible()


def version(page: Page) -> int:
    return page.evaluate("window.ludotecaTable.state.version")


def click_first_move(page: Page) -> None:
    """Click the first move and wait until the server has accepted it. A move refused
    because the bot's overtook it (the page says so, and shows the new turn's moves) is
    clicked again, as a person would, twice at most; a wait that ends otherwise says
    what the page held."""
    before = page.evaluate("window.ludotecaTable.state.acks")
    for _ in range(3):
        for attempt in range(5):
            # Collapsed under the status bar when the board takes moves; the page may close
            # it again when it draws between the opening and the click: open it and retry.
            open_move_list(page)
            try:
                page.locator("#moves button.move:not([disabled])").first.click(timeout=3000)
                break
            except PlaywrightTimeout:
                if attempt == 4:
                    raise
        try:
            page.wait_for_function("(n) => window.ludotecaTable.state.acks > n"
                                   " || !document.querySelector('#refusal').hidden", arg=before)
        except PlaywrightTimeout:
            held = page.evaluate("() => { const s = window.ludotecaTable.state; return {version: s.version,"
                                 " busy: s.busy, legal: s.legal, link: s.link, status: s.table.status}; }")
            raise AssertionError(f"no answer to the move: {held}") from None
        if page.evaluate("window.ludotecaTable.state.acks") > before:
            return
        page.wait_for_function("() => !window.ludotecaTable.state.busy")
    raise AssertionError(f"the move was refused three times: {page.locator('#refusal').inner_text()}")


def wait_for_turn_or_end(page: Page) -> bool:
    """True once the game is over; False when a move can be clicked."""
    page.wait_for_function("() => !document.querySelector('#scoreboard').hidden"
                           " || document.querySelector('#moves button.move:not([disabled])')")
    return page.locator("#scoreboard").is_visible()


def two_people_playing(server, new_page) -> tuple[Page, Page, str]:
    """Ana opens a table without bots, Bo sits down from its link, Ana starts."""
    ana = new_page(server.url)
    table = create_table(ana, bots=False)
    bo = new_page(f"{server.url}/#/table/{table}")
    bo.locator("#waiting button", has_text="Sit here").click()
    expect(ana.locator("#start")).to_be_enabled()
    start(ana)
    return ana, bo, table


def play_to_end(page: Page, limit: int = 40) -> None:
    for _ in range(limit):
        if wait_for_turn_or_end(page):
            return
        click_first_move(page)
    raise AssertionError("the game did not end")


def test_every_module_loads(server, new_page) -> None:
    page = new_page(server.url)
    modules = ["/js/app.js", "/js/pages/lobby.js", "/js/pages/table.js", "/js/pages/replay.js",
               "/js/pages/help.js", "/js/pages/login.js", "/js/pages/profile.js", "/js/pages/leaderboard.js",
               "/js/board.js", f"/games/{GAME}.js"]
    for module in modules:
        assert page.evaluate("(u) => import(u).then(() => 'ok', (e) => String(e))", module) == "ok", module


def test_play_a_whole_game_against_a_bot_then_replay_it(server, new_page) -> None:
    page = new_page(server.url)
    expect(page.locator(f"[data-game={GAME}]")).to_be_visible()
    screenshot(page, "lobby-desktop")
    create_table(page)
    screenshot(page, "waiting-desktop")
    screenshot(page, "waiting-phone", PHONE)
    page.set_viewport_size(DESKTOP)
    start(page)
    # The board and the list agree: each move button carries a legal move as JSON.
    texts = page.locator("#moves button.move").evaluate_all("bs => bs.map(b => b.dataset.move)")
    moves = [json.loads(text) for text in texts]
    assert {"type": "pass"} in moves and all(m["type"] in ("bid", "pass") for m in moves)
    expect(page.locator("#board svg .hand-card")).to_have_count(5)
    assert "Your turn" in page.title()
    # The prompt is the game's own, in words, with its arguments filled in.
    expect(page.locator("#prompt")).to_have_text(re.compile(r"^Bid a card for the prize prize-\d$"))
    # The seat panels say who is here: the person's socket is open; the bot has no dot.
    expect(page.locator(".seat[data-seat='0']")).to_contain_text("online")
    expect(page.locator(".seat[data-seat='1'] .dot")).to_have_count(0)
    screenshot(page, "table-desktop")
    screenshot(page, "table-phone", PHONE)
    page.set_viewport_size(DESKTOP)

    # The first move with the keyboard, on the board itself: a card is a button.
    page.locator("#board .hand-card").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.ludotecaTable.state.acks > 0")
    play_to_end(page)
    board = page.locator("#scoreboard")
    expect(board.locator("tbody tr")).to_have_count(2)
    expect(board.locator("th")).to_contain_text(["Rank", "Player", "Score", "Prizes"])
    expect(page.locator("#log li").first).to_be_visible()
    expect(page.locator("#table-status")).to_have_attribute("data-status", "over")
    screenshot(page, "over-desktop")
    screenshot(page, "over-phone", PHONE)
    page.set_viewport_size(DESKTOP)

    # The replay, step by step: forward, back, the slider, the end with the scores.
    page.locator("#replay-link").click()
    step = page.locator("#replay-step")
    expect(step).to_have_text(re.compile(r"Move 0 of \d+"))
    total = int(re.search(r"of (\d+)", step.inner_text()).group(1))
    assert total >= 3
    # The server's frames: the board is drawn at every step, from the chosen point of view.
    expect(page.locator("#board svg")).to_be_visible()
    # The one who played sees their own seat first; a spectator's view is one choice away.
    expect(page.locator("#replay-pov")).to_have_value("0")
    expect(page.locator("#board .hand-card")).to_have_count(5)
    page.locator("#replay-pov").select_option("")
    expect(page.locator("#board .hand-card")).to_have_count(0)
    page.locator("#replay-pov").select_option("0")
    expect(page.locator("#board .hand-card")).to_have_count(5)
    assert page.locator("#board .hand-card").evaluate_all("gs => gs.map(g => g.dataset.card)") == \
        [f"c0-{n}" for n in range(1, 6)]
    page.locator("#replay-pov").select_option("1")
    expect(page.locator("#board .hand-card").first).to_have_attribute("data-card", re.compile("^c1-"))
    page.locator("#replay-pov").select_option("")
    expect(page.locator("#board .hand-card")).to_have_count(0)
    page.locator("#replay-next").click()
    expect(step).to_have_text(f"Move 1 of {total}")
    page.locator("#replay-next").click()
    page.locator("#replay-prev").click()
    expect(step).to_have_text(f"Move 1 of {total}")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"Move 2 of {total}")
    page.locator("#replay-slider").fill(str(total))
    expect(step).to_have_text(f"Move {total} of {total}")
    expect(page.locator("#scoreboard")).to_be_visible()
    expect(page.locator("#replay-next")).to_be_disabled()
    expect(page.locator("#board svg")).to_be_visible()
    page.locator("#replay-pov").select_option("0")
    expect(page.locator("#board .hand-card").first).to_be_visible()
    assert 2 <= page.locator("#board .hand-card").count() <= 4  # the cards seat 0 bid are gone
    screenshot(page, "replay-desktop")
    screenshot(page, "replay-phone", PHONE)
    page.set_viewport_size(DESKTOP)
    page.locator("#replay-first").click()
    expect(step).to_have_text(f"Move 0 of {total}")
    expect(page.locator("#scoreboard")).to_be_hidden()
    expect(page.locator("#board .hand-card")).to_have_count(5)

    # The profile lists the game, with a link to its replay.
    table = page.url.split("#/replay/")[1].split("?")[0]
    page.locator(".top .user").click()
    recent = page.locator("#recent li")
    expect(recent).to_have_count(1)
    expect(recent).to_contain_text("Sealed Bids")
    expect(recent.locator("a")).to_have_attribute("href", f"#/replay/{table}")


def test_a_refused_move_says_why_and_changes_nothing(server, new_page) -> None:
    page = new_page(server.url)
    create_table(page)
    start(page)
    # Once the bot has bid, nothing redraws the buttons under the test's hand.
    expect(page.locator(".seat[data-seat='1']")).not_to_have_class(re.compile("to-move"))
    before = version(page)
    # A forged (or stale) button: the server refuses it and the page says so at once.
    page.locator("#moves button.move").first.evaluate(
        "b => { b.dataset.move = JSON.stringify({type: 'bid', card: 'c0-99'}); }")
    page.locator("#moves button.move").first.click()
    refusal = page.locator("#refusal")
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text("hand")
    assert version(page) == before
    expect(page.locator("#moves button.move:not([disabled])")).to_have_count(6)
    screenshot(page, "refused-desktop")
    # The next good move clears the message.
    click_first_move(page)
    expect(refusal).to_be_hidden()


def test_a_late_answer_overtaken_by_the_socket_does_not_roll_the_table_back(server, new_page) -> None:
    """A refresh over HTTP can be answered after the socket brought a newer state (a busy
    server, a slow network). The page keeps the newer state: the older answer, which would
    offer the moves of a turn already played, is dropped."""
    page = new_page(server.url)
    table = create_table(page)
    start(page)
    expect(page.locator(".seat[data-seat='1']")).not_to_have_class(re.compile("to-move"))
    old = page.evaluate("(id) => fetch(`/api/tables/${id}`).then((r) => r.json())", table)
    assert old["version"] == version(page) and old["events_reset"]  # a plain GET resets the events
    click_first_move(page)
    page.wait_for_function("(v) => window.ludotecaTable.state.version > v", arg=old["version"])
    expect(page.locator(".seat[data-seat='1']")).not_to_have_class(re.compile("to-move"))
    newer = page.evaluate("() => { const s = window.ludotecaTable.state;"
                          " return {version: s.version, legal: s.legal, events: s.events.length}; }")
    assert newer["legal"] != old["legal"]
    # The next refresh is answered with the old snapshot, as if it had been held up.
    page.route(re.compile(rf"/api/tables/{re.escape(table)}$"),
               lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(old)))
    page.evaluate("() => window.ludotecaTable.refresh()")
    after = page.evaluate("() => { const s = window.ludotecaTable.state;"
                          " return {version: s.version, legal: s.legal, events: s.events.length}; }")
    assert after == newer
    shown = page.locator("#moves button.move").evaluate_all("(bs) => bs.map((b) => JSON.parse(b.dataset.move))")
    assert all(move in newer["legal"] for move in shown) and len(shown) == len(newer["legal"])


def test_language_switch_is_remembered_and_follows_the_browser(server, new_page) -> None:
    page = new_page(server.url)
    expect(page.locator("nav")).to_contain_text("Lobby")
    create_table(page)
    start(page)
    page.locator("#language").select_option("ja")
    expect(page.locator("nav")).to_contain_text("ロビー")
    expect(page.locator("#prompt")).to_have_text(re.compile(r"^賞品prize-\dにカードで入札してください$"))
    expect(page.locator("#moves button.move").first).to_have_text(re.compile("で入札"))
    screenshot(page, "table-ja-phone", PHONE)
    page.reload()
    expect(page.locator("nav")).to_contain_text("ロビー")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    # Opened while it is the person's turn: the moves are labelled by the game's module
    # (drawn first before it loaded, they must be drawn again once it has).
    expect(page.locator("#moves button.move").first).to_have_text(re.compile("で入札"))
    page.locator("#language").select_option("vi")
    expect(page.locator("#seats-panel h2")).to_have_text("Người chơi")

    vietnamese = new_page(server.url, locale="vi-VN")
    expect(vietnamese.locator("nav")).to_contain_text("Sảnh")
    screenshot(vietnamese, "lobby-vi-phone", PHONE)


def test_sign_up_log_out_log_in(server, new_page) -> None:
    page = new_page(f"{server.url}/#/login")
    name = f"ana{version_suffix()}"
    page.locator("#signup-username").fill(name)
    page.locator("#signup-password").fill("correct horse")
    page.locator("#signup-form button[type=submit]").click()
    expect(page.locator(".top .user")).to_have_text(name)
    page.locator("#logout").click()
    expect(page.locator("#login-link")).to_be_visible()
    page.locator("#login-link").click()
    page.locator("#login-username").fill(name)
    page.locator("#login-password").fill("wrong password")
    page.locator("#login-form button[type=submit]").click()
    expect(page.locator("[role=alert]")).to_contain_text("Wrong username or password")
    page.locator("#login-password").fill("correct horse")
    page.locator("#login-form button[type=submit]").click()
    expect(page.locator(".top .user")).to_have_text(name)


def version_suffix() -> str:
    import secrets

    return secrets.token_hex(3)


def test_two_people_see_only_their_own_hand_and_catch_up_after_a_drop(server, new_page) -> None:
    ana, bo, table = two_people_playing(server, new_page)
    expect(bo.locator("#moves button.move").first).to_be_visible()

    def hand(page: Page) -> set[str]:
        return set(page.locator("#board .hand-card").evaluate_all("gs => gs.map(g => g.dataset.card)"))

    assert hand(ana) == {f"c0-{n}" for n in range(1, 6)}
    assert hand(bo) == {f"c1-{n}" for n in range(1, 6)}
    assert "c1-" not in ana.content() and "c0-" not in bo.content()
    # A spectator sees the public view: no hand, no moves.
    watcher = new_page(f"{server.url}/#/table/{table}")
    expect(watcher.locator("#spectating")).to_be_visible()
    expect(watcher.locator("#board svg")).to_be_visible()
    expect(watcher.locator("#board .hand-card")).to_have_count(0)
    expect(watcher.locator("#moves button")).to_have_count(0)
    # The players see who is here: both people online, one watcher.
    expect(ana.locator("#seats-panel .spectators")).to_have_text("1 watching")
    expect(ana.locator(".seat[data-seat='1']")).to_contain_text("online")
    expect(watcher.locator(".seat[data-seat='0']")).to_contain_text("online")

    # Bo's socket drops; Ana bids meanwhile; Bo's page reconnects and catches up.
    bo.evaluate("window.ludotecaTable.drop(1500)")
    expect(bo.locator("#banner")).to_be_visible()
    click_first_move(ana)
    expect(bo.locator("#live-status")).to_have_attribute("data-link", "live")
    expect(bo.locator("#banner")).to_be_hidden()
    expect(bo.locator("#log li")).to_have_count(1)
    expect(bo.locator(".seat[data-seat='0']")).not_to_have_class(re.compile("to-move"))

    # Ana takes her bid back (Bo has not bid: nothing was revealed); both pages follow.
    expect(ana.locator("#undo")).to_be_visible()
    ana.locator("#undo").click()
    expect(ana.locator("#moves button.move")).to_have_count(6)
    expect(bo.locator("#log li")).to_have_count(0)
    expect(bo.locator(".seat[data-seat='0']")).to_have_class(re.compile("to-move"))

    # Chat crosses too.
    bo.locator("#chat-input").fill("good luck")
    bo.locator("#chat-send").click()
    expect(ana.locator("#chat-lines")).to_contain_text("good luck")
    screenshot(bo, "two-people-desktop")


def test_the_page_rides_out_a_server_restart(own_server, new_page) -> None:
    page = new_page(own_server.url)
    create_table(page)
    start(page)
    click_first_move(page)
    own_server.kill()
    expect(page.locator("#banner")).to_be_visible()
    expect(page.locator("#live-status")).to_have_attribute("data-link", "reconnecting")
    screenshot(page, "reconnecting-desktop")
    own_server.start()
    expect(page.locator("#live-status")).to_have_attribute("data-link", "live", timeout=20_000)
    expect(page.locator("#banner")).to_be_hidden()
    play_to_end(page)
    expect(page.locator("#scoreboard tbody tr")).to_have_count(2)


def test_help_profile_and_leaderboard_pages(server, new_page) -> None:
    page = new_page(f"{server.url}/#/help")
    expect(page.locator("main h1")).to_have_text("Help")
    page.locator("main a", has_text="Sealed Bids").click()
    expect(page.locator("main h1")).to_have_text("Sealed Bids")
    expect(page.locator("main dl")).to_contain_text("Prizes auctioned.")  # the options, explained
    # The players' rules the test game ships in its own package (help/en.md).
    expect(page.locator("#rules")).to_have_attribute("data-kind", "players")
    expect(page.locator("#rules img.rules-picture")).to_have_count(1)
    screenshot(page, "help-desktop")
    # A real game's rules for players (games/iwari/help/en.md); the numbered ones a link away.
    page.locator("main a", has_text="Help").click()
    page.locator("main a[href='#/help/iwari']").click()
    rules = page.locator("#rules")
    expect(rules).to_have_attribute("data-kind", "players")
    # The page's reader shifts headings one level down (the page's own h1 comes first).
    assert rules.locator("h3").count() >= 3 and rules.locator("li").count() > 5
    players = (ROOT / "src" / "ludoteca" / "games" / "iwari" / "help" / "en.md").read_text()
    first_section = re.search(r"^## (.+)$", players, re.M).group(1)
    expect(rules.locator("h3").first).to_have_text(first_section)
    expect(page.locator("#numbered-rules")).to_have_attribute("href", "/api/games/iwari/rules")
    screenshot(page, "rules-iwari-phone", PHONE)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{server.url}/#/leaderboard/{GAME}")
    expect(page.locator("#leaderboard-game")).to_have_value(GAME)
    # AGPL section 13: every page links the source the server runs, as a download.
    with page.expect_download() as download:
        page.locator("#source-link").click()
    assert download.value.suggested_filename.endswith("-source.tar.gz")
    assert tarfile.is_tarfile(download.value.path())
    page.locator("nav a", has_text="Lobby").click()
    create_table(page)  # makes a guest, whose profile exists
    name = page.locator(".top .user").inner_text().split(" ")[0]
    page.locator(".top .user").click()
    expect(page.locator("main h1")).to_contain_text(name)
    expect(page.locator("main")).to_contain_text("Games played: 0")


def test_a_finished_game_is_played_again_with_one_click(server, new_page) -> None:
    ana = new_page(server.url)
    table = create_table(ana)
    start(ana)
    play_to_end(ana)
    watcher = new_page(f"{server.url}/#/table/{table}")
    expect(watcher.locator("#table-status")).to_have_attribute("data-status", "over")
    expect(watcher.locator("#rematch")).to_have_count(0)  # only the players are offered it
    expect(watcher.locator("#rematch-link")).to_have_count(0)
    ana.locator("#rematch").click()
    expect(ana.locator("#waiting")).to_be_visible()
    again = ana.url.split("#/table/")[1]
    assert again != table
    # The seats moved on by one: the bot goes first now, Ana second.
    expect(ana.locator("#waiting li[data-seat='0']")).to_contain_text("Bot")
    expect(ana.locator("#waiting li[data-seat='1']")).to_contain_text("(you)")
    # Whoever watches the finished table sees the way on, live.
    expect(watcher.locator("#rematch-link")).to_have_attribute("href", f"#/table/{again}")
    start(ana)
    # Back at the finished table the button leads to the same rematch.
    ana.goto(f"{server.url}/#/table/{table}")
    expect(ana.locator("#rematch")).to_have_text("Join the rematch")
    ana.locator("#rematch").click()
    expect(ana).to_have_url(re.compile(f"#/table/{again}$"))


def test_the_other_player_joins_the_rematch_in_their_moved_on_seat(server, new_page) -> None:
    ana, bo, _ = two_people_playing(server, new_page)
    for _ in range(80):  # both play their first move whenever they have one, to the end
        if ana.locator("#scoreboard").is_visible():
            break
        for page in (ana, bo):
            if page.locator("#moves button.move:not([disabled])").count():
                click_first_move(page)
        ana.wait_for_timeout(50)
    expect(bo.locator("#scoreboard")).to_be_visible()
    expect(ana.locator("#rematch")).to_have_text("Rematch")
    bo.locator("#rematch").click()
    expect(bo.locator("#waiting")).to_be_visible()
    again = bo.url.split("#/table/")[1]
    expect(bo.locator("#waiting li[data-seat='0']")).to_contain_text("(you)")  # Bo goes first now
    # Ana's finished table learns of it live; her button takes her to the seat kept for her.
    expect(ana.locator("#rematch")).to_have_text("Join the rematch")
    ana.locator("#rematch").click()
    expect(ana).to_have_url(re.compile(f"#/table/{again}$"))
    expect(ana.locator("#waiting li[data-seat='1']")).to_contain_text("(you)")
    expect(bo.locator("#start")).to_be_enabled()  # every seat taken: Bo, who asked, may start


def test_a_private_table_is_joined_through_its_link(server, new_page) -> None:
    ana = new_page(server.url)
    ana.locator(f"[data-game={GAME}] button.primary").click()
    ana.locator("#create-form input[name=bot]").uncheck()
    ana.locator("#create-form input[name=private]").check()
    ana.locator("#create-submit").click()
    expect(ana.locator("#waiting")).to_be_visible()
    table = ana.url.split("#/table/")[1]
    bo = new_page(server.url)
    expect(bo.locator(f"[data-table='{table}']")).to_have_count(0)  # not in anyone else's lobby
    bo.goto(f"{server.url}/#/table/{table}")
    bo.locator("#join-private").click()
    expect(bo.locator("#waiting li[data-seat='1']")).to_contain_text("(you)")
    expect(ana.locator("#start")).to_be_enabled()


def test_the_bot_levels_show_their_ratings_where_a_player_picks_one(server, new_page) -> None:
    # As lichess shows its engine levels: each level's rating against the others, per game.
    page = new_page(server.url, locale="ja-JP")
    page.locator("[data-game=iwari] button.primary").click()
    choices = page.locator("#create-bot option")
    expect(choices).to_have_count(4)
    labels = choices.all_inner_texts()
    # On the display scale people's ratings have, "?" while provisional (8 games each).
    assert all(re.search(r"（レーティング \d+\??）$", label) for label in labels), labels
    assert labels[3].startswith("強い")
    screenshot(page, "bot-levels-ja-phone", PHONE)
