// Warring States' decisions: the hand (cards with their texts), and every decision owed
// (ctx.view.decision): bids, playing a card face up or down, military operations built on
// the map, options, private picks, responses; standing instructions; a JSON fallback.
import { clear, el } from "/static/api.js";
import {
  areaName, cardName, cardText, factionOf, forceName, generalName, kindOf, neighbours, POS, sideName,
  stacksOf, t,
} from "./names.js";
import { stackWords } from "./board.js";

const BREAKS = {
  alliance: ["A_LORD_XINLING", "A_JING_KE", "A_ELITE_CROSSBOWMEN", "A_EMERGENCY_MOBILIZATION"],
  lianheng: ["L_LI_SI", "L_ELITE_CROSSBOWMEN", "L_EMERGENCY_MOBILIZATION"],
};
const COMMAND = { bid: "bid", action: "play", operate: "operate", choose: "choose", respond: "choose", pick: "pick" };
const AREAS = () => Object.keys(POS);
const opt = (value, text, selected) => el("option", { value, selected: selected ? "selected" : null }, text);
const button = (attrs, text) => el("button", { type: "button", ...attrs }, text);

function cardNode(card, attrs = {}) {
  return el(attrs.onclick ? "button" : "div", { class: "card ws-card", "data-card": card, type: attrs.onclick ? "button" : null, ...attrs },
    el("strong", { class: "card-name" }, cardName(card)), el("span", { class: "card-text" }, cardText(card)));
}

// ---- the hand --------------------------------------------------------------------------
export function renderHand(node, view, ctx) {
  const side = view?.me;
  if (!side) return false;
  const hand = view.hands?.[side] || [];
  const decision = ctx.deciding ? view.decision : null;
  const picking = decision?.command === "pick" && decision.kind !== "take";
  const playing = decision?.command === "action";
  const drawn = decision?.kind === "discard_drawn" ? hand.slice(-(view.op?.drawn || 0)) : hand;
  const cards = hand.map((card, i) => {
    const attrs = { "data-index": String(i) };
    if (playing) {
      attrs.onclick = () => { ctx.ui.card = card; ctx.rerender("play-card"); };
      attrs["aria-pressed"] = ctx.ui.card === card ? "true" : "false";
    } else if (picking && drawn.includes(card)) {
      attrs.onclick = () => ctx.send({ type: "pick", card });
      attrs["data-pick"] = card;
    }
    return cardNode(card, attrs);
  });
  const mine = (view.discards?.[side] || []).filter((d) => d.card);
  clear(node, el("h2", { id: "hand-title" }, `Your hand (${sideName(side)}): ${hand.length} cards`),
    el("div", { id: "hand", class: "hand ws-hand" }, ...cards),
    hand.length ? null : el("p", { class: "muted" }, "No cards in hand."),
    mine.length ? el("details", { class: "my-discards" }, el("summary", {}, `Your discards (${mine.length})`),
      el("ul", {}, ...mine.map((d) => el("li", {}, `${cardName(d.card)} (${d.up ? "face up" : "face down"})`)))) : null,
    standingControl(view, ctx));
  return true;
}

// Standing instructions for responses: always available to the seat (ask / never / auto).
function standingControl(view, ctx) {
  const side = view.me;
  const now = view.standing || { mode: "ask", cards: [] };
  const ui = (ctx.ui.standing ||= { mode: now.mode, cards: [...(now.cards || [])] });
  const boxes = (BREAKS[side] || []).map((card) => el("label", { class: "check" },
    el("input", { type: "checkbox", "data-standing-card": card, checked: ui.cards.includes(card) ? "checked" : null,
      onchange: (e) => { ui.cards = e.target.checked ? [...ui.cards, card] : ui.cards.filter((c) => c !== card); } }),
    ` ${cardName(card)}`));
  const modes = [["ask", "Ask me each time"], ["never", "Never respond"], ["auto", "Play these when they apply:"]];
  return el("details", { id: "standing", class: "standing", open: ctx.ui.standingOpen ? "open" : null,
    ontoggle: (e) => { ctx.ui.standingOpen = e.target.open; } },
  el("summary", {}, `Responses: ${now.mode === "auto" ? `auto (${(now.cards || []).map(cardName).join(", ")})` : now.mode}`),
  el("div", { class: "modes" }, ...modes.map(([mode, words]) => el("label", { class: "check" },
    el("input", { type: "radio", name: "standing-mode", value: mode, "data-standing-mode": mode,
      checked: ui.mode === mode ? "checked" : null, onchange: () => { ui.mode = mode; } }), ` ${words}`))),
  el("div", { class: "break-cards" }, ...boxes),
  button({ id: "set-standing", onclick: () => {
    ctx.ui.standing = undefined;
    ctx.send({ type: "standing", mode: ui.mode, ...(ui.mode === "auto" ? { cards: ui.cards } : {}) });
  } }, "Set standing instructions"));
}

// ---- an option in words ----------------------------------------------------------------
function optionWords(o, decision) {
  if (!o || typeof o !== "object") return String(o);
  if (decision.command === "respond") {
    if (!o.card) return "Let it pass (no response)";
    // Lord Xinling: one option per route Wei Wuji may take to the battle, said apart
    const route = o.from ? ` (Wei Wuji enters in ${areaName(o.from)}${o.path?.length ? `, moves ${o.path.map(areaName).join(" – ")}` : ""})` : "";
    return `Play ${cardName(o.card)}${route}: ${cardText(o.card)}`;
  }
  const parts = [];
  const gens = (g) => (g?.length ? ` with ${g.map(generalName).join(", ")}` : "");
  if (o.do) parts.push(o.do === "stop" ? "Stop here" : o.do === "onward" ? `Go on to ${(o.path || []).map(areaName).join(" – ")}` : String(o.do));
  if (o.target) parts.push(`Attack ${forceName(o.target)}`);
  if (o.join) parts.push(`joined by ${o.join.n || 0} armies${gens(o.join.gens)}`);
  if (o.general) parts.push(`${generalName(o.general)}`);
  if (o.force && !o.target) parts.push(forceName(o.force));
  if (o.area) parts.push(`in ${areaName(o.area)}`);
  if (o.areas) parts.push(`in ${o.areas.map(areaName).join(" and ")}`);
  if (o.to) parts.push(`to ${areaName(o.to)}`);
  if ("ready" in o || "tired" in o) parts.push(`${o.ready || 0} ready, ${o.tired || 0} exhausted${gens(o.gens)}`);
  else if ("armies" in o) parts.push(`${o.armies} armies${gens(o.gens)}`);
  if (o.act) parts.push(`(${generalName(o.act)} leads)`);
  if (o.successor) parts.push(`(${forceName(o.successor)} takes the city)`);
  if (o.card) parts.push(cardName(o.card));
  for (const [k, v] of Object.entries(o)) {
    if (!["do", "path", "target", "join", "general", "force", "area", "areas", "to", "ready", "tired", "gens", "armies", "act", "successor", "card"].includes(k)) {
      parts.push(`${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`);
    }
  }
  return parts.join(", ") || JSON.stringify(o);
}

// ---- the decision ----------------------------------------------------------------------
export function renderDecision(node, ctx) {
  const view = ctx.view;
  const decision = view?.decision;
  if (!ctx.deciding || !decision) return false;
  const title = el("h2", { id: "decision-title" }, t(`prompt.${decision.command}`, {}));
  let body;
  if (decision.command === "bid") body = bidForm(ctx);
  else if (decision.command === "action") body = playForm(view, ctx);
  else if (decision.command === "operate") body = operateForm(view, ctx);
  else if (decision.command === "pick") body = pickForm(view, ctx, decision);
  else {
    const options = Array.isArray(decision.options) ? decision.options : [];
    body = el("div", { class: "choices options", "data-choose": decision.kind },
      el("p", { class: "muted" }, `Decision: ${decision.kind}`),
      ...options.map((o, i) => {
        // A response: the public options name cards; those not in the hand cannot be played.
        const held = decision.command !== "respond" || !o?.card || (view.hands?.[view.me] || []).some((c) => kindOf(c) === o.card);
        return button({ "data-option": String(i), disabled: held ? null : "disabled", onclick: () => ctx.send({ type: "choose", option: i }) },
          `${optionWords(o, decision)}${held ? "" : " (not in your hand)"}`);
      }));
  }
  clear(node, title, body, advanced(ctx, decision));
  return true;
}

function advanced(ctx, decision) {
  const box = el("textarea", { id: "command-json", rows: "3", cols: "40", oninput: () => { ctx.ui.json = box.value; } },
    ctx.ui.json ?? JSON.stringify({ type: COMMAND[decision.command] || "" }));
  const send = () => {
    let command;
    try {
      command = JSON.parse(box.value);
    } catch (error) {
      ctx.say(`Not a command in JSON: ${error.message}`);
      return;
    }
    ctx.ui.json = undefined;
    ctx.send(command);
  };
  // open stays open across redraws (a live update must not close the box under the typing);
  // remembered on the click itself: the toggle event comes later, maybe after a redraw
  const details = el("details", { class: "advanced", id: "advanced", open: ctx.ui.advancedOpen ? "open" : null },
    el("summary", { onclick: () => { ctx.ui.advancedOpen = !details.open; } }, "Advanced: a command in JSON"),
    box, button({ id: "send-json", onclick: send }, "Send"));
  return details;
}

function bidForm(ctx) {
  const input = el("input", { id: "bid-rp", type: "number", min: "0", max: "29", value: ctx.ui.bid ?? "7",
    oninput: () => { ctx.ui.bid = input.value; } });
  return el("div", { class: "choices" }, el("label", {}, "RP Qin will reach if you play Lianheng: ", input),
    button({ id: "submit-bid", onclick: () => ctx.send({ type: "bid", rp: Number(input.value) }) }, "Seal the bid"));
}

function select(id, values, current, onchange, blank) {
  return el("select", { id, onchange: (e) => onchange(e.target.value) },
    ...(blank ? [opt("", blank, !current)] : []), ...values.map(([v, words]) => opt(v, words, String(current) === String(v))));
}

// A card play offers only what the view lists (decision.plays, from the rules' legal
// commands): the face-down actions (any card makes them) and each card's face-up
// parameters. Each select narrows to the plays left by the choices above it, so no
// illegal combination can be put together; the button sends the one play chosen.
const PARAMS = { down: ["action", "force", "area", "dir", "move"], up: ["option", "force", "area", "general"] };
const PARAM_LABEL = { action: "Action", force: "Force", area: "Area", dir: "Direction", move: "Initiative", option: "Option", general: "General" };
const ACTION_WORDS = { military: "Military operation", reinforcement: "Reinforcement", diplomacy: "Diplomacy", weather: "Weather (initiative)" };
const NONE = "(none)"; // the value of a parameter a play leaves out

function paramWords(key, value, card) {
  if (value === NONE) return "none";
  if (key === "action") return ACTION_WORDS[value] || value;
  if (key === "force") return forceName(value);
  if (key === "area") return areaName(value);
  if (key === "general") return generalName(value);
  if (key === "dir") return value === "-1" ? "toward Serve Qin (Lianheng)" : "toward the Alliance";
  if (key === "move") return value === "true" ? "move the initiative token" : "leave it";
  if (key === "option") {  // the card's text holds its options, "a) … / b) …"
    const text = (cardText(card).split(" / ")[value === "b" ? 1 : 0] || "").replace(/^[ab]\)\s*/, "");
    return `${value}) ${text.length > 60 ? `${text.slice(0, 57)}…` : text}`;
  }
  return String(value);
}

const paramValue = (play, key) => (key in play ? String(play[key]) : NONE);

function playForm(view, ctx) {
  const ui = ctx.ui;
  const hand = view.hands?.[view.me] || [];
  const plays = view.decision?.plays || { down: [], up: {}, why: {} };
  if (ui.card && !hand.includes(ui.card)) ui.card = null;
  const pass = button({ "data-pass": "", id: "pass", onclick: () => ctx.send({ type: "pass" }) }, "Pass");
  if (!ui.card) return el("div", { class: "choices" }, el("p", { "data-focus": "play-card" }, "Choose a card of your hand to play, or pass."), pass);
  const card = ui.card;
  const lists = { down: plays.down || [], up: plays.up?.[card] || [] };
  const why = { down: t("play.down.none", {}), up: t(`play.up.${plays.why?.[card] || "condition"}`, {}) };
  let face = ui.face || "down";
  if (!lists[face].length && lists[face === "down" ? "up" : "down"].length) face = face === "down" ? "up" : "down";
  if (ui.picksFor !== `${card} ${face}`) { ui.picks = {}; ui.picksFor = `${card} ${face}`; }
  const faces = el("div", { class: "faces" }, ...["down", "up"].map((f) => {
    const open = lists[f].length > 0;
    return el("button", { type: "button", "data-face": f, "aria-pressed": face === f ? "true" : "false", disabled: open ? null : "disabled",
      "data-why": open ? null : why[f], title: open ? null : why[f], onclick: () => { ui.face = f; ctx.rerender(`face-${f}`); } },
    f === "down" ? "Face down: a generic action" : "Face up: the card's text", open ? null : el("span", { class: "why" }, ` (not now: ${why[f]})`));
  }));
  // Each parameter in turn: the values the plays left by the choices above offer.
  let left = lists[face];
  const fields = [];
  for (const key of PARAMS[face]) {
    if (!left.some((p) => key in p)) continue;
    const values = [...new Set(left.map((p) => paramValue(p, key)))];
    let current = ui.picks[key];
    if (!values.includes(current)) {
      const preferred = key === "dir" ? (view.me === "lianheng" ? "-1" : "1") : key === "move" ? "true" : null;
      current = values.length === 1 || key === "action" ? values[0] : values.includes(preferred) ? preferred : undefined;
      ui.picks[key] = current;
    }
    const chosen = current;
    fields.push(el("label", {}, `${PARAM_LABEL[key]} `, el("select", {
      id: `play-${key}`, "data-focus": `play-${key}`,
      onchange: (e) => { ui.picks[key] = e.target.value || undefined; ctx.rerender(`play-${key}`); },
    }, ...(chosen === undefined ? [opt("", "choose…", true)] : []),
    ...values.map((v) => opt(v, paramWords(key, v, card), v === chosen)))));
    if (chosen === undefined) { left = []; break; }  // the later parameters wait for this one
    left = left.filter((p) => paramValue(p, key) === chosen);
  }
  const play = left.length === 1 ? left[0] : null;
  const send = () => {
    if (!play) return;
    ctx.send({ type: "play", card, face, ...(face === "up" ? { action: "text" } : {}), ...play });
    Object.assign(ui, { card: undefined, face: undefined, picks: undefined, picksFor: undefined });
  };
  return el("div", { class: "choices play-form" },
    el("p", {}, el("strong", {}, cardName(card)), ` — ${cardText(card)}`), faces,
    el("div", { class: "params" }, ...fields),
    el("div", { class: "row" }, button({ id: "submit-play", class: "primary", disabled: play ? null : "disabled", onclick: send }, `Play ${face}`),
      button({ id: "cancel-play", onclick: () => { ui.card = undefined; ctx.rerender(); } }, "Another card"), pass));
}

function pickForm(view, ctx, decision) {
  if (decision.kind === "take") {  // the deck's cards, sorted (its order stays hidden)
    return el("div", { class: "pick-deck" }, el("p", {}, "Take a card from your draw deck:"),
      el("div", { class: "row" }, ...(decision.cards || []).map((card) => button({ "data-pick": card,
        title: cardText(card), onclick: () => ctx.send({ type: "pick", card }) }, cardName(card)))));
  }
  const words = decision.kind === "discard_drawn" ? "Click one of the cards just drawn, in your hand, to discard it." : "Click a card of your hand to discard it.";
  return el("p", { class: "pick-note" }, words);
}

// ---- a military operation built on the map ---------------------------------------------
export function opMarks(ctx) {
  const view = ctx.view;
  if (!ctx.deciding || view?.decision?.command !== "operate") return {};
  const op = (ctx.ui.op ||= { path: [] });
  const must = view.op?.must;
  if (must && !op.area) Object.assign(op, { area: must.area, force: must.force });
  const last = op.path.length ? op.path[op.path.length - 1] : op.area;
  return {
    from: op.area, path: op.path, reach: op.force ? neighbours(last) : [],
    onArea: (area) => {
      if (!op.force) { op.area = area; op.force = undefined; ctx.rerender(); return; }
      if (op.path[op.path.length - 1] === area) op.path.pop();
      else if (neighbours(last).includes(area)) op.path.push(area);
      else if (!op.path.length && !must) { op.area = area; op.force = undefined; }
      ctx.rerender();
    },
  };
}

function operateForm(view, ctx) {
  const op = (ctx.ui.op ||= { path: [] });
  const must = view.op?.must;
  if (must && !op.area) Object.assign(op, { area: must.area, force: must.force });
  const mine = (s) => factionOf(view, s.force) === view.me || (factionOf(view, s.force) === "neutral");
  const steps = [];
  const areaPick = select("op-area", AREAS().filter((a) => stacksOf(view.areas?.[a]).some((s) => s.ready || Object.values(s.gens || {}).some(Boolean)))
    .map((a) => [a, areaName(a)]), op.area, (v) => { ctx.ui.op = { path: [], area: v }; ctx.rerender("op-area"); }, "from area…");
  steps.push(el("p", {}, "1. Click an area on the map (or choose it) with the stack to operate: ", areaPick));
  if (op.area) {
    const stacks = stacksOf(view.areas?.[op.area]).filter((s) => s.ready || Object.values(s.gens || {}).some(Boolean));
    steps.push(el("div", { class: "row stacks" }, ...stacks.map((s) => button({
      "data-stack-choice": s.force, "aria-pressed": op.force === s.force ? "true" : "false", class: mine(s) ? "" : "muted",
      onclick: () => { ctx.ui.op = { path: [], area: op.area, force: s.force, armies: s.ready, generals: Object.keys(s.gens).filter((g) => s.gens[g]) }; ctx.rerender(); },
    }, stackWords(s)))));
  }
  const stack = op.force && stacksOf(view.areas?.[op.area]).find((s) => s.force === op.force);
  if (stack) {
    const ready = Object.keys(stack.gens || {}).filter((g) => stack.gens[g]);
    op.generals = (op.generals || []).filter((g) => ready.includes(g));
    const armies = el("input", { id: "op-armies", type: "number", min: "0", max: String(stack.ready), value: String(op.armies ?? stack.ready),
      oninput: () => { op.armies = Number(armies.value); } });
    const gens = ready.map((g) => el("label", { class: "check" }, el("input", { type: "checkbox", "data-general": g,
      checked: op.generals.includes(g) ? "checked" : null,
      onchange: (e) => { op.generals = e.target.checked ? [...op.generals, g] : op.generals.filter((x) => x !== g); ctx.rerender(); } }), ` ${generalName(g)}`));
    const activate = op.generals.length > 1
      ? el("label", {}, "Activated general ", select("op-activate", op.generals.map((g) => [g, generalName(g)]), op.activate, (v) => { op.activate = v || null; }, "choose…")) : null;
    const others = stacksOf(view.areas?.[op.area]).filter((s) => s.force !== op.force);
    const successor = stack.city && others.length
      ? el("label", {}, "If the city is emptied, it goes to ", select("op-successor", others.map((s) => [s.force, forceName(s.force)]), op.successor, (v) => { op.successor = v || undefined; }, "(as the rules give)")) : null;
    const ally = el("label", {}, "Allied armies moving along ", el("input", { id: "op-ally", type: "number", min: "0", max: "4", value: String(op.ally || 0),
      oninput: (e) => { op.ally = Number(e.target.value); } }));
    const last = op.path.length ? op.path[op.path.length - 1] : op.area;
    steps.push(el("div", { class: "params" }, el("label", {}, `2. Armies (of ${stack.ready} ready) `, armies), ...gens, activate, successor, ally));
    steps.push(el("p", {}, `3. Path: ${[op.area, ...op.path].map(areaName).join(" → ")}. Click a neighbouring area on the map, or: `),
      el("div", { class: "row steps" }, ...neighbours(last).map((a) => button({ "data-step": a, onclick: () => { op.path.push(a); ctx.rerender(); } }, `→ ${areaName(a)}`)),
        op.path.length ? button({ id: "op-undo", onclick: () => { op.path.pop(); ctx.rerender(); } }, "Undo step") : null));
    const command = (path) => {
      const cmd = { type: "operate", area: op.area, force: op.force, armies: Number(op.armies ?? stack.ready), generals: [...op.generals].sort(),
        activate: op.generals.length > 1 ? op.activate || op.generals[0] : null, path };
      if (op.ally) cmd.ally = op.ally;
      if (path.length && op.successor) cmd.successor = op.successor;
      return cmd;
    };
    steps.push(el("div", { class: "row" },
      button({ id: "op-send", class: "primary", disabled: op.path.length ? null : "disabled", onclick: () => { const c = command([...op.path]); ctx.ui.op = undefined; ctx.send(c); } }, "Move along the path"),
      button({ id: "op-attack", onclick: () => { const c = command([]); ctx.ui.op = undefined; ctx.send(c); } }, "Attack here (direct attack)"),
      button({ id: "op-clear", onclick: () => { ctx.ui.op = undefined; ctx.rerender(); } }, "Start again")));
  }
  return el("div", { class: "choices operate-form" }, ...steps);
}

export { optionWords };
