// Duel's front end, behind the interface the page shell loads a game by (see
// games/sun_tzu/web/README.md for the interface): the rounds shown so far, each seat's
// hand (your own cards, the other's count), and the card to play.
import { clear, el } from "/static/api.js";

let kind = null;

export function init(k) {
  kind = k;
}

const label = (seat) => kind.label(seat);

export function renderBoard(node, view, ctx) {
  if (!view) {
    clear(node, el("p", { class: "muted" }, ctx.viewer || ""));
    return;
  }
  const rounds = view.shown.map((round, i) => el("li", { "data-round": String(i + 1) },
    `Round ${i + 1}: `,
    ...kind.seatIds.map((seat) => el("span", { class: "card", "data-owner": seat }, `${label(seat)} ${round.cards[seat]} `)),
    round.winner ? `— ${label(round.winner)} wins it` : "— a tie"));
  const down = Object.keys(view.played).map((seat) => el("span", { class: "card", "data-owner": seat, "data-face": view.played[seat] === "hidden" ? "down" : "up" },
    `${label(seat)}: ${view.played[seat] === "hidden" ? "a card face down" : view.played[seat]}`));
  clear(node,
    el("p", { id: "duel-round" }, `Round ${Math.min(view.round, view.hand_size)} of ${view.hand_size}`),
    el("ol", { id: "duel-rounds" }, ...rounds),
    el("p", { id: "duel-down" }, ...down));
}

export function renderPlayers(node, view, ctx) {
  if (!view) return clear(node);
  clear(node, ...kind.seatIds.map((seat) => el("section", { class: "player", "data-seat": seat },
    el("h2", { class: "player-name" }, label(seat)),
    el("p", {}, `Rounds won: ${view.won[seat]}; cards left: ${view.cards_left[seat]}`))));
}

export function renderHand(node, view, ctx) {
  const hand = view?.hands?.[ctx.me];
  if (!hand || !hand.length) return false;
  clear(node, el("h2", { id: "hand-title" }, "Your hand"),
    el("div", { id: "hand", class: "hand" }, ...hand.map((card, i) => el("span", { class: "card", "data-owner": ctx.me, "data-index": String(i) }, String(card)))));
  return true;
}

export function renderDecision(node, ctx) {
  const decision = ctx.view?.decision;
  if (!ctx.deciding || !decision) return false;
  clear(node, el("h2", { id: "decision-title" }, kind.t("prompt.play", {})),
    el("div", { class: "choices" }, ...decision.cards.map((card) => el("button", {
      type: "button", "data-play-card": String(card), onclick: () => ctx.send({ type: "play", card }),
    }, `Play the ${card}`))));
  return true;
}
