// Warring States' board: status, the map (SVG from the data), the diplomacy track, the
// dice of the last fights, and one panel per seat. Text nodes only (el/clear).
import { clear, el } from "/static/api.js";
import {
  areaName, borderList, boxName, cardName, COLUMNS, counters, factionOf, forceName, generalName, iconsOf, label, POS,
  rpOf, seatIds, sideName, stacksOf,
} from "./names.js";
import { tip, tipped } from "./tips.js";

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "onclick") node.addEventListener("click", v);
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(typeof c === "string" ? document.createTextNode(c) : c);
  return node;
}

const W = 150;
const H = 104;
const seatOfSide = (view, side) => Object.keys(view?.sides || {}).find((s) => view.sides[s] === side) || null;
const ICON = { horse: "H", sword: "S", shield: "D" };
const gensText = (gens) => Object.entries(gens || {})
  .map(([g, ready]) => `${generalName(g)}${ready ? "" : " (spent)"}`).join(", ");

// One stack as a line: "Qin 3+1 ★Bai Qi" (ready + exhausted, generals).
export function stackWords(s) {
  const gens = Object.keys(s.gens || {});
  return `${forceName(s.force)} ${s.ready}${s.tired ? `+${s.tired}` : ""}${gens.length ? ` ★${gens.length}` : ""}`;
}

function drawArea(view, area, marks) {
  const [x, y] = POS[area] || [0, 0];
  const content = view.areas?.[area] || {};
  const holder = content.city?.force || null;
  const faction = holder ? factionOf(view, holder) : "none";
  const stacks = stacksOf(content);
  const g = svg("g", {
    class: `area f-${faction}${marks.path?.includes(area) ? " on-path" : ""}${marks.from === area ? " from" : ""}${marks.reach?.includes(area) ? " reach" : ""}${marks.fight === area ? " fight" : ""}`,
    "data-area": area, "data-control": holder || "", "data-faction": faction, "data-rp": rpOf(area),
    tabindex: marks.onArea ? "0" : null, role: marks.onArea ? "button" : "group",
    transform: `translate(${x - W / 2} ${y - H / 2})`,
    onclick: marks.onArea ? () => marks.onArea(area) : null,
    "aria-label": `${areaName(area)}, ${rpOf(area)} RP${holder ? `, city held by ${forceName(holder)}` : ", no city holder"}: ${stacks.map((s) => `${s.city ? "city " : "field "}${stackWords(s)}${Object.keys(s.gens || {}).length ? ` (${gensText(s.gens)})` : ""}`).join("; ") || "empty"}`,
  });
  tipped(g, tip([`tip.area.${area}`], holder
    ? ["tip.area.held", { force: forceName(holder), faction: factionName(faction) }] : ["tip.area.empty"]));
  g.append(svg("rect", { class: "land", width: W, height: H, rx: 12 }));
  g.append(svg("text", { class: "name", x: 8, y: 20 }, areaName(area)));
  g.append(svg("g", { class: "rp", transform: `translate(${W - 22} 4)` },
    svg("circle", { cx: 10, cy: 11, r: 10 }), svg("text", { x: 10, y: 16, "text-anchor": "middle" }, String(rpOf(area)))));
  stacks.slice(0, 4).forEach((s, i) => {
    const row = svg("g", {
      class: `stack${s.city ? " city" : ""}`, "data-force": s.force, "data-stack": `${area}:${s.force}`,
      "data-ready": s.ready, "data-tired": s.tired, "data-generals": Object.keys(s.gens || {}).join(" "),
      transform: `translate(6 ${28 + i * 19})`,
    });
    row.append(svg("rect", { class: `chip force-${s.force}`, width: W - 12, height: 17, rx: s.city ? 2 : 8 }));
    const names = Object.keys(s.gens || {});
    const head = `${s.city ? "▣ " : ""}${stackWords(s).replace(/ ★\d+$/, "")}`;
    const short = (gn) => generalName(gn).split(" ").map((w) => w[0]).join("");
    let gens = names.map((gn) => `${ICON[iconsOf(gn)] || ""}:${generalName(gn)}`).join(" ");
    if (head.length + gens.length > 17) gens = names.map((gn) => `${ICON[iconsOf(gn)] || ""}:${short(gn)}`).join(" ");
    row.append(svg("text", { x: 5, y: 13 }, `${head}${gens ? ` ★${gens}` : ""}`));
    g.append(tipped(row, stackTip(view, area, s)));
  });
  if (stacks.length > 4) g.append(svg("text", { class: "more", x: 8, y: H - 2 }, `+${stacks.length - 4} more`));
  return g;
}

export function drawMap(view, marks = {}) {
  const root = svg("svg", { id: "map", class: "ws-map", viewBox: "0 0 1030 745", role: "group", "aria-label": "The map of the Warring States" });
  const lines = svg("g", { class: "borders" });
  for (const [a, b, type, down] of borderList()) {
    if (!POS[a] || !POS[b]) continue;
    const [x1, y1] = POS[a];
    const [x2, y2] = POS[b];
    const line = svg("line", { class: `border ${type}`, "data-border": `${a}|${b}`, "data-type": type, x1, y1, x2, y2 });
    lines.append(tipped(line, tip([`tip.border.${a}.${b}`])));
    if (type === "waterway" && down) {  // an arrow toward the downstream end
      const [dx, dy] = POS[down];
      const [ux, uy] = down === a ? [x2, y2] : [x1, y1];
      const mx = (ux + dx) / 2;
      const my = (uy + dy) / 2;
      const ang = (Math.atan2(dy - uy, dx - ux) * 180) / Math.PI;
      lines.append(svg("path", { class: "flow", d: "M -9 -7 L 9 0 L -9 7 z", transform: `translate(${mx} ${my}) rotate(${ang})` }));
    }
  }
  root.append(lines);
  for (const area of Object.keys(POS)) root.append(drawArea(view, area, marks));
  return root;
}

function drawTrack(view) {
  const cols = COLUMNS.map((boxes, i) => el("li", { class: `column c${i}`, "data-column": String(i) },
    ...boxes.map((box) => el("div", { class: `box f-${i === 0 ? "lianheng" : i >= 4 ? "alliance" : "neutral"}`, "data-box": box },
      tipped(el("span", { class: "box-name" }, boxName(box)), tip([`tip.box.${box}`])),
      el("span", { class: "counters" }, ...Object.entries(view.track || {}).filter(([, p]) => p.box === box)
        .map(([force, p]) => tipped(el("span", {
          class: `counter force-${force}${p.received ? "" : " locked"}`, "data-force": force,
          "data-received": p.received ? "yes" : "no",
          "aria-label": `${forceName(force)}: ${boxName(box)}${p.received ? "" : ", Not Received (locked)"}${view.eliminated?.includes(force) ? ", eliminated" : ""}`,
        }, forceName(force), p.received ? "" : " (NR)"), tip([p.received ? "tip.counter" : "tip.counter.locked",
          { force: forceName(force), box: boxName(box), faction: factionName(factionOf(view, force)) }]))))))));
  return el("section", { id: "track", class: "ws-track", "aria-label": "Diplomacy track" },
    el("h3", {}, "Diplomacy track: Serve Qin (Lianheng) ← Neutral → Alliance"), el("ol", {}, ...cols));
}

// The dice of the last fights, from the page's events (as they happen).
function drawDice(ctx) {
  const rolls = (ctx.events || []).filter((e) => e.type === "dice_rolled" || e.type === "die_rolled" || e.type === "second_strike").slice(-4);
  if (!rolls.length) return el("div", { id: "dice", class: "dice muted" }, "No dice rolled yet.");
  return el("div", { id: "dice", class: "dice", "aria-live": "polite" }, tipped(el("strong", {}, "Dice: "), tip(["tip.dice"])),
    ...rolls.map((e) => el("span", { class: "roll", "data-seq": String(e.seq) }, e.text || e.type)));
}

export function renderBoard(node, view, ctx, marks = {}) {
  if (!view) {
    clear(node, el("p", { class: "muted" }, ctx.viewer || ""));
    return;
  }
  const active = view.active ? sideName(view.active) : "nobody";
  const status = el("div", { id: "status", class: "ws-status" },
    tipped(el("span", { class: "turn", "data-turn": String(view.turn) }, `Turn ${view.turn} of ${view.turns}`),
      tip(["tip.turn", { turns: view.turns }])),
    tipped(el("span", { class: "phase" }, `Phase: ${view.phase}`), tip(["tip.phase"])),
    tipped(el("span", { class: "active" }, `Acting: ${active}${view.passes ? ` (${view.passes} pass${view.passes > 1 ? "es" : ""})` : ""}`),
      tip(["tip.acting"])),
    tipped(el("span", { class: "initiative", "data-side": view.initiative?.side || "" },
      `Initiative: ${sideName(view.initiative?.side)}${view.initiative?.flipped ? " (flipped)" : ""}`),
    tip(["tip.initiative"], view.initiative?.flipped ? ["tip.initiative.flipped"] : null)),
    tipped(el("span", { class: "qin-rp" }, view.phase === "bid" ? `Qin holds ${view.qin_rp} RP; the bids set its target` : `Qin holds ${view.qin_rp} RP of ${view.target}`),
      tip([view.victory === "bid" ? "tip.qin_rp.bid" : "tip.qin_rp.basic", { target: view.target }])),
    tipped(el("span", { class: "rp" }, `RP: Lianheng ${view.rp?.lianheng ?? "?"}, the Alliance ${view.rp?.alliance ?? "?"}`),
      tip(["tip.rp"])));
  const legend = el("p", { class: "legend muted" },
    "▣ city holder, then field stacks; 3+1 = ready + exhausted; ★ generals (H: horse, S: sword, D: shield). ",
    "Lines: solid 1 MP, dashed mountains 2 MP, blue waterways (arrow downstream). Border colour: who holds the city (red Lianheng, blue the Alliance, grey Neutral). (NR) on the track: Not Received, locked.");
  clear(node, status, el("div", { class: "map-scroll" }, drawMap(view, marks)), legend, drawTrack(view), drawDice(ctx));
}

export function renderPlayers(node, view, ctx) {
  if (!view) return clear(node);
  clear(node, ...seatIds().map((seat) => {
    const side = view.sides?.[seat];
    const aim = side === "lianheng" ? `Victory: Qin reaches ${view.target} RP` : side === "alliance" ? `Victory: Qin below ${view.target} RP at the end` : "";
    const discards = side ? view.discards?.[side] || [] : [];
    return el("section", { class: "player", "data-seat": seat, "data-side": side || "" },
      el("h2", { class: "player-name" }, `${label(seat)}: ${sideName(side)}${seat === ctx.me ? " (you)" : ""}`),
      side ? tipped(el("p", { class: "side-rp" }, `RP ${view.rp?.[side] ?? "?"}. ${aim}`),
        tip(["tip.rp"], [view.victory === "bid" ? "tip.qin_rp.bid" : "tip.qin_rp.basic", { target: view.target }]))
        : el("p", {}, "Sides are decided by the bid."),
      side ? el("p", { class: "counts" },
        tipped(el("span", { class: "hand-size" }, `Hand ${view.hand_sizes?.[side] ?? 0}`),
          tip(["tip.hand", { side: sideTitle(side), n: view.hand_sizes?.[side] ?? 0 }])), " · ",
        tipped(el("span", { class: "deck" }, `Deck ${view.deck_sizes?.[side] ?? 0}`),
          tip(["tip.deck", { side: sideTitle(side), n: view.deck_sizes?.[side] ?? 0 }])), " · ",
        tipped(el("span", { class: "discard" }, `Discard ${discards.length}`),
          tip(["tip.discard", { side: sideTitle(side), n: discards.length }])),
        view.removed?.[side]?.length ? ` · Removed ${view.removed[side].length}` : "") : null,
      discards.some((d) => d.up && d.card) ? el("p", { class: "muted small face-up" }, "Face up discards: ",
        discards.filter((d) => d.up && d.card).map((d) => cardName(d.card)).join(", ")) : null,
      view.bids && seat in view.bids ? el("p", { class: "bid" }, `Bid: ${view.bids[seat] === "hidden" ? "sealed" : view.bids[seat]}`) : null);
  }));
}

// What a stack is: force and faction, city or field, ready and exhausted counters, and each
// general with his icon's meaning and whether he is ready.
function stackTip(view, area, s) {
  const values = { force: forceName(s.force), faction: factionName(factionOf(view, s.force)), area: areaName(area),
    ready: s.ready, tired: s.tired };
  const gens = Object.entries(s.gens || {});
  return tip([s.city ? "tip.stack.city" : "tip.stack.field", values],
    ...gens.flatMap(([g, ready]) => [[`tip.general.${g}`], [ready ? "tip.general.ready" : "tip.general.spent", { general: generalName(g) }]]));
}
const FACTIONS = { lianheng: "Lianheng", alliance: "the Alliance", neutral: "Neutral", none: "no side" };
const factionName = (f) => FACTIONS[f] || FACTIONS.none;
const sideTitle = (side) => (side === "alliance" ? "The Alliance" : sideName(side));

export { gensText, seatOfSide, stackTip };
