// Sun Tzu's front end: the one interface the page shell (service/static/game.js and
// replay.js) draws the game through. See README.md in this folder.
import { renderBoard as drawBoard, continueNote, fullView, outcomeNote, renderHands, renderPlayers } from "./board.js";
import { onKey, renderDecision, renderExtras, renderHand, slotFor } from "./decisions.js";
import { setKind, t } from "./names.js";

// the words the page shell names the extras by: set by init, in the page's language
export let extrasTitle = "";

// Once, before anything is drawn: the kind (catalogue and messages) the names come from.
export function init(kind) {
  setKind(kind);
  extrasTitle = t("page.extras.title");
}

// The board: status line, score track, event card, provinces; the placement's slots on
// the provinces while the seat places.
export function renderBoard(node, view, ctx) {
  const placing = ctx.deciding && view?.decision?.kind === "place";
  drawBoard(node, view, ctx, placing ? slotFor(ctx) : null);
}

// The rounds of a record: [round, the step its round_started is at] (the replay's buttons).
export function roundStarts(events) {
  return events.filter((e) => e.type === "round_started").map((e) => [e.payload.round, e.seq]);
}

export { continueNote, fullView, onKey, outcomeNote, renderDecision, renderExtras, renderHand, renderHands, renderPlayers };
