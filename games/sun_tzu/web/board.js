// Sun Tzu's board from a view the API gives: status line, score track, face-up event card,
// provinces, the players' panels, the hands (replays) and the outcome's final marker.
// Pure functions of the data they are given; seat colours come from the page (the shell
// sets --seat on every element with data-seat, data-owner or data-colour).
import { clear, el } from "/static/api.js";
import { SCORING, cardName, eventName, eventText, label, provinceName, seats, variantName, warlordName } from "./names.js";

export function scoringColumn(round) {
  const i = SCORING.findIndex((r) => r >= Math.max(round, 1));
  return i < 0 ? 2 : i;
}

// A card as shown on the table: face up with its name, or face down.
export function cardNode(card, owner, extra = "") {
  if (card === null || card === undefined) return null;
  if (card === "placed") {
    return el("span", { class: `card back ${extra}`, "data-owner": owner, "data-face": "down" }, "face down");
  }
  return el("span", { class: `card ${extra}`, "data-owner": owner, "data-card": card }, cardName(card));
}

export function seatLabel(seat, game, me) {
  const kind = game?.seats?.[seat]?.kind || "";
  const who = seat === me ? " (you)" : kind.startsWith("ai:") ? " (computer)" : "";
  return `${label(seat)}${who}`;
}

function statusNode(v, ctx) {
  const bits = [];
  bits.push(el("span", { class: "round" }, `Round ${Math.max(v.round, 1)} of 9`));
  bits.push(el("span", {}, `Next scoring after round ${SCORING[scoringColumn(v.round)]}`));
  if (v.privilege) bits.push(el("span", {}, `Privilege: ${label(v.privilege)}`));
  bits.push(el("span", {}, `${variantName(v.variant)} game${v.events ? ", with event cards" : ""}`));
  bits.push(el("span", { class: "viewer" }, ctx.viewer || ""));
  return el("section", { id: "status", class: "panel status", "aria-label": "Game status" }, bits);
}

function trackNode(score) {
  const [first, second] = seats();
  const cells = [];
  for (let i = -9; i <= 9; i++) {
    const side = i < 0 ? second : i > 0 ? first : null;
    const title = side ? `${Math.abs(i)} toward ${label(side)}` : "centre";
    cells.push(el("li", { class: `cell${side ? "" : " centre"}${i === score ? " now" : ""}`, "data-colour": side,
      "aria-current": i === score ? "true" : null, title, "data-pos": i }, String(Math.abs(i))));
  }
  const text = score === 0 ? "Marker at the centre." : `Marker ${Math.abs(score)} toward ${label(score > 0 ? first : second)}.`;
  return el("section", { class: "panel", "aria-labelledby": "track-title" },
    el("h2", { id: "track-title", class: "small-title" }, "Score track"),
    el("ol", { id: "track", class: "track" }, cells),
    el("p", { id: "track-text", class: "muted" }, text));
}

function eventCardNode(v) {
  if (!v.events) return null;
  const body = v.event_card
    ? [el("h2", { class: "small-title" }, "Event card"),
      el("p", {}, el("strong", { "data-event": v.event_card }, eventName(v.event_card)), ` — ${eventText(v.event_card)}`),
      el("p", { class: "muted" }, `${v.events_left} more in the event deck.`)]
    : [el("p", {}, "No event card is face up.")];
  return el("section", { id: "event-card", class: "panel event-card", "aria-label": "Face-up event card" }, body);
}

// slotFor(provinceName, index) may return a node (the placement control) or null.
function provincesNode(v, slotFor) {
  const column = scoringColumn(v.round);
  const [first, second] = seats();
  const panels = v.provinces.map((p, i) => {
    const owner = p.armies[first] ? first : p.armies[second] ? second : null;
    const points = p.display.map((pts, k) =>
      el("span", { class: `pts${k === column ? " now" : ""}`, title: `after round ${SCORING[k]}`,
        "aria-label": `${pts} points after round ${SCORING[k]}${k === column ? " (next scoring)" : ""}` }, String(pts)));
    const cards = seats().map((s) => cardNode(p.cards[s], s)).filter(Boolean);
    const markers = seats().filter((s) => p.markers[s]).map((s) => `${label(s)} ${p.markers[s]}`);
    return el("section", {
      class: `province${owner ? " held" : ""}${v.current === p.name ? " current" : ""}${p.fought ? " fought" : ""}`,
      "data-colour": owner, "data-province": p.name, "aria-label": provinceName(p.name) },
      el("h3", {}, provinceName(p.name), el("span", { class: "key", "aria-hidden": "true" }, String(i + 1))),
      el("p", { class: "display", title: "points at the scorings after rounds 3, 6 and 9" }, points),
      el("p", { class: "armies" }, seats().map((s) => el("span", { class: "army", "data-seat": s }, `${label(s)} ${p.armies[s]}`))),
      el("p", { class: "muted holder" }, owner ? `Held by ${label(owner)}` : "Empty"),
      markers.length ? el("p", { class: "markers" }, `6-markers: ${markers.join(", ")}`) : null,
      cards.length ? el("p", { class: "placed" }, cards[0], cards[1] ? " vs " : null, cards[1] || null) : null,
      slotFor ? slotFor(p.name, i) : null);
  });
  return el("section", { id: "board", class: "provinces", "aria-label": "Provinces" }, panels);
}

// The whole board area: ctx.slotFor (the placement's controls) when the seat places.
export function renderBoard(node, v, ctx, slotFor = null) {
  if (!v) return clear(node, el("section", { id: "status", class: "panel status" }, el("span", { class: "viewer" }, ctx.viewer || "")));
  return clear(node,
    statusNode(v, ctx),
    trackNode(v.score),
    eventCardNode(v),
    ctx.legend ? el("p", { class: "muted legend" }, "Each province shows its points at the scorings after rounds 3, 6 and 9, the next one highlighted.") : null,
    provincesNode(v, slotFor));
}

export function renderPlayers(node, v, ctx) {
  const { game, me } = ctx;
  const panels = seats().map((seat) => {
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
    // once the game is over the API shows every hand: so does the page
    const final = v.outcome && p.hand && seat !== me && ctx.finalHands
      ? el("p", { class: "final-hand" }, el("span", { class: "muted" }, "Hand at the end: "), p.hand.map((c) => cardNode(c, seat, "mini")))
      : null;
    return el("section", { class: `player ${seat}`, "data-seat": seat },
      el("h3", {}, seatLabel(seat, game, me)),
      playerLink(game?.seats?.[seat]),
      el("dl", {}, rows.map(([k, val]) => [el("dt", {}, k), el("dd", { "data-field": k }, String(val))])),
      gone.length ? el("p", { class: "gone" }, el("span", { class: "muted" }, "Out of the game: "), gone) : null,
      final);
  });
  clear(node, panels);
}

// The person in a seat, linked to their page (none for the computer or an open seat).
function playerLink(seat) {
  if (!seat?.name || !seat.player) return null;
  return el("p", { class: "player-name" }, el("a", { href: `/p/${encodeURIComponent(seat.player)}` }, seat.name));
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// The replay's hands: ctx.shown are the seats whose hands the perspective shows ("full":
// with the cards drawn and still to keep, and the deck's order).
export function renderHands(node, v, ctx) {
  const shown = ctx.shown || [];
  const body = shown.length ? shown.map((seat) => {
    const p = v.players[seat];
    const hand = p.hand || [];
    const extra = [];
    if (ctx.full && p.drawn?.length) extra.push(el("p", { class: "muted" }, "Drawn, still to keep: ", p.drawn.map((c) => cardNode(c, seat, "mini"))));
    if (ctx.full && p.deck) extra.push(el("p", { class: "muted deck" }, `Deck order (${p.deck.length}): `, p.deck.map((c) => cardNode(c, seat, "mini"))));
    return el("section", { class: "hand-of", "data-seat": seat, "aria-label": `${label(seat)}'s hand` },
      el("h3", {}, `${label(seat)}'s hand (${hand.length})`),
      el("div", { class: "hand" }, hand.length ? hand.map((c) => cardNode(c, seat)) : el("span", { class: "muted" }, "empty")),
      extra);
  }) : el("p", { class: "muted" }, `A spectator sees no hand. Choose ${seats().map(label).join(", ")} or Everything to see them.`);
  clear(node, el("h2", { id: "hands-title" }, "Hands"), el("div", { id: "hands-body" }, body));
  node.setAttribute("aria-labelledby", "hands-title");
}

// The spectator's view with everything the full state holds filled in (replays, "full").
export function fullView(spectator, full) {
  if (full?.players && full?.provinces) return full; // already a view of everything
  const st = full?.state || {};
  const v = structuredClone(spectator);
  seats().forEach((seat, i) => {
    const p = v.players[seat];
    if (st.hands) p.hand = st.hands[i];
    if (st.kept) p.warlords = st.kept[i];
    if (st.decks) p.deck = st.decks[i];
    if (st.drawn) p.drawn = st.drawn[i];
    if (st.burned) p.discarded_face_down = st.burned[i];
  });
  v.provinces.forEach((province, k) => {
    seats().forEach((seat, i) => {
      if (province.cards[seat] === "placed" && st.placed?.[i]) province.cards[seat] = st.placed[i][k];
    });
  });
  return v;
}

// The line under the outcome: where the marker ended and the reserves (none when the game
// ended off the board: a clock, an agreed draw).
export function outcomeNote(outcome) {
  if (outcome.score === undefined) return null;
  const [first, second] = seats();
  const score = outcome.score === 0 ? "at the centre" : `${Math.abs(outcome.score)} toward ${label(outcome.score > 0 ? first : second)}`;
  const reserves = seats().map((s) => `${label(s)} ${outcome.reserve?.[s] ?? "?"}`).join(", ");
  return `Final marker ${score}; reserves: ${reserves}.`;
}

// Why a replay's step cannot be played on from ("" when it can).
export function continueNote(v) {
  const owed = Object.values(v.pending || {});
  return owed.includes("sources") ? "This step is in the middle of a battle: choose a step before or after it." : "";
}

