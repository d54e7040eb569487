// Drawing the board from the API's view: status, score track, event card, provinces,
// players and the outcome. Pure functions of the data they are given.
import { EVENTS, REASONS, SEATS, cap, cardName, clear, el, warlordName } from "./api.js";

const SCORING = [3, 6, 9];

export function scoringColumn(round) {
  const i = SCORING.findIndex((r) => r >= Math.max(round, 1));
  return i < 0 ? 2 : i;
}

// A card as shown on the table: face up with its name, or face down.
export function cardNode(card, owner, extra = "") {
  if (card === null || card === undefined) return null;
  if (card === "placed") {
    return el("span", { class: `card back ${owner} ${extra}`, "data-owner": owner, "data-face": "down" }, "face down");
  }
  return el("span", { class: `card ${owner} ${extra}`, "data-owner": owner, "data-card": card }, cardName(card));
}

export function seatLabel(seat, game, me) {
  const kind = game.seats?.[seat]?.kind || "";
  const who = seat === me ? " (you)" : kind.startsWith("ai:") ? " (computer)" : "";
  return `${cap(seat)}${who}`;
}

export function renderStatus(node, game, me) {
  const v = game.view;
  const bits = [];
  if (v) {
    bits.push(el("span", { class: "round" }, `Round ${Math.max(v.round, 1)} of 9`));
    bits.push(el("span", {}, `Next scoring after round ${SCORING[scoringColumn(v.round)]}`));
    if (v.privilege) bits.push(el("span", {}, `Privilege: ${cap(v.privilege)}`));
    const variant = `${cap(v.variant)} game${v.events ? ", with event cards" : ""}`;
    bits.push(el("span", {}, variant));
  }
  bits.push(el("span", {}, me ? `You play ${cap(me)}` : "You are watching"));
  clear(node, bits);
}

export function renderTrack(list, text, score) {
  const cells = [];
  for (let i = -9; i <= 9; i++) {
    const side = i < 0 ? "red" : i > 0 ? "blue" : "centre";
    const label = i === 0 ? "centre" : `${Math.abs(i)} toward ${cap(side)}`;
    cells.push(el("li", { class: `cell ${side}${i === score ? " now" : ""}`, "aria-current": i === score ? "true" : null,
      title: label, "data-pos": i }, String(Math.abs(i))));
  }
  clear(list, cells);
  text.textContent = score === 0 ? "Marker at the centre." : `Marker ${Math.abs(score)} toward ${score > 0 ? "Blue" : "Red"}.`;
}

export function renderEventCard(node, v) {
  node.hidden = !(v && v.events);
  if (node.hidden) return;
  if (!v.event_card) {
    clear(node, el("p", {}, "No event card is face up."));
    return;
  }
  const [name, text] = EVENTS[v.event_card] || [v.event_card, ""];
  clear(node,
    el("h2", { class: "small-title" }, "Event card"),
    el("p", {}, el("strong", { "data-event": v.event_card }, name), ` — ${text}`),
    el("p", { class: "muted" }, `${v.events_left} more in the event deck.`));
}

// slotFor(provinceName) may return a node (the placement control) or null.
export function renderProvinces(node, v, slotFor) {
  const column = scoringColumn(v.round);
  const panels = v.provinces.map((p, i) => {
    const owner = p.armies.blue ? "blue" : p.armies.red ? "red" : null;
    const points = p.display.map((pts, k) =>
      el("span", { class: `pts${k === column ? " now" : ""}`, title: `after round ${SCORING[k]}`,
        "aria-label": `${pts} points after round ${SCORING[k]}${k === column ? " (next scoring)" : ""}` }, String(pts)));
    const cards = SEATS.map((s) => cardNode(p.cards[s], s)).filter(Boolean);
    const markers = SEATS.filter((s) => p.markers[s]).map((s) => `${cap(s)} ${p.markers[s]}`);
    return el("section", {
      class: `province${owner ? ` held-${owner}` : ""}${v.current === p.name ? " current" : ""}${p.fought ? " fought" : ""}`,
      "data-province": p.name, "aria-label": p.name },
      el("h3", {}, p.name, el("span", { class: "key", "aria-hidden": "true" }, String(i + 1))),
      el("p", { class: "display", title: "points at the scorings after rounds 3, 6 and 9" }, points),
      el("p", { class: "armies" },
        el("span", { class: "army blue", "data-seat": "blue" }, `Blue ${p.armies.blue}`),
        el("span", { class: "army red", "data-seat": "red" }, `Red ${p.armies.red}`)),
      el("p", { class: "muted holder" }, owner ? `Held by ${cap(owner)}` : "Empty"),
      markers.length ? el("p", { class: "markers" }, `6-markers: ${markers.join(", ")}`) : null,
      cards.length ? el("p", { class: "placed" }, cards[0], cards[1] ? " vs " : null, cards[1] || null) : null,
      slotFor ? slotFor(p.name, i) : null);
  });
  clear(node, panels);
}

export function renderPlayers(node, game, me) {
  const v = game.view;
  const panels = SEATS.map((seat) => {
    const p = v.players[seat];
    const rows = [
      ["Reserve", p.reserve], ["Set aside", p.aside], ["On the board", p.on_board],
      ["Hand", plural(p.hand_size, "card")], ["Deck", plural(p.deck_size, "card")],
    ];
    if (v.variant === "standard") {
      const played = p.warlords_played.map(warlordName);
      rows.push(["Warlords", `${p.warlords_held} held${played.length ? `; played: ${played.join(", ")}` : ""}`]);
      if (p.warlords) rows.push([seat === me ? "Yours" : "Kept", p.warlords.map(warlordName).join(", ") || "none yet"]);
    }
    const gone = p.discarded.map((c) => cardNode(c, seat, "mini"));
    return el("section", { class: `player ${seat}`, "data-seat": seat },
      el("h3", {}, seatLabel(seat, game, me)),
      playerLink(game.seats?.[seat]),
      el("dl", {}, rows.map(([k, val]) => [el("dt", {}, k), el("dd", { "data-field": k }, String(val))])),
      gone.length ? el("p", { class: "gone" }, el("span", { class: "muted" }, "Out of the game: "), gone) : null);
  });
  clear(node, panels);
}

// The person in a seat, linked to their page (none for the computer or an open seat).
function playerLink(seat) {
  if (!seat?.name || !seat.player) return null;
  return el("p", { class: "player-name" }, el("a", { href: `/p/${encodeURIComponent(seat.player)}` }, seat.name));
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function outcomeText(outcome, me) {
  const reason = REASONS[outcome.reason] || outcome.reason;
  let head;
  if (!outcome.winner) head = "The game is a draw";
  else if (me) head = outcome.winner === me ? "You win" : `${cap(outcome.winner)} wins — you lose`;
  else head = `${cap(outcome.winner)} wins`;
  const round = outcome.round && outcome.reason !== "points" ? ` (round ${outcome.round})` : "";
  return [head, `${cap(reason)}${round}.`];
}

// The node's data-replay (a URL), when set, adds a link to the game's replay.
export function renderOutcome(node, outcome, me) {
  node.hidden = !outcome;
  if (!outcome) return;
  const [head, why] = outcomeText(outcome, me);
  const score = outcome.score === 0 ? "at the centre" : `${Math.abs(outcome.score)} toward ${outcome.score > 0 ? "Blue" : "Red"}`;
  const offBoard = outcome.score === undefined; // ended by the clock or an agreed draw
  clear(node,
    el("h2", {}, head),
    el("p", { "data-reason": outcome.reason }, why),
    offBoard ? null : el("p", { class: "muted" }, `Final marker ${score}; reserves: Blue ${outcome.reserve?.blue ?? "?"}, Red ${outcome.reserve?.red ?? "?"}.`),
    el("p", { class: "buttons" }, node.dataset.replay ? el("a", { href: node.dataset.replay, class: "button primary", "data-replay-link": "" }, "Watch the replay") : null,
      el("a", { href: "/" }, "Start a new game")));
}
