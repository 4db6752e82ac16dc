"""Pictures for the README: one table per game in mid-game, as its first seat sees it,
taken by Debian's Chromium from a real server (embedded SQLite, bots in the other seats).

    .venv/bin/python tools/readme_pictures.py [GAME ...] [--out docs/img] [--seed 3] [--phone GAME]

Seat 0 plays seeded random legal moves through the HTTP API until the table reaches a
game's chosen move count; the page is then opened and photographed as the window shows
it, as JPEG (small enough to keep in the repository). ``--phone GAME`` also takes that
game's table as a phone shows it (390x844, touch), as ``GAME-phone.jpg``. Needs the dev extra (Playwright) and
/usr/bin/chromium (`make browser`).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import APIRequestContext, sync_playwright

from ludoteca.testing.launch import ServerProcess, free_port

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"

# game id -> (seats, moves played before the picture, the part brought into view)
SCENES: dict[str, tuple[int, int, str]] = {
    "bloodrage": (4, 60, "#board svg.br-map"),
    "crusaders": (3, 40, "#board svg.cr-map"),
    "iwari": (3, 60, "#board svg.iw-map"),
    "hadrianswall": (2, 90, "#board .hw-sheet-A"),  # the sheets, below the year's cards
}


def ok(answer: object, what: str) -> dict:  # type: ignore[type-arg]
    if not answer.ok:  # type: ignore[attr-defined]
        raise SystemExit(f"{what}: {answer.status} {answer.text()}")  # type: ignore[attr-defined]
    return answer.json()  # type: ignore[attr-defined, no-any-return]


def play_to(api: APIRequestContext, url: str, csrf: dict[str, str], game: str, seats: int, moves: int,
            rng: random.Random) -> str:
    """A table of ``game`` with bots in every seat but 0, played to ``moves`` moves and
    then on to seat 0's next turn."""
    table = ok(api.post(f"{url}/api/tables", data={"game": game, "seats": seats}, headers=csrf), "create")["id"]
    for _ in range(seats - 1):
        ok(api.post(f"{url}/api/tables/{table}/bots", data={"bot": "easy"}, headers=csrf), "bot")
    ok(api.post(f"{url}/api/tables/{table}/start", headers=csrf), "start")
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        snap = ok(api.get(f"{url}/api/tables/{table}"), "read")
        if snap.get("result"):
            return table
        if snap["version"] >= moves and snap["legal"]:  # the picture shows seat 0 to play
            return table
        if snap["legal"]:
            move = rng.choice(snap["legal"])
            api.post(f"{url}/api/tables/{table}/moves", data={"version": snap["version"], "move": move}, headers=csrf)
        else:
            time.sleep(0.1)
    raise SystemExit(f"{game}: the table did not reach {moves} moves")


def report(path: Path) -> None:
    shown = path.resolve().relative_to(ROOT) if path.resolve().is_relative_to(ROOT) else path
    print(f"{shown}: {path.stat().st_size // 1024} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=list(SCENES))
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--phone", choices=list(SCENES), default=None, help="also this game on a phone")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "LUDOTECA_DATABASE_URL": f"sqlite:///{tmp}/pictures.db"}
        env.pop("LUDOTECA_REDIS_URL", None)
        server = ServerProcess([sys.executable, "-m", "ludoteca.cli", "serve", "--port", str(port)], port=port,
                               env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = server.url
        try:
            try:
                server.start()
            except RuntimeError as error:
                raise SystemExit(str(error)) from None
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
                context = browser.new_context(viewport={"width": args.width, "height": 860})
                api = context.request
                ok(api.post(f"{url}/api/accounts", data={"username": "ada", "password": "pictures please"}), "account")
                session = ok(api.post(f"{url}/api/sessions", data={"username": "ada", "password": "pictures please"}),
                             "sign in")
                csrf = {"X-CSRF-Token": session["csrf"]}
                rng = random.Random(args.seed)
                for game in args.games:
                    seats, moves, part = SCENES[game]
                    table = play_to(api, url, csrf, game, seats, moves, rng)
                    page = context.new_page()
                    page.goto(f"{url}/#/table/{table}")
                    target = page.locator(part).first
                    target.wait_for()
                    page.wait_for_timeout(500)  # let the board settle after the last update
                    # After the settling (a late redraw, or the prompt bringing its own part of
                    # the board into view, would move the page): the scene's part, just under
                    # the pinned status bar.
                    target.evaluate("""(el) => {
                      const pinned = [...document.querySelectorAll('main *')]
                        .filter((e) => getComputedStyle(e).position === 'sticky')
                        .map((e) => e.getBoundingClientRect().height);
                      const under = Math.max(52, ...pinned) + 8;
                      window.scrollTo(0, el.getBoundingClientRect().top + scrollY - under); }""")
                    page.wait_for_timeout(300)
                    path = args.out / f"{game}.jpg"
                    page.screenshot(path=str(path), type="jpeg", quality=70)
                    report(path)
                    page.close()
                if args.phone:
                    seats, moves, _part = SCENES[args.phone]
                    table = play_to(api, url, csrf, args.phone, seats, moves, rng)
                    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                                has_touch=True, device_scale_factor=2,
                                                storage_state=context.storage_state())
                    page = phone.new_page()
                    page.goto(f"{url}/#/table/{table}")
                    page.locator("#prompt").wait_for()
                    page.wait_for_timeout(800)  # the board view zooms to the decision after drawing
                    # The whole board, as the reader sees it after one press of "Whole board"
                    # (the default zoom makes the decision's controls a finger wide: a corner of
                    # the map, less telling in a picture).
                    page.locator(".zoom-whole").first.click()
                    page.wait_for_timeout(400)
                    path = args.out / f"{args.phone}-phone.jpg"
                    page.screenshot(path=str(path), type="jpeg", quality=70)
                    report(path)
                    phone.close()
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
