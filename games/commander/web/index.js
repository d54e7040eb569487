// Commander's front end, behind the one interface the page shell (service/static/game.js
// and replay.js) draws a game through (games/sun_tzu/web/README.md; this folder's README.md).
import { renderBoard as drawBoard, fullView, outcomeNote, renderPlayers } from "./board.js";
import { boardMarks, onKey, renderDecision } from "./decisions.js";
import { setKind } from "./names.js";

// Once, before anything is drawn: the kind (catalogue and messages) the words come from.
export function init(kind) {
  setKind(kind);
}

// The board; while the seat decides, its squares take clicks, drags and keys.
export function renderBoard(node, view, ctx) {
  drawBoard(node, view, ctx, view ? boardMarks(ctx) : {});
}

// Commander has no hand: the pieces are all on the board.
export function renderHand() {
  return false;
}

export { fullView, onKey, outcomeNote, renderDecision, renderPlayers };
