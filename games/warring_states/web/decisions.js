// Warring States' decisions: the hand (cards with their texts), and every decision owed
// (ctx.view.decision): bids, playing a card face up or down, military operations built on
// the map, options, private picks, responses; standing instructions; a JSON fallback.
import { clear, el } from "/static/api.js";
import {
  areaName, cardName, cardText, factionOf, forceName, generalName, kindOf, neighbours, POS, sideName,
  has, stacksOf, t,
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
  clear(node, el("h2", { id: "hand-title" }, t("page.hand.title", { side: sideName(side), n: hand.length })),
    el("div", { id: "hand", class: "hand ws-hand" }, ...cards),
    hand.length ? null : el("p", { class: "muted" }, t("page.hand.none")),
    mine.length ? el("details", { class: "my-discards" }, el("summary", {}, t("page.hand.discards", { n: mine.length })),
      el("ul", {}, ...mine.map((d) => el("li", {}, t(d.up ? "page.hand.discard.up" : "page.hand.discard.down", { card: cardName(d.card) }))))) : null,
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
  const modes = ["ask", "never", "auto"].map((mode) => [mode, t(`page.standing.${mode}`)]);
  return el("details", { id: "standing", class: "standing", open: ctx.ui.standingOpen ? "open" : null,
    ontoggle: (e) => { ctx.ui.standingOpen = e.target.open; } },
  el("summary", {}, t(`page.standing.now.${now.mode}`, { cards: (now.cards || []).map(cardName).join(", ") })),
  el("div", { class: "modes" }, ...modes.map(([mode, words]) => el("label", { class: "check" },
    el("input", { type: "radio", name: "standing-mode", value: mode, "data-standing-mode": mode,
      checked: ui.mode === mode ? "checked" : null, onchange: () => { ui.mode = mode; } }), ` ${words}`))),
  el("div", { class: "break-cards" }, ...boxes),
  button({ id: "set-standing", onclick: () => {
    ctx.ui.standing = undefined;
    ctx.send({ type: "standing", mode: ui.mode, ...(ui.mode === "auto" ? { cards: ui.cards } : {}) });
  } }, t("page.standing.set")));
}

// ---- an option in words ----------------------------------------------------------------
function optionWords(o, decision) {
  if (!o || typeof o !== "object") return String(o);
  if (decision.command === "respond") {
    if (!o.card) return t("page.option.pass");
    // Lord Xinling: one option per route Wei Wuji may take to the battle, said apart
    const id = !o.from ? "page.option.play" : o.path?.length ? "page.option.play.route.path" : "page.option.play.route";
    return t(id, { card: cardName(o.card), area: o.from ? areaName(o.from) : "", path: (o.path || []).map(areaName).join(" – "), text: cardText(o.card) });
  }
  const parts = [];
  // a phrase with its generals, when there are any: "…", "… with Bai Qi, Wang Jian"
  const withGens = (id, g, values) => t(g?.length ? `${id}.generals` : id, { ...values, generals: (g || []).map(generalName).join(", ") });
  if (o.do) parts.push(o.do === "stop" ? t("page.option.stop") : o.do === "onward" ? t("page.option.onward", { path: (o.path || []).map(areaName).join(" – ") }) : String(o.do));
  if (o.target) parts.push(t("page.option.attack", { force: forceName(o.target) }));
  if (o.join) parts.push(withGens("page.option.join", o.join.gens, { n: o.join.n || 0 }));
  if (o.general) parts.push(`${generalName(o.general)}`);
  if (o.force && !o.target) parts.push(forceName(o.force));
  if (o.area) parts.push(t("page.option.in", { area: areaName(o.area) }));
  if (o.areas) {
    parts.push(o.areas.length === 2 ? t("page.option.in.two", { area: areaName(o.areas[0]), other: areaName(o.areas[1]) })
      : t("page.option.in", { area: o.areas.map(areaName).join(", ") }));
  }
  if (o.to) parts.push(t("page.option.to", { area: areaName(o.to) }));
  if ("ready" in o || "tired" in o) parts.push(withGens("page.option.counters", o.gens, { ready: o.ready || 0, tired: o.tired || 0 }));
  else if ("armies" in o) parts.push(withGens("page.option.armies", o.gens, { n: o.armies }));
  if (o.act) parts.push(t("page.option.leads", { general: generalName(o.act) }));
  if (o.successor) parts.push(t("page.option.successor", { force: forceName(o.successor) }));
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
      el("p", { class: "muted" }, t("page.decision.kind", { kind: decision.kind })),
      ...options.map((o, i) => {
        // A response: the public options name cards; those not in the hand cannot be played.
        const held = decision.command !== "respond" || !o?.card || (view.hands?.[view.me] || []).some((c) => kindOf(c) === o.card);
        return button({ "data-option": String(i), disabled: held ? null : "disabled", onclick: () => ctx.send({ type: "choose", option: i }) },
          held ? optionWords(o, decision) : t("page.option.not_held", { option: optionWords(o, decision) }));
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
      ctx.say(t("page.json.bad", { error: error.message }));
      return;
    }
    ctx.ui.json = undefined;
    ctx.send(command);
  };
  // open stays open across redraws (a live update must not close the box under the typing);
  // remembered on the click itself: the toggle event comes later, maybe after a redraw
  const details = el("details", { class: "advanced", id: "advanced", open: ctx.ui.advancedOpen ? "open" : null },
    el("summary", { onclick: () => { ctx.ui.advancedOpen = !details.open; } }, t("page.json.title")),
    box, button({ id: "send-json", onclick: send }, t("page.json.send")));
  return details;
}

function bidForm(ctx) {
  const input = el("input", { id: "bid-rp", type: "number", min: "0", max: "29", value: ctx.ui.bid ?? "7",
    oninput: () => { ctx.ui.bid = input.value; } });
  return el("div", { class: "choices" }, el("label", {}, t("page.bid.label"), input),
    button({ id: "submit-bid", onclick: () => ctx.send({ type: "bid", rp: Number(input.value) }) }, t("page.bid.seal")));
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
const NONE = "(none)"; // the value of a parameter a play leaves out

function paramWords(key, value, card) {
  if (value === NONE) return t("page.value.none");
  if (key === "action") return has(`page.action.${value}`) ? t(`page.action.${value}`) : value;
  if (key === "force") return forceName(value);
  if (key === "area") return areaName(value);
  if (key === "general") return generalName(value);
  if (key === "dir") return t(value === "-1" ? "page.dir.serve" : "page.dir.alliance");
  if (key === "move") return t(value === "true" ? "page.move.yes" : "page.move.no");
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
  const pass = button({ "data-pass": "", id: "pass", onclick: () => ctx.send({ type: "pass" }) }, t("page.play.pass"));
  if (!ui.card) return el("div", { class: "choices" }, el("p", { "data-focus": "play-card" }, t("page.play.pick")), pass);
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
    t(f === "down" ? "page.play.down" : "page.play.up"), open ? null : el("span", { class: "why" }, t("page.play.not_now", { why: why[f] })));
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
    fields.push(el("label", {}, `${t(`page.param.${key}`)} `, el("select", {
      id: `play-${key}`, "data-focus": `play-${key}`,
      onchange: (e) => { ui.picks[key] = e.target.value || undefined; ctx.rerender(`play-${key}`); },
    }, ...(chosen === undefined ? [opt("", t("page.choose"), true)] : []),
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
    el("div", { class: "row" }, button({ id: "submit-play", class: "primary", disabled: play ? null : "disabled", onclick: send }, t(`page.play.send.${face}`)),
      button({ id: "cancel-play", onclick: () => { ui.card = undefined; ctx.rerender(); } }, t("page.play.another")), pass));
}

function pickForm(view, ctx, decision) {
  if (decision.kind === "take") {  // the deck's cards, sorted (its order stays hidden)
    return el("div", { class: "pick-deck" }, el("p", {}, t("page.pick.deck")),
      el("div", { class: "row" }, ...(decision.cards || []).map((card) => button({ "data-pick": card,
        title: cardText(card), onclick: () => ctx.send({ type: "pick", card }) }, cardName(card)))));
  }
  const words = t(decision.kind === "discard_drawn" ? "page.pick.drawn" : "page.pick.hand");
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
    .map((a) => [a, areaName(a)]), op.area, (v) => { ctx.ui.op = { path: [], area: v }; ctx.rerender("op-area"); }, t("page.op.from"));
  steps.push(el("p", {}, t("page.op.step1"), areaPick));
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
      ? el("label", {}, t("page.op.activate"), select("op-activate", op.generals.map((g) => [g, generalName(g)]), op.activate, (v) => { op.activate = v || null; }, t("page.choose"))) : null;
    const others = stacksOf(view.areas?.[op.area]).filter((s) => s.force !== op.force);
    const successor = stack.city && others.length
      ? el("label", {}, t("page.op.successor"), select("op-successor", others.map((s) => [s.force, forceName(s.force)]), op.successor, (v) => { op.successor = v || undefined; }, t("page.op.successor.rules"))) : null;
    const ally = el("label", {}, t("page.op.ally"), el("input", { id: "op-ally", type: "number", min: "0", max: "4", value: String(op.ally || 0),
      oninput: (e) => { op.ally = Number(e.target.value); } }));
    const last = op.path.length ? op.path[op.path.length - 1] : op.area;
    steps.push(el("div", { class: "params" }, el("label", {}, t("page.op.step2", { n: stack.ready }), armies), ...gens, activate, successor, ally));
    steps.push(el("p", {}, t("page.op.step3", { path: [op.area, ...op.path].map(areaName).join(" → ") })),
      el("div", { class: "row steps" }, ...neighbours(last).map((a) => button({ "data-step": a, onclick: () => { op.path.push(a); ctx.rerender(); } }, `→ ${areaName(a)}`)),
        op.path.length ? button({ id: "op-undo", onclick: () => { op.path.pop(); ctx.rerender(); } }, t("page.op.undo")) : null));
    const command = (path) => {
      const cmd = { type: "operate", area: op.area, force: op.force, armies: Number(op.armies ?? stack.ready), generals: [...op.generals].sort(),
        activate: op.generals.length > 1 ? op.activate || op.generals[0] : null, path };
      if (op.ally) cmd.ally = op.ally;
      if (path.length && op.successor) cmd.successor = op.successor;
      return cmd;
    };
    steps.push(el("div", { class: "row" },
      button({ id: "op-send", class: "primary", disabled: op.path.length ? null : "disabled", onclick: () => { const c = command([...op.path]); ctx.ui.op = undefined; ctx.send(c); } }, t("page.op.move")),
      button({ id: "op-attack", onclick: () => { const c = command([]); ctx.ui.op = undefined; ctx.send(c); } }, t("page.op.attack")),
      button({ id: "op-clear", onclick: () => { ctx.ui.op = undefined; ctx.rerender(); } }, t("page.op.again"))));
  }
  return el("div", { class: "choices operate-form" }, ...steps);
}

export { optionWords };
