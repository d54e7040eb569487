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
    return tipped(el("span", { class: `card back ${extra}`, "data-owner": owner, "data-face": "down" }, t("page.card.down")), tip("tip.card.placed"));
  }
  return tipped(el("span", { class: `card${FRAMED.includes(card) ? " framed" : ""} ${extra}`, "data-owner": owner, "data-card": card,
    "data-pip": card === "plague" ? "☠" : card }, cardName(card)), cardTip(card));
}

// "ai:medium" -> "medium" (null: a person)
export const aiLevel = (seatKind) => (String(seatKind || "").startsWith("ai:") ? String(seatKind).slice(3) : null);
const levelName = (level, ctx) => (ctx?.levelName ? ctx.levelName(level) : level);

export function seatLabel(seat, game, me, ctx = null) {
  const level = aiLevel(game?.seats?.[seat]?.kind);
  const id = seat === me ? (level ? "page.seat.you.ai" : "page.seat.you") : level ? "page.seat.ai" : null;
  return id ? t(id, { seat: label(seat), level: levelName(level, ctx) }) : label(seat);
}

function statusNode(v, ctx) {
  const bits = [];
  bits.push(el("span", { class: "round" }, t("page.status.round", { round: Math.max(v.round, 1) })));
  const next = nextScoring(v);
  if (next >= 0) bits.push(el("span", { class: "next-scoring" }, t("page.status.next_scoring", { round: SCORING[next] })));
  if (v.privilege) bits.push(tipped(el("span", { class: "privilege" }, t("page.status.privilege", { seat: label(v.privilege) })), tip("tip.privilege")));
  bits.push(el("span", {}, t(v.events ? "page.status.variant.events" : "page.status.variant", { variant: variantName(v.variant) })));
  for (const seat of seats()) {
    const level = aiLevel(ctx.game?.seats?.[seat]?.kind);
    if (level && seat !== ctx.me) {
      bits.push(el("span", { class: "ai-level", "data-ai-level": level, "data-colour": seat },
        t("page.status.ai", { seat: label(seat), level: levelName(level, ctx) })));
    }
  }
  bits.push(el("span", { class: "viewer" }, ctx.viewer || ""));
  return el("section", { id: "status", class: "panel status", "aria-label": t("page.status.label") }, bits);
}

function trackNode(score) {
  const [first, second] = seats();
  const cells = [];
  for (let i = -9; i <= 9; i++) {
    const side = i < 0 ? second : i > 0 ? first : null;
    const title = side ? t("page.track.cell", { n: Math.abs(i), seat: label(side) }) : t("page.track.centre");
    cells.push(el("li", { class: `cell${side ? "" : " centre"}${i === score ? " now" : ""}`, "data-colour": side,
      "aria-current": i === score ? "true" : null, title, "data-pos": i }, String(Math.abs(i))));
  }
  const text = score === 0 ? t("page.track.marker.centre") : t("page.track.marker", { n: Math.abs(score), seat: label(score > 0 ? first : second) });
  return el("section", { class: "panel track-panel", "aria-labelledby": "track-title" },
    el("h2", { id: "track-title", class: "small-title" }, t("page.track.title")),
    tipped(el("ol", { id: "track", class: "track", "aria-label": text }, cells), tip("tip.track")),
    el("p", { id: "track-text", class: "muted" }, text));
}

function eventCardNode(v) {
  if (!v.events) return null;
  const body = v.event_card
    ? [el("h2", { class: "small-title" }, t("page.event.title")),
      tipped(el("div", { class: "event-face", "data-event": v.event_card },
        el("strong", {}, eventName(v.event_card)), el("span", {}, eventText(v.event_card))), eventTip(v.event_card)),
      el("p", { class: "muted" }, t("page.event.left", { n: v.events_left }))]
    : [el("p", {}, t("page.event.none"))];
  return el("section", { id: "event-card", class: "panel event-card", "aria-label": t("page.event.label") }, body);
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
        "aria-label": t(k === column ? "page.points.next" : "page.points", { points: pts, round: SCORING[k] }) }, String(pts)));
    const near = neighbours(p.name).map(provinceName);
    const markers = seats().filter((s) => p.markers[s]).map((s) => tipped(el("span", { class: "marker", "data-seat": s,
      "data-marker": s, "aria-label": t(p.markers[s] === 1 ? "page.marker.one" : "page.marker.many", { seat: label(s), n: p.markers[s] }) },
    el("span", { class: "hex", "aria-hidden": "true" }, "6"), `${label(s)} ×${p.markers[s]}`), tip("tip.marker.6")));
    const section = el("section", {
      class: `province${owner ? " held" : ""}${v.current === p.name ? " current" : ""}${p.fought ? " fought" : ""}`,
      "data-colour": owner, "data-province": p.name, "aria-label": provinceName(p.name) },
      el("h3", {}, el("span", { class: "name" }, provinceName(p.name)), el("span", { class: "key", "aria-hidden": "true" }, String(i + 1))),
      tipped(el("p", { class: "display", "data-display": p.name }, points),
        `${tip("tip.display", { points: p.display.join(" / ") })}${column >= 0 ? ` ${tip("tip.display.now")}` : ""}`),
      el("p", { class: "armies" }, seats().map((s) => el("span", { class: `army${p.armies[s] ? "" : " none"}`, "data-seat": s,
        "aria-label": `${label(s)} ${p.armies[s]}` }, el("b", {}, String(p.armies[s])), ` ${label(s)}`))),
      el("p", { class: "muted holder" }, owner ? t("page.province.held", { seat: label(owner) }) : t("page.province.empty")),
      markers.length ? el("p", { class: "markers" }, markers) : null,
      battleNode(p, ctx),
      slotFor ? slotFor(p.name, i) : null);
    return near.length ? tipped(section, tip("tip.province", { province: provinceName(p.name), borders: listed(near) })) : section;
  });
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "gates");
  svg.setAttribute("aria-hidden", "true");
  const map = el("section", { id: "board", class: "provinces map", "aria-label": t("page.map.label") }, panels);
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
    ctx.legend ? tipped(el("p", { class: "muted legend" }, t("page.map.legend")), tip("tip.border")) : null,
    map);
  keepGates(map);
  return node;
}

export function renderPlayers(node, v, ctx) {
  const { game, me } = ctx;
  const panels = seats().map((seat) => {
    const p = v.players[seat];
    const rows = [
      ["reserve", tipped(el("span", {}, String(p.reserve)), tip("tip.reserve"))],
      ["aside", tipped(el("span", {}, String(p.aside)), tip("tip.aside"))],
      ["board", p.on_board],
      ["hand", cards(p.hand_size)], ["deck", cards(p.deck_size)],
    ];
    if (v.variant === "standard") {
      // warlords_held counts every Warlord kept, played ones too: in hand = kept - played
      const inHand = Math.max(0, p.warlords_held - p.warlords_played.length);
      const heldText = inHand ? t("page.warlords.in_hand", { n: inHand }) : t(p.warlords_held ? "page.warlords.none_left" : "page.warlords.none_yet");
      const mine = p.warlords && seat === me;
      rows.push(["warlords", p.warlords ? el("span", {}, heldText) : tipped(el("span", {}, heldText), inHand ? tip("tip.warlord.hidden") : "")]);
      if (p.warlords_played.length) rows.push(["played", chips(p.warlords_played)]);
      if (p.warlords) {
        const unplayed = p.warlords.filter((w) => !p.warlords_played.includes(w));
        rows.push([mine ? "yours" : "kept", unplayed.length ? chips(unplayed) : t("page.warlords.none")]);
      }
    }
    const gone = p.discarded.map((c) => cardNode(c, seat, "mini"));
    // once the game is over the API shows every hand: so does the page
    const final = v.outcome && p.hand && seat !== me && ctx.finalHands
      ? el("p", { class: "final-hand" }, el("span", { class: "muted" }, t("page.player.final_hand")), p.hand.map((c) => cardNode(c, seat, "mini")))
      : null;
    return el("section", { class: `player ${seat}`, "data-seat": seat },
      el("h3", {}, seatLabel(seat, game, me, ctx)),
      playerLink(game?.seats?.[seat]),
      el("dl", {}, rows.map(([k, val]) => [el("dt", {}, t(`page.field.${k}`)), el("dd", { "data-field": k }, val instanceof Node ? val : String(val))])),
      gone.length ? el("p", { class: "gone" }, el("span", { class: "muted" }, t("page.player.gone")), gone) : null,
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

const cards = (n) => t(n === 1 ? "page.cards.one" : "page.cards.many", { n });

// The replay's hands: ctx.shown are the seats whose hands the perspective shows ("full":
// with the cards drawn and still to keep, and the deck's order).
export function renderHands(node, v, ctx) {
  const shown = ctx.shown || [];
  const body = shown.length ? shown.map((seat) => {
    const p = v.players[seat];
    const hand = p.hand || [];
    const extra = [];
    if (ctx.full && p.drawn?.length) extra.push(el("p", { class: "muted" }, t("page.hands.drawn"), p.drawn.map((c) => cardNode(c, seat, "mini"))));
    if (ctx.full && p.deck) extra.push(el("p", { class: "muted deck" }, t("page.hands.deck", { n: p.deck.length }), p.deck.map((c) => cardNode(c, seat, "mini"))));
    return el("section", { class: "hand-of", "data-seat": seat, "aria-label": t("page.hands.of", { seat: label(seat) }) },
      el("h3", {}, t("page.hands.title.seat", { seat: label(seat), n: hand.length })),
      el("div", { class: "hand" }, hand.length ? hand.map((c) => cardNode(c, seat)) : el("span", { class: "muted" }, t("page.hands.empty"))),
      extra);
  }) : el("p", { class: "muted" }, t("page.hands.spectator", { seats: seats().map(label).join(", ") }));
  clear(node, el("h2", { id: "hands-title" }, t("page.hands.title")), el("div", { id: "hands-body" }, body));
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
  const reserves = seats().map((s) => `${label(s)} ${outcome.reserve?.[s] ?? "?"}`).join(", ");
  return t(outcome.score === 0 ? "page.outcome.centre" : "page.outcome.toward",
    { n: Math.abs(outcome.score), seat: label(outcome.score > 0 ? first : second), reserves });
}

// Why a replay's step cannot be played on from ("" when it can).
export function continueNote(v) {
  const owed = Object.values(v.pending || {});
  return owed.includes("sources") ? t("page.continue.battle") : "";
}

