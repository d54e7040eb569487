// Sun Tzu's board from a view the API gives: status line, score track, face-up event card,
// provinces, the players' panels, the hands (replays) and the outcome's final marker.
// Pure functions of the data they are given; seat colours come from the page (the shell
// sets --seat on every element with data-seat, data-owner or data-colour).
import { clear, el } from "/static/api.js";
import {
  FRAMED, SCORING, cardName, cardTip, eventName, eventText, eventTip, label, listed, neighbours, borders, provinceName, seats, t, tip,
  variantName, warlordName, warlordTip,
} from "./names.js";
import { tipped } from "./tips.js";

export function scoringColumn(round) {
  const i = SCORING.findIndex((r) => r >= Math.max(round, 1));
  return i < 0 ? 2 : i;
}

// The scoring still to come (its index in SCORING), or -1 once the last one is done.
export function nextScoring(v) {
  if (v.outcome || v.phase === "over") return -1;
  const round = Math.max(v.round, 1);
  const done = SCORING.includes(round) && ["scored", "draw"].includes(v.phase);
  return SCORING.findIndex((r) => (done ? r > round : r >= round));
}

// A card as shown on the table: a card shape, face up with its value, or face down; its
// tooltip says what it does.
export function cardNode(card, owner, extra = "") {
  if (card === null || card === undefined) return null;
  if (card === "placed") {
    return tipped(el("span", { class: `card back ${extra}`, "data-owner": owner, "data-face": "down" }, "face down"), tip("tip.card.placed"));
  }
  return tipped(el("span", { class: `card${FRAMED.includes(card) ? " framed" : ""} ${extra}`, "data-owner": owner, "data-card": card,
    "data-pip": card === "plague" ? "☠" : card }, cardName(card)), cardTip(card));
}

// "ai:medium" -> "medium" (null: a person)
export const aiLevel = (seatKind) => (String(seatKind || "").startsWith("ai:") ? String(seatKind).slice(3) : null);
const levelName = (level, ctx) => (ctx?.levelName ? ctx.levelName(level) : level);

export function seatLabel(seat, game, me, ctx = null) {
  const level = aiLevel(game?.seats?.[seat]?.kind);
  const who = seat === me ? (level ? ` (you, played by the computer: ${levelName(level, ctx)})` : " (you)")
    : level ? ` (computer, ${levelName(level, ctx)})` : "";
  return `${label(seat)}${who}`;
}

function statusNode(v, ctx) {
  const bits = [];
  bits.push(el("span", { class: "round" }, `Round ${Math.max(v.round, 1)} of 9`));
  const next = nextScoring(v);
  if (next >= 0) bits.push(el("span", { class: "next-scoring" }, `Next scoring after round ${SCORING[next]}`));
  if (v.privilege) bits.push(tipped(el("span", { class: "privilege" }, `Privilege: ${label(v.privilege)}`), tip("tip.privilege")));
  bits.push(el("span", {}, `${variantName(v.variant)} game${v.events ? ", with event cards" : ""}`));
  for (const seat of seats()) {
    const level = aiLevel(ctx.game?.seats?.[seat]?.kind);
    if (level && seat !== ctx.me) {
      bits.push(el("span", { class: "ai-level", "data-ai-level": level, "data-colour": seat },
        `${label(seat)}: the computer, ${levelName(level, ctx)} level`));
    }
  }
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
  return el("section", { class: "panel track-panel", "aria-labelledby": "track-title" },
    el("h2", { id: "track-title", class: "small-title" }, "Score track"),
    tipped(el("ol", { id: "track", class: "track", "aria-label": text }, cells), tip("tip.track")),
    el("p", { id: "track-text", class: "muted" }, text));
}

function eventCardNode(v) {
  if (!v.events) return null;
  const body = v.event_card
    ? [el("h2", { class: "small-title" }, "Event card"),
      tipped(el("div", { class: "event-face", "data-event": v.event_card },
        el("strong", {}, eventName(v.event_card)), el("span", {}, eventText(v.event_card))), eventTip(v.event_card)),
      el("p", { class: "muted" }, `${v.events_left} more in the event deck.`)]
    : [el("p", {}, "No event card is face up.")];
  return el("section", { id: "event-card", class: "panel event-card", "aria-label": "Face-up event card" }, body);
}

// The battle fought in a province this round, from the events the page has seen (the game
// page gives ctx.events; a replay does not, and shows the two cards alone).
function battleOf(province, ctx) {
  const events = ctx.events || [];
  let start = 0;
  events.forEach((e, i) => { if (e.type === "round_started") start = i; });
  for (let i = events.length - 1; i >= start; i--) {
    const e = events[i];
    // a battle whose winner chose where armies come from is told as battle_revealed first
    if ((e.type === "battle" || e.type === "battle_revealed") && e.payload?.province === province) return e.payload;
  }
  return null;
}

function resultText(b) {
  if (!b) return "";
  if (b.plague) return t(b.deadly ? "battle.deadly" : "battle.plague");
  if (!b.winner) return t("battle.tie");
  return t("battle.win", { winner: label(b.winner), margin: b.margin });
}

// A province's battle: the two cards face to face and what happened. Once the round's cards
// leave the table (the draw), the battle is still shown from its event until the next round.
function battleNode(p, ctx) {
  const placed = seats().some((s) => p.cards[s]);
  const fought = battleOf(p.name, ctx);
  const b = p.fought || !placed ? fought : null;
  const faces = placed ? p.cards : b?.cards || {};
  const cards = seats().map((s) => cardNode(faces[s], s)).filter(Boolean);
  if (!cards.length) return null;
  const revealed = p.fought || (ctx.view?.current === p.name) || !placed;
  const result = b ? resultText(b) : "";
  const node = el("div", { class: `battle${revealed ? " revealed" : ""}`, "data-battle": p.name, "data-past": placed ? null : "" },
    el("div", { class: "battle-cards" }, cards[0], cards[1] ? el("span", { class: "vs", "aria-hidden": "true" }, "vs") : null, cards[1] || null),
    result ? el("p", { class: "result", "data-winner": b.winner || "" }, result) : null);
  return node;
}

// The map: the five provinces as regions of one land, laid out as the country lies (a grid
// whose areas touch where provinces border each other); the borders of the rules drawn as
// gates across the shared edges (drawGates, from the game's messages, after layout).
function provincesNode(v, ctx, slotFor) {
  const column = nextScoring(v);
  const [first, second] = seats();
  const panels = v.provinces.map((p, i) => {
    const owner = p.armies[first] ? first : p.armies[second] ? second : null;
    const points = p.display.map((pts, k) =>
      el("span", { class: `pts${k === column ? " now" : ""}`,
        "aria-label": `${pts} points after round ${SCORING[k]}${k === column ? " (next scoring)" : ""}` }, String(pts)));
    const near = neighbours(p.name).map(provinceName);
    const markers = seats().filter((s) => p.markers[s]).map((s) => tipped(el("span", { class: "marker", "data-seat": s,
      "data-marker": s, "aria-label": `${label(s)}'s 6-marker: ${p.markers[s]} ${p.markers[s] === 1 ? "army" : "armies"}` },
    el("span", { class: "hex", "aria-hidden": "true" }, "6"), `${label(s)} ×${p.markers[s]}`), tip("tip.marker.6")));
    const section = el("section", {
      class: `province${owner ? " held" : ""}${v.current === p.name ? " current" : ""}${p.fought ? " fought" : ""}`,
      "data-colour": owner, "data-province": p.name, "aria-label": provinceName(p.name) },
      el("h3", {}, el("span", { class: "name" }, provinceName(p.name)), el("span", { class: "key", "aria-hidden": "true" }, String(i + 1))),
      tipped(el("p", { class: "display", "data-display": p.name }, points),
        `${tip("tip.display", { points: p.display.join(" / ") })}${column >= 0 ? ` ${tip("tip.display.now")}` : ""}`),
      el("p", { class: "armies" }, seats().map((s) => el("span", { class: `army${p.armies[s] ? "" : " none"}`, "data-seat": s,
        "aria-label": `${label(s)} ${p.armies[s]}` }, el("b", {}, String(p.armies[s])), ` ${label(s)}`))),
      el("p", { class: "muted holder" }, owner ? `Held by ${label(owner)}` : "Empty"),
      markers.length ? el("p", { class: "markers" }, markers) : null,
      battleNode(p, ctx),
      slotFor ? slotFor(p.name, i) : null);
    return near.length ? tipped(section, tip("tip.province", { province: provinceName(p.name), borders: listed(near) })) : section;
  });
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "gates");
  svg.setAttribute("aria-hidden", "true");
  const map = el("section", { id: "board", class: "provinces map", "aria-label": "Map of the provinces" }, panels);
  map.append(svg);
  return map;
}

// The gates: one across each shared border, measured from the laid-out map (and again
// whenever it changes size); a pair that does not touch on screen gets a line between.
const SVG = "http://www.w3.org/2000/svg";
function svgNode(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, val] of Object.entries(attrs)) node.setAttribute(k, String(val));
  return node;
}

export function drawGates(map) {
  const svg = map?.querySelector(":scope > svg.gates");
  if (!svg || !map.isConnected) return;
  const box = map.getBoundingClientRect();
  svg.setAttribute("viewBox", `0 0 ${box.width} ${box.height}`);
  while (svg.firstChild) svg.firstChild.remove();
  const rect = (name) => {
    const node = map.querySelector(`[data-province="${CSS.escape(name)}"]`);
    if (!node) return null;
    const r = node.getBoundingClientRect();
    return { l: r.left - box.left, t: r.top - box.top, r: r.right - box.left, b: r.bottom - box.top };
  };
  const near = 14; // px: wider than the gap between two regions
  for (const [a, b] of borders()) {
    const A = rect(a);
    const B = rect(b);
    if (!A || !B) continue;
    const overlapX = [Math.max(A.l, B.l), Math.min(A.r, B.r)];
    const overlapY = [Math.max(A.t, B.t), Math.min(A.b, B.b)];
    let gate = null;
    if (overlapX[1] - overlapX[0] > 20 && (Math.abs(A.b - B.t) < near || Math.abs(B.b - A.t) < near)) {
      const y = Math.abs(A.b - B.t) < near ? (A.b + B.t) / 2 : (B.b + A.t) / 2;
      gate = { x: (overlapX[0] + overlapX[1]) / 2, y, vertical: true };
    } else if (overlapY[1] - overlapY[0] > 20 && (Math.abs(A.r - B.l) < near || Math.abs(B.r - A.l) < near)) {
      const x = Math.abs(A.r - B.l) < near ? (A.r + B.l) / 2 : (B.r + A.l) / 2;
      gate = { x, y: (overlapY[0] + overlapY[1]) / 2, vertical: false };
    }
    const g = svgNode("g", { class: "gate", "data-border": `${a}|${b}` });
    if (gate) {
      const [w, h] = gate.vertical ? [12, 26] : [26, 12];
      g.append(svgNode("rect", { x: gate.x - w / 2, y: gate.y - h / 2, width: w, height: h, rx: 5 }));
    } else { // not side by side on this screen: a road from one to the other
      const [ax, ay, bx, by] = [(A.l + A.r) / 2, (A.t + A.b) / 2, (B.l + B.r) / 2, (B.t + B.b) / 2];
      g.append(svgNode("line", { x1: ax, y1: ay, x2: bx, y2: by, class: "road" }));
    }
    svg.append(g);
  }
}

const watched = new WeakSet();
function keepGates(map) {
  drawGates(map);
  if (typeof ResizeObserver === "undefined" || watched.has(map)) return;
  watched.add(map);
  new ResizeObserver(() => drawGates(map)).observe(map);
}

// The whole board area: ctx.slotFor (the placement's controls) when the seat places.
export function renderBoard(node, v, ctx, slotFor = null) {
  if (!v) return clear(node, el("section", { id: "status", class: "panel status" }, el("span", { class: "viewer" }, ctx.viewer || "")));
  const map = provincesNode(v, ctx, slotFor);
  clear(node,
    statusNode(v, ctx),
    trackNode(v.score),
    eventCardNode(v),
    ctx.legend ? tipped(el("p", { class: "muted legend" }, "The map: each province shows its points at the scorings after rounds 3, 6 and 9 (the next one highlighted); gold gates mark the borders, and supply runs across them."), tip("tip.border")) : null,
    map);
  keepGates(map);
  return node;
}

export function renderPlayers(node, v, ctx) {
  const { game, me } = ctx;
  const panels = seats().map((seat) => {
    const p = v.players[seat];
    const rows = [
      ["Reserve", tipped(el("span", {}, String(p.reserve)), tip("tip.reserve"))],
      ["Set aside", tipped(el("span", {}, String(p.aside)), tip("tip.aside"))],
      ["On the board", p.on_board],
      ["Hand", plural(p.hand_size, "card")], ["Deck", plural(p.deck_size, "card")],
    ];
    if (v.variant === "standard") {
      // warlords_held counts every Warlord kept, played ones too: in hand = kept - played
      const inHand = Math.max(0, p.warlords_held - p.warlords_played.length);
      const heldText = inHand ? `${inHand} in hand` : p.warlords_held ? "none left in hand" : "none yet";
      const mine = p.warlords && seat === me;
      rows.push(["Warlords", p.warlords ? el("span", {}, heldText) : tipped(el("span", {}, heldText), inHand ? tip("tip.warlord.hidden") : "")]);
      if (p.warlords_played.length) rows.push(["Played", chips(p.warlords_played)]);
      if (p.warlords) {
        const unplayed = p.warlords.filter((w) => !p.warlords_played.includes(w));
        rows.push([mine ? "Yours" : "Kept", unplayed.length ? chips(unplayed) : "none"]);
      }
    }
    const gone = p.discarded.map((c) => cardNode(c, seat, "mini"));
    // once the game is over the API shows every hand: so does the page
    const final = v.outcome && p.hand && seat !== me && ctx.finalHands
      ? el("p", { class: "final-hand" }, el("span", { class: "muted" }, "Hand at the end: "), p.hand.map((c) => cardNode(c, seat, "mini")))
      : null;
    return el("section", { class: `player ${seat}`, "data-seat": seat },
      el("h3", {}, seatLabel(seat, game, me, ctx)),
      playerLink(game?.seats?.[seat]),
      el("dl", {}, rows.map(([k, val]) => [el("dt", {}, k), el("dd", { "data-field": k }, val instanceof Node ? val : String(val))])),
      gone.length ? el("p", { class: "gone" }, el("span", { class: "muted" }, "Out of the game: "), gone) : null,
      final);
  });
  clear(node, panels);
}

// Warlords as small named chips, each explaining itself.
function chips(warlords) {
  return el("span", { class: "chips" }, warlords.map((w) =>
    tipped(el("span", { class: "warlord-chip", "data-warlord-shown": w }, warlordName(w)), warlordTip(w))));
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

