// Warring States' front end, behind the one interface the page shell (service/static/game.js
// and replay.js) draws a game through (games/sun_tzu/web/README.md; this folder's README.md).
import { renderBoard as drawBoard, renderPlayers } from "./board.js";
import { opMarks, renderDecision as drawDecision, renderHand as drawHand } from "./decisions.js";
import { fullView, renderHands } from "./hands.js";
import { generalName, kindOf, setKind } from "./names.js";
import { tip, tipped } from "./tips.js";

export function init(kind) {
  setKind(kind);
}

// The board; while the seat builds a military operation, the map's areas take clicks.
export function renderBoard(node, view, ctx) {
  drawBoard(node, view, ctx, opMarks(ctx));
}

// The hand and the decision panel, each card and general with its tip (added here, after
// decisions.js drew them, so that module stays about decisions).
export function renderHand(node, view, ctx) {
  const shown = drawHand(node, view, ctx);
  tipParts(node);
  return shown;
}

export function renderDecision(node, ctx) {
  const shown = drawDecision(node, ctx);
  tipParts(node);
  return shown;
}

function tipParts(node) {
  for (const card of node.querySelectorAll("[data-card]:not([data-tip])")) {
    tipped(card, tip([`tip.card.${kindOf(card.dataset.card)}`], ["tip.card.down"]));
  }
  for (const input of node.querySelectorAll("[data-general]")) {
    const g = input.dataset.general;
    const holder = input.closest("label") || input;
    if (!holder.dataset.tip) tipped(holder, tip([`tip.general.${g}`], ["tip.general.ready", { general: generalName(g) }]));
  }
}

export { fullView, renderHands, renderPlayers };
