// The decisions a seat answers, each drawn from ``view.decision``; the five-card placement
// (click a card then a province, or keys: arrows between cards, Enter to pick, 1–5 to place);
// the seat's hand and the stand-alone exceptional reinforcement. ctx: see README.md.
import { cap, clear, el } from "/static/api.js";
import {
  AFTER, FRAMED, PROVINCES, REACTIVE, WARLORDS_OF, cardName, cardTip, has, playText, provinceName, t, tip, warlordName, warlordText,
} from "./names.js";
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
    ctx.say(t("page.place.pick_first"));
    return;
  } else if (sixBlocked(ctx, province, st.selected)) {
    ctx.say(t("tip.six.blocked", { province: provinceName(province) }));
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
  clear(node, el("h2", { id: "hand-title" }, t("page.hand.title")),
    el("div", { id: "hand", class: "hand", role: "toolbar", "aria-label": t("page.hand.label") }, handNodes(ctx, placing)));
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
      "aria-label": where ? t("page.hand.placed", { card: cardName(card), province: provinceName(where) }) : cardName(card),
      onclick: () => { st.selected = st.selected === i ? null : i; ctx.rerender(`hand-${i}`); },
      onkeydown: (e) => arrows(e, i, hand.length),
    }, cardName(card), where ? el("small", {}, ` → ${provinceName(where)}`) : null), cardTip(card));
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
      const why = t("tip.six.blocked", { province: provinceName(province) });
      return btn([t("page.place.no_six"), el("small", { class: "why" }, t("page.place.no_six.why"))], null, {
        class: "slot blocked", disabled: true, "data-focus": `slot-${province}`, "data-slot": province,
        "data-blocked": "six", title: why, "aria-label": t("page.place.slot.why", { province: provinceName(province), why }),
      });
    }
    const label = chosen === undefined ? t("page.place.slot", { n: i + 1 }) : t("page.place.slot.filled", { card: cardName(hand[chosen]) });
    return btn(label, () => assign(ctx, province), {
      class: `slot${chosen === undefined ? "" : " filled"}`, "data-focus": `slot-${province}`,
      "data-colour": chosen === undefined ? null : ctx.me,
      "data-slot": province, "aria-label": chosen === undefined ? t("page.place.slot.label", { province: provinceName(province) })
        : t("page.place.slot.filled.label", { province: provinceName(province), card: cardName(hand[chosen]) }),
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
    title(t("page.place.title")),
    el("p", {}, t("page.place.help")),
    el("ul", { class: "plain summary" }, PROVINCES.map((p) =>
      el("li", { "data-summary": p }, t("page.place.summary", { province: provinceName(p) }), st.chosen[p] === undefined ? "—" : cardName(hand[st.chosen[p]])))),
  ];
  const six = PROVINCES.find((p) => hand[st.chosen[p]] === "6" && view.provinces[PROVINCES.indexOf(p)].markers[me] > 0);
  if (six) parts.push(el("p", { class: "muted", "data-double-six": six }, tip("tip.six.double", { province: provinceName(six) })));
  if (plays.length) {
    parts.push(el("label", { for: "play-before" }, t("page.place.warlord")),
      el("select", { id: "play-before", "data-focus": "play-before", onchange: (e) => { st.play = e.target.value; } },
        el("option", { value: "" }, t("page.place.warlord.no")),
        plays.map((p) => el("option", { value: JSON.stringify(p), selected: st.play === JSON.stringify(p) }, playText(p)))));
  }
  for (const w of held.filter((x) => REACTIVE.includes(x))) parts.push(armControl(st, w));
  parts.push(el("label", { for: "supply" }, t("page.place.supply")),
    el("select", { id: "supply", "data-focus": "supply", onchange: (e) => { st.supply = e.target.value; } },
      [["", "ask"], ["largest", "largest"], ["smallest", "smallest"]]
        .map(([value, id]) => el("option", { value, selected: st.supply === value }, t(`page.supply.${id}`)))));
  parts.push(el("div", { class: "buttons" },
    btn(done === 5 ? t("page.place.send") : t("page.place.send.count", { n: done }), () => ctx.send(placeCommand(ctx)),
      { class: "primary", id: "submit-place", "data-focus": "submit-place", disabled: done !== 5 }),
    btn(t("page.place.clear"), () => { st.chosen = {}; st.selected = null; ctx.rerender("hand-0"); }, { id: "clear-place", "data-focus": "clear-place" })));
  return parts;
}

function armControl(st, warlord) {
  const [name, text] = [warlordName(warlord), warlordText(warlord)];
  const id = `arm-${warlord}`;
  if (warlord === "restraint") {
    return el("p", {}, el("label", { for: id }, t("page.arm.in", { warlord: name })), " ",
      el("select", { id, "data-focus": id, onchange: (e) => { st.arm.restraint = e.target.value || null; } },
        el("option", { value: "" }, t("page.arm.none")),
        PROVINCES.map((p) => el("option", { value: p, selected: st.arm.restraint === p }, provinceName(p)))),
      el("span", { class: "muted" }, ` ${text}`));
  }
  return el("p", {}, el("label", {}, el("input", { type: "checkbox", id, "data-focus": id, checked: !!st.arm[warlord],
    onchange: (e) => { st.arm[warlord] = e.target.checked; } }), t("page.arm", { warlord: name })), el("span", { class: "muted" }, ` ${text}`));
}

// ---- the other decisions ---------------------------------------------------------------
function warlordPanel(ctx, extra) {
  const { view, me } = ctx;
  const mine = WARLORDS_OF[me] || [];
  const kept = view.players[me].warlords || [];
  const names = mine.filter((w) => !extra || (!kept.includes(w) && w !== "head_start"));
  return [
    title(t(extra ? "page.warlord.extra" : "page.warlord.choose")),
    el("p", {}, t("page.warlord.secret")),
    el("div", { class: "choices" }, names.map((w) => btn(
      [el("strong", {}, warlordName(w)), el("span", { class: "muted" }, warlordText(w))],
      () => ctx.send({ type: extra ? "extra_warlord" : "choose_warlord", warlord: w }),
      { class: "choice", "data-warlord": w, "data-focus": `warlord-${w}` }))),
  ];
}

function nextProvincePanel(ctx) {
  const left = ctx.view.decision.provinces;
  return [
    title(t("page.next.title")),
    el("div", { class: "choices" }, left.map((p) => btn(provinceName(p), () => ctx.send({ type: "next_province", provinces: [p] }),
      { class: "choice", "data-province-choice": p, "data-focus": `next-${p}` }))),
    left.length > 1 ? btn(t("page.next.all", { provinces: left.map(provinceName).join(", ") }), () => ctx.send({ type: "next_province", provinces: left }),
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
    title(t("page.keep.title", { n: keep })),
    el("p", {}, t("page.keep.rest")),
    el("div", { class: "hand" }, drawn.map((card, i) => tipped(btn(cardName(card), () => toggle(i), {
      class: `card${FRAMED.includes(card) ? " framed" : ""}${st.picked.includes(i) ? " selected" : ""}`, "data-owner": ctx.me, "data-card": card,
      "data-pip": card === "plague" ? "☠" : card,
      "data-keep": i, "data-focus": `keep-${i}`, "aria-pressed": st.picked.includes(i) ? "true" : "false" }), cardTip(card)))),
    btn(st.picked.length === keep ? t("page.keep.send", { cards: st.picked.map((i) => cardName(drawn[i])).join(", ") })
      : t("page.keep.count", { n: st.picked.length, keep }),
      () => ctx.send({ type: "keep", cards: st.picked.map((i) => drawn[i]) }),
      { class: "primary", id: "submit-keep", "data-focus": "submit-keep", disabled: st.picked.length !== keep }),
  ];
}

// why armies move: the messages page.why.<why> (margin, six, +2, +3, light_infantry)
const whyWords = (why) => (has(`page.why.${why}`) ? t(`page.why.${why}`) : cap(String(why).replace(/_/g, " ")));

function sourcesPanel(ctx) {
  const { view, me } = ctx;
  const d = view.decision;
  const spare = [...new Set(view.players[me].hand.filter((c) => !FRAMED.includes(c)))];
  const k = `${view.round}:${JSON.stringify(d)}`;
  if (!ctx.ui.sources || ctx.ui.sources.key !== k) ctx.ui.sources = { key: k, reinforce: "", take: null };
  const st = ctx.ui.sources;
  const reserve = view.players[me].reserve + (st.reinforce ? 1 : 0);
  const available = d.tiers.reduce((n, tier) => n + Object.values(tier).reduce((a, b) => a + b, 0), 0);
  const boardNeed = Math.min(Math.max(0, d.need - reserve), available);
  if (!st.take) { // a legal default: the tiers in order
    st.take = {};
    let left = boardNeed;
    for (const tier of d.tiers) for (const [p, n] of Object.entries(tier)) { const k = Math.min(n, left); st.take[p] = k; left -= k; }
  }
  const why = whyWords(d.why);
  const to = String(d.to).startsWith("marker@") ? t("page.sources.to.marker", { province: provinceName(d.to.slice(7)) })
    : d.to === "aside" ? t("page.sources.to.aside") : provinceName(d.to);
  const tierName = (i) => t(d.tiers.length > 1 ? (i === 0 ? "page.sources.tier.near" : "page.sources.tier.other") : "page.sources.tier.yours",
    { province: provinceName(d.to) });
  // what the rules allow (the same as the server checks): exactly what the board must give,
  // and the provinces next to the battle emptied before any other is touched
  const problem = () => {
    const taken = Object.values(st.take).reduce((a, b) => a + b, 0);
    if (taken !== boardNeed) return t("tip.sources.sum", { n: boardNeed });
    for (let i = 1; i < d.tiers.length; i++) {
      const later = Object.keys(d.tiers[i]).some((p) => (st.take[p] || 0) > 0);
      const earlierLeft = d.tiers.slice(0, i).some((tier) => Object.entries(tier).some(([p, n]) => (st.take[p] || 0) < n));
      if (later && earlierLeft) return t("tip.sources.order", { province: provinceName(d.to) });
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
    title(t("page.sources.title")),
    el("p", {}, t(d.need === 1 ? "page.sources.need.one" : "page.sources.need.many", { why, n: d.need, to }),
      t(d.tiers.length > 1 ? "page.sources.take.near" : "page.sources.take",
        { reserve: Math.min(d.need, reserve), board: boardNeed, province: provinceName(d.to) })),
    d.tiers.map((tier, i) => Object.keys(tier).length === 0 ? null : el("fieldset", {}, el("legend", {}, tierName(i)),
      Object.entries(tier).map(([p, n]) => el("label", { class: "take" }, t("page.sources.have", { province: provinceName(p), n }),
        el("input", { type: "number", min: 0, max: n, value: st.take[p] ?? 0, "data-take": p, "data-focus": `take-${p}`,
          oninput: (e) => { st.take[p] = Math.max(0, Number.parseInt(e.target.value, 10) || 0); check(); } }))))),
    spare.length && view.players[me].aside ? el("p", {}, el("label", { for: "sources-reinforce" }, t("page.sources.reinforce")),
      el("select", { id: "sources-reinforce", "data-focus": "sources-reinforce",
        onchange: (e) => { st.reinforce = e.target.value; st.take = null; ctx.rerender("sources-reinforce"); } },
      el("option", { value: "" }, t("page.sources.reinforce.no")), spare.map((c) => el("option", { value: c, selected: st.reinforce === c }, cardName(c))))) : null,
    el("p", { id: "sources-why", class: "error", role: "status", hidden: true }),
    btn(t("page.sources.send"), () => { if (!problem()) ctx.send(command()); },
      { class: "primary", id: "submit-sources", "data-focus": "submit-sources", "aria-describedby": "sources-why" }),
  ];
}

function afterPanel(ctx) {
  const plays = (ctx.view.decision.warlord_plays || []).filter((p) => AFTER.includes(p.warlord));
  return [
    title(t("page.after.title")),
    el("p", {}, t("page.after.help")),
    el("div", { class: "choices" },
      btn(t("page.after.pass"), () => ctx.send({ type: "after_battles", warlords: [] }), { class: "choice primary", "data-pass": "", "data-focus": "after-pass" }),
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
  clear(node, panel ? panel(ctx) : el("p", {}, t("page.decision.kind", { kind: d.kind })));
  return true;
}

// The stand-alone exceptional reinforcement (in "more").
export function renderExtras(node, ctx) {
  const { view, me } = ctx;
  const spare = [...new Set(view.players[me].hand.filter((c) => !FRAMED.includes(c)))];
  if (!view.players[me].aside || !spare.length) {
    return clear(node, el("p", { class: "muted" }, t("page.extras.none")));
  }
  const select = el("select", { id: "reinforce-card", "data-focus": "reinforce-card" }, spare.map((c) => el("option", { value: c }, cardName(c))));
  return clear(node, el("p", {}, t("page.extras.help")),
    el("p", {}, el("label", { for: "reinforce-card" }, t("page.extras.card")), select, " ",
      btn(t("page.extras.send"), () => ctx.send({ type: "reinforce", card: select.value }), { id: "reinforce", "data-focus": "reinforce" })));
}
