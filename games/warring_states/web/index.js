// Warring States' front end, behind the one interface the page shell (service/static/game.js
// and replay.js) draws a game through (games/sun_tzu/web/README.md; this folder's README.md).
import { renderBoard as drawBoard, renderPlayers } from "./board.js";
import { opMarks, renderDecision, renderHand } from "./decisions.js";
import { fullView, renderHands } from "./hands.js";
import { setKind } from "./names.js";

export function init(kind) {
  setKind(kind);
}

// The board; while the seat builds a military operation, the map's areas take clicks.
export function renderBoard(node, view, ctx) {
  drawBoard(node, view, ctx, opMarks(ctx));
}

export { fullView, renderDecision, renderHand, renderHands, renderPlayers };
