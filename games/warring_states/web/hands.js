// Warring States on the replay page: the hands of the seats the perspective may see, and
// the spectator's view with the full state's hidden parts filled in ("Everything").
import { clear, el } from "/static/api.js";
import { cardName, cardText, label, seatIds, sideName, t } from "./names.js";

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
      extra.push(el("p", { class: "muted face-down" }, t("page.hands.face_down"), down.filter((d) => !d.up && d.card).map((d) => mini(d.card))));
    }
    const deck = side && v.decks?.[side];
    if (ctx.full && deck) extra.push(el("p", { class: "muted deck" }, t("page.hands.deck", { n: deck.length }), deck.map(mini)));
    const title = side ? t("page.hands.title.side", { seat: label(seat), side: sideName(side), n: hand.length })
      : t("page.hands.title.no_side", { seat: label(seat) });
    return el("section", { class: "hand-of", "data-seat": seat, "aria-label": t("page.hands.of", { seat: label(seat) }) },
      el("h3", {}, title),
      el("div", { class: "hand ws-hand" }, hand.length ? hand.map(mini) : el("span", { class: "muted" }, t("page.hands.empty"))),
      extra);
  }) : el("p", { class: "muted" }, t("page.hands.spectator", { seats: seatIds().map(label).join(", ") }));
  clear(node, el("h2", { id: "hands-title" }, t("page.hands.title")), el("div", { id: "hands-body" }, body));
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
