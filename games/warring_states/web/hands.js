// Warring States on the replay page: the hands of the seats the perspective may see, and
// the spectator's view with the full state's hidden parts filled in ("Everything").
import { clear, el } from "/static/api.js";
import { cardName, cardText, label, seatIds, sideName } from "./names.js";

const mini = (card) => el("span", { class: "card ws-card mini", "data-card": card, title: cardText(card) }, cardName(card));

// ctx.shown: the seats whose hands the perspective sees; ctx.full: everything (deck order,
// the faces of cards played face down).
export function renderHands(node, v, ctx) {
  const shown = ctx.shown || [];
  const body = shown.length ? shown.map((seat) => {
    const side = v.sides?.[seat];
    const hand = (side && v.hands?.[side]) || [];
    const extra = [];
    const down = (side && v.discards?.[side]) || [];
    if (ctx.full && down.some((d) => !d.up && d.card)) {
      extra.push(el("p", { class: "muted face-down" }, "Played face down: ", down.filter((d) => !d.up && d.card).map((d) => mini(d.card))));
    }
    const deck = side && v.decks?.[side];
    if (ctx.full && deck) extra.push(el("p", { class: "muted deck" }, `Deck, top first (${deck.length}): `, deck.map(mini)));
    const title = side ? `${label(seat)} (${sideName(side)}): hand (${hand.length})` : `${label(seat)}: no side yet`;
    return el("section", { class: "hand-of", "data-seat": seat, "aria-label": `${label(seat)}'s hand` },
      el("h3", {}, title),
      el("div", { class: "hand ws-hand" }, hand.length ? hand.map(mini) : el("span", { class: "muted" }, "empty")),
      extra);
  }) : el("p", { class: "muted" }, `A spectator sees no hand. Choose ${seatIds().map(label).join(", ")} or Everything to see them.`);
  clear(node, el("h2", { id: "hands-title" }, "Hands"), el("div", { id: "hands-body" }, body));
  node.setAttribute("aria-labelledby", "hands-title");
}

// The full state (knowledge.full_view) holds both hands, the decks in order and every
// discard's face; the board and the rest come from the spectator's view.
export function fullView(spectator, full) {
  if (!full || !spectator) return spectator;
  const v = structuredClone(spectator);
  if (full.hands) v.hands = structuredClone(full.hands);
  if (full.decks) v.decks = structuredClone(full.decks);
  if (full.discards) v.discards = structuredClone(full.discards);
  return v;
}
