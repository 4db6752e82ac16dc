// The board: the game module draws it (or the frame shows the view when there is none, or
// when the module fails) inside the viewport that pans and zooms it on a phone
// (boardview.js); a new decision of the reader's is brought into view.
import { coveredMoves } from "../board.js";
import { BoardView } from "../boardview.js";
import { h } from "../dom.js";
import { genericBoard } from "../gamemodule.js";
import { language, t } from "../i18n.js";
import { animateUpdate, markChanges, piecePlaces } from "./lastmove.js";

// What a game module's render() and moveLabel() are given (games/README.md).
export function boardContext(page) {
  const { store, act } = page;
  const s = store.state;
  return {
    view: s.view, legal: s.legal, events: s.events, seat: s.seat, seats: store.seats(), pending: s.pending,
    result: s.result, game: store.game().id, lang: language(), t, play: (move) => act.play(move), busy: s.busy,
    // A redraw of the board's own UI state keeps the marks of the last moves (board.js).
    drawn: (root) => markChanges(root, store.baselineView(), s.view, !store.seated()),
  };
}

export function boardPanel(page) {
  const { store } = page;
  const s = store.state;
  // The element the game draws into stays the same for the page's life, so a module may
  // keep its own state with it (see board.js).
  const board = h("div", { class: "board", id: "board" });
  const view = new BoardView(board, t);
  const element = h("section", { class: "panel", id: "board-panel" }, view.element);

  function draw() {
    drawGame();
    focusDecision();
  }

  // The view last drawn: a new one is an update, whose moves are animated.
  let drawnView = null;

  // Draws the game and notes which legal moves its board can take (s.covered, for the
  // status bar): none when the frame draws the view itself. What changed since the
  // reader's last move is marked on it, and what this update changed moves.
  function drawGame() {
    s.covered = null;
    // A started table whose view has not come yet (an answer without one, overtaken on a
    // reload): nothing to draw until it comes; a board is never asked to draw no view.
    if (s.view == null) return;
    if (s.module && typeof s.module.render === "function") {
      try {
        board.classList.remove("failed");
        const update = drawnView !== null && s.view !== drawnView;
        const places = update ? piecePlaces(board) : null;
        s.module.render(board, boardContext(page));
        s.covered = coveredMoves(board);
        markChanges(board, store.baselineView(), s.view, !store.seated());
        if (update) animateUpdate(board, places, drawnView, s.view);
        drawnView = s.view;
        return;
      } catch (err) {
        console.error("the board failed to draw", err);
        board.classList.add("failed");
      }
    }
    genericBoard(board, s.view);
  }

  // A new decision of this reader's brings its controls into view, and on a phone the
  // prompt to the top of the screen with the board under it. It is new when its moves
  // differ from the last one's, or when this page has moved since.
  function focusDecision() {
    const decision = store.decision();
    const isNew = decision !== null && decision !== view.focusKey;
    view.fit({ decision });
    const typing = document.activeElement && ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
    if (isNew && page.oneColumn.matches && !typing) {
      const top = page.panels.prompt.element.getBoundingClientRect().top;
      if (Math.abs(top) > 2) window.scrollBy(0, top);
    }
  }

  function destroy() {
    view.destroy();
    if (s.module && typeof s.module.destroy === "function") s.module.destroy(board);
  }

  return { element, board, view, draw, drawGame, focusDecision, destroy };
}
