"""The board kit (web/js/board.js): every game's board uses it for its UI state, move keys,
clickable targets and focus restore, rather than a copy of its own; and the kit does what
the boards relied on (a key per move, keyboard and labels, a click for the innermost
target alone, the focus back on the same control after a redraw)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "ludoteca" / "web"
BOARDS = sorted((ROOT / "src" / "ludoteca" / "games").glob("*/web/board.js"))

# What a board would write if it kept its own copy of what the kit does.
COPIES = {
    "a move key function": re.compile(r"=>\s*JSON\.stringify\(\s*\w+\s*\)\s*;"),
    "a data-move set by hand": re.compile(r"""setAttribute\(\s*["']data-move["']|["']data-move["']\s*:"""),
    "clickable() called directly": re.compile(r"\bclickable\s*\("),
    "its own focus restore": re.compile(r"document\.activeElement"),
    "a WeakMap of UI state": re.compile(r"new\s+WeakMap\b"),
    "UI state kept on the root": re.compile(r"\broot\.[A-Za-z_]\w*\s*(?:\|\|)?=(?!=)"),
}


def test_the_four_boards_are_found() -> None:
    assert {path.parent.parent.name for path in BOARDS} >= {"bloodrage", "crusaders", "hadrianswall", "iwari"}


@pytest.mark.parametrize("board", BOARDS, ids=lambda path: path.parent.parent.name)
def test_each_board_uses_the_kit_and_no_copy_of_it(board: Path) -> None:
    source = board.read_text(encoding="utf-8")
    assert re.search(r'^import \{[^}]*\bmoveTarget\b[^}]*\} from "/js/board\.js";$', source, re.M), \
        f"{board} does not mark its targets with the kit's moveTarget"
    assert re.search(r'^import \{[^}]*\bkeepFocus\b[^}]*\} from "/js/board\.js";$', source, re.M), \
        f"{board} does not restore the focus with the kit's keepFocus"
    found = [what for what, pattern in COPIES.items() if pattern.search(source)]
    assert not found, f"{board} keeps its own copy of the kit: {found}"


def test_the_frames_list_of_moves_keys_its_buttons_as_the_boards_do() -> None:
    moves = (WEB / "js" / "table" / "moves.js").read_text(encoding="utf-8")
    assert '"data-move": moveKey(move)' in moves
    kit = (WEB / "js" / "board.js").read_text(encoding="utf-8")
    assert "export const moveKey = (move) => JSON.stringify(move);" in kit


KIT_IN_A_PAGE = """async () => {
  const kit = await import('/js/board.js');
  const { svg } = await import('/js/dom.js');
  const root = document.createElement('div');
  document.body.append(root);
  const played = [];
  const fresh = () => ({ picked: null });
  // A board of one zone holding a piece (two targets, one inside the other) and a step.
  function render(root, ctx) {
    const ui = kit.boardState(root, fresh);
    kit.drawnWith(root, ctx, render);
    const map = svg('svg', { viewBox: '0 0 100 100', width: 100, height: 100 });
    const zone = svg('g', {}, svg('rect', { width: 100, height: 60 }));
    kit.moveTarget(zone, { type: 'zone' }, ctx, 'the zone', 'legal');
    const piece = svg('circle', { cx: 50, cy: 30, r: 10 });
    kit.moveTarget(piece, { type: 'piece', at: 1 }, ctx, 'the piece', 'legal');
    zone.append(piece);
    const step = svg('rect', { y: 70, width: 20, height: 20, class: ui.picked ? 'picked' : '' });
    kit.choiceTarget(step, 'pick:a', 'pick a', 'legal', () => { ui.picked = ui.picked ? null : 'a'; ui.redraw(); });
    map.append(zone, step);
    kit.keepFocus(root, () => root.replaceChildren(map));
  }
  const ctx = { play: (move) => played.push(move) };
  render(root, ctx);
  const piece = root.querySelector('circle');
  const marks = ['data-move', 'role', 'tabindex', 'aria-label', 'class'].map((k) => piece.getAttribute(k));
  piece.focus();
  piece.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  render(root, ctx);
  const kept = document.activeElement.getAttribute('data-move');
  const same = document.activeElement === piece;
  root.querySelector('circle').dispatchEvent(new MouseEvent('click', { bubbles: true }));
  const step = root.querySelector('[data-select]');
  step.focus();
  step.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  const picked = kit.boardState(root, fresh).picked;
  const stepFocused = document.activeElement.getAttribute('data-select');
  const stepRedrawn = root.querySelector('[data-select]').getAttribute('class');
  const dropped = kit.dropBoardState(root);
  const afresh = kit.boardState(root, fresh).picked;
  root.remove();
  return { marks, played, kept, same, picked, stepFocused, stepRedrawn, dropped: dropped.picked, afresh };
}"""


@pytest.mark.browser
def test_the_kit_marks_targets_plays_moves_and_keeps_the_focus(server, new_page) -> None:
    page = new_page(server.url)
    out = page.evaluate(KIT_IN_A_PAGE)
    piece = json.dumps({"type": "piece", "at": 1}, separators=(",", ":"))
    assert out["marks"] == [piece, "button", "0", "the piece", "legal"]
    # Enter and a click play the piece's move, never the zone's that holds it.
    assert out["played"] == [{"type": "piece", "at": 1}, {"type": "piece", "at": 1}]
    # The redraw made new elements; the focus went to the new control of the same move.
    assert out["kept"] == piece and out["same"] is False
    # A step changes the UI state and draws again with the latest context, focus kept.
    assert out["picked"] == "a" and out["stepRedrawn"] == "picked legal" and out["stepFocused"] == "pick:a"
    assert out["dropped"] == "a" and out["afresh"] is None
