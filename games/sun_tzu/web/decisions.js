// The decisions a seat answers, each drawn from ``view.decision``; the five-card placement
// (click a card then a province, or keys: arrows between cards, Enter to pick, 1–5 to place);
// the seat's hand and the stand-alone exceptional reinforcement. ctx: see README.md.
import { cap, clear, el } from "/static/api.js";
import { AFTER, FRAMED, PROVINCES, REACTIVE, WARLORDS_OF, cardName, cardTip, playText, tip, warlordName, warlordText } from "./names.js";
import { tipped } from "./tips.js";

export function heldWarlords(view, me) {
  const p = view.players[me];
  return (p.warlords || []).filter((w) => !p.warlords_played.includes(w));
}

const title = (text) => el("h2", { id: "decision-title" }, text);
const btn = (children, onclick, attrs = {}) => el("button", { type: "button", onclick, ...attrs }, children);

// ---- placement ------------------------------------------------------------------------
export function placement(ctx) {
  const { view, me, ui } = ctx;
  const hand = view.players[me].hand;
  const key = `${view.round}:${hand.join(",")}`;
  if (!ui.place || ui.place.key !== key) ui.place = { key, chosen: {}, selected: null, play: "", arm: {}, supply: "" };
  return ui.place;
}

function assign(ctx, province) {
  const st = placement(ctx);
  if (st.chosen[province] !== undefined && st.selected === null) {
    delete st.chosen[province]; // take the card back
  } else if (st.selected === null) {
    ctx.say("Pick a card from your hand first.");
    return;
  } else if (sixBlocked(ctx, province, st.selected)) {
    ctx.say(tip("tip.six.blocked", { province }) || `Your 6 may not go to ${province}.`);
    return;
  } else {
    for (const [p, i] of Object.entries(st.chosen)) if (i === st.selected) delete st.chosen[p];
    st.chosen[province] = st.selected;
    st.selected = null;
  }
  ctx.rerender(`hand-${nextFree(ctx)}`);
}

// The rules' one limit on where a card may go: not a 6 where the seat's own 6-marker
// stands, unless it holds Double six (then placing it there plays Double six).
export function sixBlocked(ctx, province, index) {
  const { view, me } = ctx;
  if (index === null || index === undefined || view.players[me].hand[index] !== "6") return false;
  const p = view.provinces[PROVINCES.indexOf(province)];
  return p.markers[me] > 0 && !heldWarlords(view, me).includes("double_six");
}

function nextFree(ctx) {
  const st = placement(ctx);
  const used = new Set(Object.values(st.chosen));
  const i = ctx.view.players[ctx.me].hand.findIndex((_, k) => !used.has(k));
  return i < 0 ? 0 : i;
}

// The seat's own hand (its panel's title and cards; buttons while it places): false when
// there is none to show.
export function renderHand(node, view, ctx) {
  const me = ctx.me;
  if (!(me && view && view.players[me]?.hand)) return false;
  const placing = ctx.deciding && view.decision?.kind === "place";
  clear(node, el("h2", { id: "hand-title" }, "Your hand"),
    el("div", { id: "hand", class: "hand", role: "toolbar", "aria-label": "Your cards" }, handNodes(ctx, placing)));
  node.setAttribute("aria-labelledby", "hand-title");
  return true;
}

function handNodes(ctx, placing) {
  const hand = ctx.view.players[ctx.me].hand;
  const st = placing ? placement(ctx) : null;
  return hand.map((card, i) => {
    const framed = FRAMED.includes(card) ? " framed" : "";
    const pip = card === "plague" ? "☠" : card;
    if (!placing) return tipped(el("span", { class: `card${framed}`, "data-owner": ctx.me, "data-card": card, "data-pip": pip }, cardName(card)), cardTip(card));
    const where = Object.keys(st.chosen).find((p) => st.chosen[p] === i);
    return tipped(el("button", {
      type: "button", class: `card${framed}${where ? " used" : ""}${st.selected === i ? " selected" : ""}`, "data-pip": pip,
      "data-owner": ctx.me, "data-card": card, "data-focus": `hand-${i}`, "data-index": i,
      "aria-pressed": st.selected === i ? "true" : "false",
      "aria-label": `${cardName(card)}${where ? `, placed in ${where}` : ""}`,
      onclick: () => { st.selected = st.selected === i ? null : i; ctx.rerender(`hand-${i}`); },
      onkeydown: (e) => arrows(e, i, hand.length),
    }, cardName(card), where ? el("small", {}, ` → ${where}`) : null), cardTip(card));
  });
}

function arrows(event, i, n) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (!step) return;
  event.preventDefault();
  document.querySelector(`[data-focus="hand-${(i + step + n) % n}"]`)?.focus();
}

export function slotFor(ctx) {
  const st = placement(ctx);
  const hand = ctx.view.players[ctx.me].hand;
  return (province, i) => {
    const chosen = st.chosen[province];
    if (chosen === undefined && sixBlocked(ctx, province, st.selected)) {
      const why = tip("tip.six.blocked", { province }) || `Your 6 may not go to ${province}.`;
      return btn(["No 6 here", el("small", { class: "why" }, " (your 6-marker)")], null, {
        class: "slot blocked", disabled: true, "data-focus": `slot-${province}`, "data-slot": province,
        "data-blocked": "six", title: why, "aria-label": `${province}: ${why}`,
      });
    }
    const label = chosen === undefined ? `Place here (${i + 1})` : `${cardName(hand[chosen])} — take back`;
    return btn(label, () => assign(ctx, province), {
      class: `slot${chosen === undefined ? "" : " filled"}`, "data-focus": `slot-${province}`,
      "data-colour": chosen === undefined ? null : ctx.me,
      "data-slot": province, "aria-label": chosen === undefined ? `Place the picked card in ${province}` : `${province}: ${cardName(hand[chosen])}, take it back`,
    });
  };
}

// Keys 1–5 place the picked card; Escape drops the pick.
export function onKey(event, ctx) {
  if (!(ctx.deciding && ctx.view?.decision?.kind === "place")) return false;
  if (/^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) return false;
  const st = placement(ctx);
  if (event.key === "Escape") { st.selected = null; ctx.rerender(); return true; }
  const n = Number(event.key);
  if (n >= 1 && n <= 5 && !event.ctrlKey && !event.metaKey && !event.altKey) {
    assign(ctx, PROVINCES[n - 1]);
    return true;
  }
  return false;
}

function placeCommand(ctx) {
  const { view, me } = ctx;
  const st = placement(ctx);
  const hand = view.players[me].hand;
  const cards = Object.fromEntries(PROVINCES.map((p) => [p, hand[st.chosen[p]]]));
  const command = { type: "place", cards };
  const plays = [];
  if (st.play) plays.push(JSON.parse(st.play));
  const six = PROVINCES.find((p) => cards[p] === "6");
  const onMarker = six && view.provinces[PROVINCES.indexOf(six)].markers[me] > 0;
  if (onMarker && heldWarlords(view, me).includes("double_six")) plays.push({ warlord: "double_six" });
  if (plays.length) command.warlords = plays;
  const arm = Object.fromEntries(Object.entries(st.arm).filter(([, v]) => v));
  if (Object.keys(arm).length) command.arm = arm;
  if (st.supply) command.supply = st.supply;
  return command;
}

function placePanel(ctx) {
  const { view, me } = ctx;
  const st = placement(ctx);
  const hand = view.players[me].hand;
  const done = PROVINCES.filter((p) => st.chosen[p] !== undefined).length;
  const held = heldWarlords(view, me);
  const plays = (view.decision.warlord_plays || []).filter((p) => p.warlord !== "double_six");
  const parts = [
    title("Place your five cards"),
    el("p", {}, "Pick a card in your hand, then a province. Keys: arrows move between cards, Enter picks, 1–5 places it (1 Qin, 2 Chu, 3 Jin-Yan, 4 Han-Qi, 5 Wu), Escape drops the pick."),
    el("ul", { class: "plain summary" }, PROVINCES.map((p) =>
      el("li", { "data-summary": p }, `${p}: `, st.chosen[p] === undefined ? "—" : cardName(hand[st.chosen[p]])))),
  ];
  const six = PROVINCES.find((p) => hand[st.chosen[p]] === "6" && view.provinces[PROVINCES.indexOf(p)].markers[me] > 0);
  if (six) parts.push(el("p", { class: "muted", "data-double-six": six }, tip("tip.six.double", { province: six })));
  if (plays.length) {
    parts.push(el("label", { for: "play-before" }, "Play a Warlord before the battles"),
      el("select", { id: "play-before", "data-focus": "play-before", onchange: (e) => { st.play = e.target.value; } },
        el("option", { value: "" }, "No"),
        plays.map((p) => el("option", { value: JSON.stringify(p), selected: st.play === JSON.stringify(p) }, playText(p)))));
  }
  for (const w of held.filter((x) => REACTIVE.includes(x))) parts.push(armControl(st, w));
  parts.push(el("label", { for: "supply" }, "If your winning armies must come from the board"),
    el("select", { id: "supply", "data-focus": "supply", onchange: (e) => { st.supply = e.target.value; } },
      [["", "ask me each time"], ["largest", "take from my largest stack first"], ["smallest", "take from my smallest stack first"]]
        .map(([value, text]) => el("option", { value, selected: st.supply === value }, text))));
  parts.push(el("div", { class: "buttons" },
    btn(done === 5 ? "Place these cards" : `Place these cards (${done} of 5 chosen)`, () => ctx.send(placeCommand(ctx)),
      { class: "primary", id: "submit-place", "data-focus": "submit-place", disabled: done !== 5 }),
    btn("Clear", () => { st.chosen = {}; st.selected = null; ctx.rerender("hand-0"); }, { id: "clear-place", "data-focus": "clear-place" })));
  return parts;
}

function armControl(st, warlord) {
  const [name, text] = [warlordName(warlord), warlordText(warlord)];
  const id = `arm-${warlord}`;
  if (warlord === "restraint") {
    return el("p", {}, el("label", { for: id }, `Arm ${name} in`), " ",
      el("select", { id, "data-focus": id, onchange: (e) => { st.arm.restraint = e.target.value || null; } },
        el("option", { value: "" }, "no province"),
        PROVINCES.map((p) => el("option", { value: p, selected: st.arm.restraint === p }, p))),
      el("span", { class: "muted" }, ` ${text}`));
  }
  return el("p", {}, el("label", {}, el("input", { type: "checkbox", id, "data-focus": id, checked: !!st.arm[warlord],
    onchange: (e) => { st.arm[warlord] = e.target.checked; } }), ` Arm ${name}`), el("span", { class: "muted" }, ` ${text}`));
}

// ---- the other decisions ---------------------------------------------------------------
function warlordPanel(ctx, extra) {
  const { view, me } = ctx;
  const mine = WARLORDS_OF[me] || [];
  const kept = view.players[me].warlords || [];
  const names = mine.filter((w) => !extra || (!kept.includes(w) && w !== "head_start"));
  return [
    title(extra ? "War chariot: choose one more Warlord" : "Choose your Warlord"),
    el("p", {}, "Your choice stays secret until you play it."),
    el("div", { class: "choices" }, names.map((w) => btn(
      [el("strong", {}, warlordName(w)), el("span", { class: "muted" }, warlordText(w))],
      () => ctx.send({ type: extra ? "extra_warlord" : "choose_warlord", warlord: w }),
      { class: "choice", "data-warlord": w, "data-focus": `warlord-${w}` }))),
  ];
}

function nextProvincePanel(ctx) {
  const left = ctx.view.decision.provinces;
  return [
    title("You hold the privilege: where is the next battle?"),
    el("div", { class: "choices" }, left.map((p) => btn(p, () => ctx.send({ type: "next_province", provinces: [p] }),
      { class: "choice", "data-province-choice": p, "data-focus": `next-${p}` }))),
    left.length > 1 ? btn(`All in board order: ${left.join(", ")}`, () => ctx.send({ type: "next_province", provinces: left }),
      { "data-focus": "next-all" }) : null,
  ];
}

function keepPanel(ctx) {
  const { drawn, keep } = ctx.view.decision;
  const k = `${ctx.view.round}:${drawn.join(",")}`;
  if (!ctx.ui.keep || ctx.ui.keep.key !== k) ctx.ui.keep = { key: k, picked: [] };
  const st = ctx.ui.keep;
  const toggle = (i) => {
    st.picked = st.picked.includes(i) ? st.picked.filter((x) => x !== i) : [...st.picked, i].slice(-keep);
    ctx.rerender(`keep-${i}`);
  };
  return [
    title(`Keep ${keep} of the cards you drew`),
    el("p", {}, "The others go to the bottom of your deck."),
    el("div", { class: "hand" }, drawn.map((card, i) => tipped(btn(cardName(card), () => toggle(i), {
      class: `card${FRAMED.includes(card) ? " framed" : ""}${st.picked.includes(i) ? " selected" : ""}`, "data-owner": ctx.me, "data-card": card,
      "data-pip": card === "plague" ? "☠" : card,
      "data-keep": i, "data-focus": `keep-${i}`, "aria-pressed": st.picked.includes(i) ? "true" : "false" }), cardTip(card)))),
    btn(`Keep ${st.picked.length === keep ? st.picked.map((i) => cardName(drawn[i])).join(", ") : `(${st.picked.length} of ${keep} chosen)`}`,
      () => ctx.send({ type: "keep", cards: st.picked.map((i) => drawn[i]) }),
      { class: "primary", id: "submit-keep", "data-focus": "submit-keep", disabled: st.picked.length !== keep }),
  ];
}

const WHY = { margin: "You won the battle", six: "Your 6 takes 1 army to its 6-marker", "+2": "Your +2 sets an army aside",
  "+3": "Your +3 sets 2 armies aside", light_infantry: "Light infantry" };

function sourcesPanel(ctx) {
  const { view, me } = ctx;
  const d = view.decision;
  const spare = [...new Set(view.players[me].hand.filter((c) => !FRAMED.includes(c)))];
  const k = `${view.round}:${JSON.stringify(d)}`;
  if (!ctx.ui.sources || ctx.ui.sources.key !== k) ctx.ui.sources = { key: k, reinforce: "", take: null };
  const st = ctx.ui.sources;
  const reserve = view.players[me].reserve + (st.reinforce ? 1 : 0);
  const available = d.tiers.reduce((n, t) => n + Object.values(t).reduce((a, b) => a + b, 0), 0);
  const boardNeed = Math.min(Math.max(0, d.need - reserve), available);
  if (!st.take) { // a legal default: the tiers in order
    st.take = {};
    let left = boardNeed;
    for (const tier of d.tiers) for (const [p, n] of Object.entries(tier)) { const t = Math.min(n, left); st.take[p] = t; left -= t; }
  }
  const why = WHY[d.why] || cap(String(d.why).replace(/_/g, " "));
  const to = String(d.to).startsWith("marker@") ? `the 6-marker in ${d.to.slice(7)}` : d.to === "aside" ? "the set-aside pool" : d.to;
  const tierName = (i) => (d.tiers.length > 1 ? (i === 0 ? `Provinces next to ${d.to}` : "Other provinces") : "Your provinces");
  // what the rules allow (the same as the server checks): exactly what the board must give,
  // and the provinces next to the battle emptied before any other is touched
  const problem = () => {
    const taken = Object.values(st.take).reduce((a, b) => a + b, 0);
    if (taken !== boardNeed) return tip("tip.sources.sum", { n: boardNeed }) || `Take exactly ${boardNeed} from the board.`;
    for (let i = 1; i < d.tiers.length; i++) {
      const later = Object.keys(d.tiers[i]).some((p) => (st.take[p] || 0) > 0);
      const earlierLeft = d.tiers.slice(0, i).some((tier) => Object.entries(tier).some(([p, n]) => (st.take[p] || 0) < n));
      if (later && earlierLeft) return tip("tip.sources.order", { province: d.to }) || `Take from the provinces next to ${d.to} first.`;
    }
    return "";
  };
  const check = () => {
    const why = problem();
    const submit = document.getElementById("submit-sources");
    const note = document.getElementById("sources-why");
    if (submit) submit.disabled = !!why;
    if (note) { note.textContent = why; note.hidden = !why; }
  };
  queueMicrotask(check);
  const command = () => {
    const cmd = { type: "sources", take: Object.fromEntries(Object.entries(st.take).filter(([, n]) => n > 0)) };
    if (st.reinforce) cmd.reinforce = [st.reinforce];
    return cmd;
  };
  return [
    title("Where do your armies come from?"),
    el("p", {}, `${why}: ${d.need} ${d.need === 1 ? "army goes" : "armies go"} to ${to}. `,
      `${Math.min(d.need, reserve)} come from your reserve; take ${boardNeed} from the board`,
      d.tiers.length > 1 ? `, from the provinces next to ${d.to} first.` : "."),
    d.tiers.map((tier, i) => Object.keys(tier).length === 0 ? null : el("fieldset", {}, el("legend", {}, tierName(i)),
      Object.entries(tier).map(([p, n]) => el("label", { class: "take" }, `${p} (you have ${n}) `,
        el("input", { type: "number", min: 0, max: n, value: st.take[p] ?? 0, "data-take": p, "data-focus": `take-${p}`,
          oninput: (e) => { st.take[p] = Math.max(0, Number.parseInt(e.target.value, 10) || 0); check(); } }))))),
    spare.length && view.players[me].aside ? el("p", {}, el("label", { for: "sources-reinforce" }, "First discard a card to bring 1 set-aside army to your reserve: "),
      el("select", { id: "sources-reinforce", "data-focus": "sources-reinforce",
        onchange: (e) => { st.reinforce = e.target.value; st.take = null; ctx.rerender("sources-reinforce"); } },
      el("option", { value: "" }, "no"), spare.map((c) => el("option", { value: c, selected: st.reinforce === c }, cardName(c))))) : null,
    el("p", { id: "sources-why", class: "error", role: "status", hidden: true }),
    btn("Send these armies", () => { if (!problem()) ctx.send(command()); },
      { class: "primary", id: "submit-sources", "data-focus": "submit-sources", "aria-describedby": "sources-why" }),
  ];
}

function afterPanel(ctx) {
  const plays = (ctx.view.decision.warlord_plays || []).filter((p) => AFTER.includes(p.warlord));
  return [
    title("After the battles: play a Warlord?"),
    el("p", {}, "Everyone who still holds a Warlord is asked, so passing tells nothing."),
    el("div", { class: "choices" },
      btn("Pass", () => ctx.send({ type: "after_battles", warlords: [] }), { class: "choice primary", "data-pass": "", "data-focus": "after-pass" }),
      plays.map((p, i) => btn(playText(p), () => ctx.send({ type: "after_battles", warlords: [p] }),
        { class: "choice", "data-play": p.warlord, "data-focus": `after-${i}` }))),
  ];
}

const PANELS = {
  place: placePanel, choose_warlord: (c) => warlordPanel(c, false), extra_warlord: (c) => warlordPanel(c, true),
  next_province: nextProvincePanel, keep: keepPanel, sources: sourcesPanel, after_battles: afterPanel,
};

// The panel of the decision the seat owes (false: none to show).
export function renderDecision(node, ctx) {
  const d = ctx.view?.decision;
  if (!d) {
    clear(node);
    return false;
  }
  const panel = PANELS[d.kind];
  clear(node, panel ? panel(ctx) : el("p", {}, `Decision: ${d.kind}`));
  return true;
}

// The stand-alone exceptional reinforcement (in "more").
export function renderExtras(node, ctx) {
  const { view, me } = ctx;
  const spare = [...new Set(view.players[me].hand.filter((c) => !FRAMED.includes(c)))];
  if (!view.players[me].aside || !spare.length) {
    return clear(node, el("p", { class: "muted" }, "Exceptional reinforcement needs a set-aside army and a 7–10, ±, or Plague card in hand."));
  }
  const select = el("select", { id: "reinforce-card", "data-focus": "reinforce-card" }, spare.map((c) => el("option", { value: c }, cardName(c))));
  return clear(node, el("p", {}, "Discard a card (shown to your opponent) to move 1 army from your set-aside pool to your reserve."),
    el("p", {}, el("label", { for: "reinforce-card" }, "Card "), select, " ",
      btn("Discard it", () => ctx.send({ type: "reinforce", card: select.value }), { id: "reinforce", "data-focus": "reinforce" })));
}
