// Warring States' placeholder front end (the real one comes with issue 15), behind the
// interface the page shell loads a game by (games/sun_tzu/web/README.md): the position as
// text, a decision as buttons (public options) or as a command typed in JSON.
import { clear, el } from "/static/api.js";

let kind = null;

export function init(k) {
  kind = k;
}

const label = (seat) => kind.label(seat);
const SIDES = { lianheng: "Lianheng", alliance: "the Alliance" };
const sideOf = (view, seat) => SIDES[view?.sides?.[seat]] || "side not yet known";

function counters(stack) {
  if (!stack) return "";
  const gens = Object.keys(stack.gens || {}).join(", ");
  return `${stack.force} ${stack.ready} ready, ${stack.tired} exhausted${gens ? ` (${gens})` : ""}`;
}

export function renderBoard(node, view, ctx) {
  if (!view) {
    clear(node, el("p", { class: "muted" }, ctx.viewer || ""));
    return;
  }
  const areas = Object.entries(view.areas || {}).map(([area, content]) => {
    const stacks = [content.city, ...(content.field || [])].filter(Boolean).map(counters);
    return el("li", { "data-area": area }, `${area}: ${stacks.join("; ") || "empty"}`);
  });
  clear(node,
    el("p", { id: "status" }, `Turn ${view.turn} of ${view.turns}, ${view.phase}; Qin holds ${view.qin_rp} RP of ${view.target}`),
    el("p", { class: "muted" }, "The map and cards of this game come with its own front end; this page shows the position as text."),
    el("ul", { id: "areas" }, ...areas));
}

export function renderPlayers(node, view, ctx) {
  if (!view) return clear(node);
  clear(node, ...kind.seatIds.map((seat) => el("section", { class: "player", "data-seat": seat },
    el("h2", { class: "player-name" }, `${label(seat)}: ${sideOf(view, seat)}`),
    el("p", {}, `RP held: Lianheng ${view.rp?.lianheng ?? "?"}, the Alliance ${view.rp?.alliance ?? "?"}`))));
}

export function renderHand(node, view, ctx) {
  const side = view?.me;
  const hand = side && view?.hands?.[side];
  if (!hand || !hand.length) return false;
  clear(node, el("h2", { id: "hand-title" }, "Your hand"),
    el("div", { id: "hand", class: "hand" }, ...hand.map((card) => el("span", { class: "card" }, String(card)))));
  return true;
}

// The command each decision owed is answered with (a window is answered with "choose").
const COMMAND = { bid: "bid", action: "play", operate: "operate", choose: "choose", respond: "choose", pick: "pick" };

export function renderDecision(node, ctx) {
  const decision = ctx.view?.decision;
  if (!ctx.deciding || !decision) return false;
  const title = el("h2", { id: "decision-title" }, kind.t(`prompt.${decision.command}`, {}));
  const options = Array.isArray(decision.options) ? decision.options : [];
  const buttons = options.map((option, i) => el("button", {
    type: "button", "data-option": String(i), onclick: () => ctx.send({ type: "choose", option: i }),
  }, JSON.stringify(option)));
  // Any command, typed in JSON (kept across redraws): the one owed, pass, standing, resign.
  const box = el("textarea", { id: "command-json", rows: "3", cols: "60",
    oninput: () => { ctx.ui.json = box.value; } },
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
  clear(node, title, el("div", { class: "choices" }, ...buttons), box,
    el("button", { type: "button", id: "send-json", onclick: send }, "Send"));
  return true;
}
