// Warring States' board: status, the map (SVG from the data), the diplomacy track, the
// dice of the last fights, and one panel per seat. Text nodes only (el/clear).
import { clear, el } from "/static/api.js";
import {
  areaName, borderList, boxName, cardName, COLUMNS, counters, factionOf, forceName, generalName, has, iconsOf, label, POS,
  rpOf, seatIds, sideName, sideTitle, stacksOf, t,
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
  .map(([g, ready]) => (ready ? generalName(g) : t("page.general.spent", { general: generalName(g) }))).join(", ");

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
    "aria-label": t(holder ? "page.area.label.held" : "page.area.label.free", {
      area: areaName(area), rp: rpOf(area), force: holder ? forceName(holder) : "",
      stacks: stacks.map((s) => {
        const one = t(s.city ? "page.area.stack.city" : "page.area.stack.field", { stack: stackWords(s) });
        return Object.keys(s.gens || {}).length ? t("page.area.stack.generals", { stack: one, generals: gensText(s.gens) }) : one;
      }).join("; ") || t("page.area.empty"),
    }),
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
  if (stacks.length > 4) g.append(svg("text", { class: "more", x: 8, y: H - 2 }, t("page.area.more", { n: stacks.length - 4 })));
  return g;
}

export function drawMap(view, marks = {}) {
  const root = svg("svg", { id: "map", class: "ws-map", viewBox: "0 0 1030 745", role: "group", "aria-label": t("page.map.label") });
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
          "aria-label": counterLabel(view, force, box, p.received),
        }, p.received ? forceName(force) : t("page.counter.locked", { force: forceName(force) })), tip([p.received ? "tip.counter" : "tip.counter.locked",
          { force: forceName(force), box: boxName(box), faction: factionName(factionOf(view, force)) }]))))))));
  return el("section", { id: "track", class: "ws-track", "aria-label": t("page.track.label") },
    el("h3", {}, t("page.track.title")), el("ol", {}, ...cols));
}

// The dice of the last fights, from the page's events (as they happen).
function drawDice(ctx) {
  const rolls = (ctx.events || []).filter((e) => e.type === "dice_rolled" || e.type === "die_rolled" || e.type === "second_strike").slice(-4);
  if (!rolls.length) return el("div", { id: "dice", class: "dice muted" }, t("page.dice.none"));
  return el("div", { id: "dice", class: "dice", "aria-live": "polite" }, tipped(el("strong", {}, t("page.dice.title")), tip(["tip.dice"])),
    ...rolls.map((e) => el("span", { class: "roll", "data-seq": String(e.seq) }, e.text || e.type)));
}

export function renderBoard(node, view, ctx, marks = {}) {
  if (!view) {
    clear(node, el("p", { class: "muted" }, ctx.viewer || ""));
    return;
  }
  const active = view.active ? sideName(view.active) : t("page.side.nobody");
  const status = el("div", { id: "status", class: "ws-status" },
    tipped(el("span", { class: "turn", "data-turn": String(view.turn) }, t("page.status.turn", { turn: view.turn, turns: view.turns })),
      tip(["tip.turn", { turns: view.turns }])),
    tipped(el("span", { class: "phase" }, t("page.status.phase", { phase: has(`page.phase.${view.phase}`) ? t(`page.phase.${view.phase}`) : view.phase })), tip(["tip.phase"])),
    tipped(el("span", { class: "active" }, t(!view.passes ? "page.status.acting" : view.passes > 1 ? "page.status.acting.passes" : "page.status.acting.pass", { side: active, n: view.passes })),
      tip(["tip.acting"])),
    tipped(el("span", { class: "initiative", "data-side": view.initiative?.side || "" },
      t(view.initiative?.flipped ? "page.status.initiative.flipped" : "page.status.initiative", { side: sideName(view.initiative?.side) })),
    tip(["tip.initiative"], view.initiative?.flipped ? ["tip.initiative.flipped"] : null)),
    tipped(el("span", { class: "qin-rp" }, t(view.phase === "bid" ? "page.status.qin_rp.bid" : "page.status.qin_rp", { rp: view.qin_rp, target: view.target })),
      tip([view.victory === "bid" ? "tip.qin_rp.bid" : "tip.qin_rp.basic", { target: view.target }])),
    tipped(el("span", { class: "rp" }, t("page.status.rp", { lianheng: view.rp?.lianheng ?? "?", alliance: view.rp?.alliance ?? "?" })),
      tip(["tip.rp"])));
  const legend = el("p", { class: "legend muted" },
    t("page.legend.counters"), t("page.legend.lines"));
  clear(node, status, el("div", { class: "map-scroll" }, drawMap(view, marks)), legend, drawTrack(view), drawDice(ctx));
}

export function renderPlayers(node, view, ctx) {
  if (!view) return clear(node);
  clear(node, ...seatIds().map((seat) => {
    const side = view.sides?.[seat];
    const discards = side ? view.discards?.[side] || [] : [];
    return el("section", { class: "player", "data-seat": seat, "data-side": side || "" },
      el("h2", { class: "player-name" }, t(seat === ctx.me ? "page.player.title.you" : "page.player.title", { seat: label(seat), side: sideName(side) })),
      side ? tipped(el("p", { class: "side-rp" }, t(`page.player.rp.${side}`, { rp: view.rp?.[side] ?? "?", target: view.target })),
        tip(["tip.rp"], [view.victory === "bid" ? "tip.qin_rp.bid" : "tip.qin_rp.basic", { target: view.target }]))
        : el("p", {}, t("page.player.no_side")),
      side ? el("p", { class: "counts" },
        tipped(el("span", { class: "hand-size" }, t("page.player.hand", { n: view.hand_sizes?.[side] ?? 0 })),
          tip(["tip.hand", { side: sideTitle(side), n: view.hand_sizes?.[side] ?? 0 }])), " · ",
        tipped(el("span", { class: "deck" }, t("page.player.deck", { n: view.deck_sizes?.[side] ?? 0 })),
          tip(["tip.deck", { side: sideTitle(side), n: view.deck_sizes?.[side] ?? 0 }])), " · ",
        tipped(el("span", { class: "discard" }, t("page.player.discard", { n: discards.length })),
          tip(["tip.discard", { side: sideTitle(side), n: discards.length }])),
        view.removed?.[side]?.length ? ` · ${t("page.player.removed", { n: view.removed[side].length })}` : "") : null,
      discards.some((d) => d.up && d.card) ? el("p", { class: "muted small face-up" }, t("page.player.face_up", {
        cards: discards.filter((d) => d.up && d.card).map((d) => cardName(d.card)).join(", ") })) : null,
      view.bids && seat in view.bids ? el("p", { class: "bid" }, t(view.bids[seat] === "hidden" ? "page.player.bid.sealed" : "page.player.bid", { rp: view.bids[seat] })) : null);
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
const factionName = (f) => (f === "lianheng" || f === "alliance" ? sideName(f) : t(f === "neutral" ? "page.faction.neutral" : "page.faction.none"));
// A track counter for a screen reader: force, box, locked, eliminated.
function counterLabel(view, force, box, received) {
  const words = t(received ? "page.counter.label" : "page.counter.label.locked", { force: forceName(force), box: boxName(box) });
  return view.eliminated?.includes(force) ? t("page.counter.eliminated", { counter: words }) : words;
}

export { gensText, seatOfSide, stackTip };
