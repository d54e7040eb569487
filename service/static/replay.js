// The replay page: a finished game at any step, from any perspective.
//
// Contract with other modules on this page (e.g. /static/analysis.js, the winning-chance
// graph, loaded after this one when it exists; it draws into #analysis-panel):
//   - whenever the step shown changes (and once when the page first shows one), this page
//     dispatches  document.dispatchEvent(new CustomEvent("replay:step", {detail: {step, length}}))
//     where step is 0 … length (the position after that many events) and length is the
//     record's number of events; the current step is also in #replay[data-step];
//   - it listens for  document.dispatchEvent(new CustomEvent("replay:goto", {detail: {step}}))
//     and goes to that step (clamped to 0 … length), as if the person had chosen it.
//
// The address bar keeps ?step=n&as=<blue|red|spectator|full> (history.replaceState), and a
// link with them opens the replay there. The board is drawn by board.js from the view the
// API gives for /api/replays/<id>/states/<n>?as=…; "full" is the spectator's view with the
// hidden parts of the full state (hands, decks, face-down cards, Warlords) filled in.
import { SEATS, api, cap, cardName, clear, el, playText, setToken, warlordName } from "./api.js";
import { cardNode, renderEventCard, renderOutcome, renderPlayers, renderProvinces, renderStatus, renderTrack } from "./board.js";
import { describe } from "./log.js";

const root = document.getElementById("replay");
const replayId = root.dataset.replay;
const length = Number(root.dataset.steps);
const base = `/api/replays/${encodeURIComponent(replayId)}`;
const $ = (id) => document.getElementById(id);
const PERSPECTIVES = ["blue", "red", "spectator", "full"];
const SEEN_AS = {
  blue: "Seen as Blue saw it during play",
  red: "Seen as Red saw it during play",
  spectator: "Seen as a spectator saw it",
  full: "Everything shown: every hand, deck and face-down card",
};
const OWES = {
  choose_warlord: "choose a Warlord",
  extra_warlord: "choose an extra Warlord",
  place: "place cards",
  next_province: "name the next province to fight",
  sources: "say where armies come from",
  after_battles: "play or pass a Warlord after the battles",
  keep: "choose the cards to keep",
};

let header = null;
let events = [];
let rounds = []; // [round, step of its round_started]
let step = 0;
let as = "spectator";
let asked = 0; // the latest request; an older answer arriving late is dropped
const views = new Map(); // `${n}:${as}` -> promise of the view to draw

function showError(message) {
  $("error").textContent = message || "";
  $("error").hidden = !message;
}

// -- reading the API ----------------------------------------------------------------------
function stateAt(n, perspective) {
  const key = `${n}:${perspective}`;
  if (!views.has(key)) {
    const found = api(`${base}/states/${n}?as=${perspective}`);
    found.catch(() => views.delete(key)); // not kept: asking again may work
    views.set(key, found);
  }
  return views.get(key);
}

// The spectator's view with everything the full state holds filled in.
function fullView(spectator, full) {
  const st = full.state || {};
  const v = structuredClone(spectator);
  SEATS.forEach((seat, i) => {
    const p = v.players[seat];
    if (st.hands) p.hand = st.hands[i];
    if (st.kept) p.warlords = st.kept[i];
    if (st.decks) p.deck = st.decks[i];
    if (st.drawn) p.drawn = st.drawn[i];
    if (st.burned) p.discarded_face_down = st.burned[i];
  });
  v.provinces.forEach((province, k) => {
    SEATS.forEach((seat, i) => {
      if (province.cards[seat] === "placed" && st.placed?.[i]) province.cards[seat] = st.placed[i][k];
    });
  });
  return v;
}

async function viewAt(n, perspective) {
  if (perspective !== "full") return (await stateAt(n, perspective)).view;
  const [spectator, full] = await Promise.all([stateAt(n, "spectator"), stateAt(n, "full")]);
  return fullView(spectator.view, full.view);
}

// -- words --------------------------------------------------------------------------------
const cards = (list) => (list || []).map(cardName).join(", ");

// One line per event. Everything is public in a replay, so the events that log.js tells
// from a seat's side ("You drew …") are told here for both seats; the rest is log.js's.
function eventText(e) {
  const p = e.payload || {};
  const seat = cap(p.seat || e.actor);
  switch (e.type) {
    case "game_created": {
      const from = p.from ? ` It continues replay ${p.from.replay} from step ${p.from.step}, as ${cap(p.from.seat)}.` : "";
      return `The game was created.${from}`;
    }
    case "seat_joined": return `${seat} took the ${p.seat} seat${String(p.player || "").startsWith("ai:") ? ` (computer, ${p.player.slice(3)})` : ""}.`;
    case "position_set": return "The game starts from a position of another game (the cards that seat could not see dealt again).";
    case "deck_shuffled": return `${seat}'s deck is shuffled.`;
    case "event_deck_shuffled": return "The event deck is shuffled.";
    case "command_given": {
      const by = String(p.by || "").startsWith("ai:") ? ` (the computer, ${p.by.slice(3)})` : "";
      return `${seat}${by} decides: ${String(p.command?.type || "?").replace(/_/g, " ")}.`;
    }
    case "warlord_chosen": return `${seat} chose ${p.warlord ? warlordName(p.warlord) : "a Warlord"}${p.extra ? " as an extra Warlord" : ""}.`;
    case "placed": {
      const where = Object.entries(p.cards || {}).map(([province, card]) => `${province} ${cardName(card)}`);
      return `${seat} placed face down: ${where.join(", ")}.`;
    }
    case "cards_drawn": return p.cards ? `${seat} drew ${cards(p.cards)}.` : describe(e, null);
    case "card_kept": return p.keep ? `${seat} kept ${cards(p.keep)}${p.bottom?.length ? `; to the bottom of the deck: ${cards(p.bottom)}` : ""}.` : describe(e, null);
    case "order_named": return p.provinces ? `${seat} named the order of battle: ${p.provinces.join(", ")}.` : describe(e, null);
    case "after_battles_chosen": {
      const plays = (p.plays || []).map(playText);
      return `${seat} ${plays.length ? `plays after the battles: ${plays.join("; ")}` : "passes after the battles"}.`;
    }
    case "battle_ended": return `The battle of ${p.province} is over.`;
    default: return describe(e, null) || `${cap(String(e.type).replace(/_/g, " "))}.`;
  }
}

function pendingText(pending) {
  const owed = Object.entries(pending || {}).map(([s, kind]) => `${cap(s)} to ${OWES[kind] || kind.replace(/_/g, " ")}`);
  return owed.length ? `Waiting for ${owed.join(" and ")}.` : "";
}

function seenBy(visibleTo) {
  if (visibleTo === "all") return null;
  return visibleTo === "server" ? "hidden from both during play" : `hidden from ${cap(visibleTo === "blue" ? "red" : "blue")} during play`;
}

// -- drawing ------------------------------------------------------------------------------
function renderSummary() {
  const players = SEATS.map((seat) => {
    const id = header.players?.[seat];
    const who = !id || String(id).startsWith("ai:") ? `computer (${String(id || header.seats?.[seat] || "").replace(/^ai:/, "")})` : `player ${String(id).slice(0, 8)}`;
    return el("span", { class: `seat-name ${seat}` }, `${cap(seat)}: ${who}`);
  });
  const result = header.result === "draw" ? "Draw" : `${cap(header.result)} won`;
  const ended = new Date(header.ended_at);
  const when = Number.isNaN(ended.getTime()) ? header.ended_at : ended.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  clear($("summary"), players, el("span", { "data-result": header.result }, `${result} (${header.reason})`),
    el("span", {}, "Finished ", el("time", { datetime: header.ended_at }, when)),
    header.imported ? el("span", { class: "badge" }, "imported") : null);
}

function renderEvents() {
  const items = events.map((e) => {
    const hidden = seenBy(e.visible_to);
    return el("li", { "data-step": e.seq, "data-type": e.type },
      el("button", { type: "button", class: "event-step", "data-step": e.seq, "aria-label": `Go to step ${e.seq}: ${eventText(e)}` },
        el("span", { class: "seq" }, String(e.seq)), " ", eventText(e),
        hidden ? el("span", { class: "muted secret" }, ` (${hidden})`) : null));
  });
  clear($("events"), items);
  $("events").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-step]");
    if (button) go(Number(button.dataset.step));
  });
}

function renderRounds() {
  rounds = events.filter((e) => e.type === "round_started").map((e) => [e.payload.round, e.seq]);
  const buttons = [el("button", { type: "button", "data-step": 0 }, "Start")];
  for (const [round, at] of rounds) buttons.push(el("button", { type: "button", "data-step": at, "data-round": round }, `Round ${round}`));
  buttons.push(el("button", { type: "button", "data-step": length }, "End"));
  clear($("rounds"), buttons);
  $("rounds").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-step]");
    if (button) go(Number(button.dataset.step));
  });
}

function renderHands(v, perspective) {
  const seats = perspective === "full" ? SEATS : SEATS.includes(perspective) ? [perspective] : [];
  const body = $("hands-body");
  if (!seats.length) {
    clear(body, el("p", { class: "muted" }, "A spectator sees no hand. Choose Blue, Red or Everything to see them."));
    return;
  }
  clear(body, seats.map((seat) => {
    const p = v.players[seat];
    const hand = p.hand || [];
    const extra = [];
    if (perspective === "full" && p.drawn?.length) extra.push(el("p", { class: "muted" }, "Drawn, still to keep: ", p.drawn.map((c) => cardNode(c, seat, "mini"))));
    if (perspective === "full" && p.deck) extra.push(el("p", { class: "muted deck" }, `Deck order (${p.deck.length}): `, p.deck.map((c) => cardNode(c, seat, "mini"))));
    return el("section", { class: `hand-of ${seat}`, "data-seat": seat, "aria-label": `${cap(seat)}'s hand` },
      el("h3", {}, `${cap(seat)}'s hand (${hand.length})`),
      el("div", { class: "hand" }, hand.length ? hand.map((c) => cardNode(c, seat)) : el("span", { class: "muted" }, "empty")),
      extra);
  }));
}

function renderContinue(v) {
  const over = !!v.outcome;
  const pending = v.pending || {};
  const owed = Object.values(pending);
  let note = "";
  if (over || step >= length) note = "The game is over at this step: choose an earlier one to play on.";
  else if (!owed.length) note = "Nobody has a decision to make at this step: go to a step where someone decides.";
  else if (owed.includes("sources")) note = "This step is in the middle of a battle: choose a step before or after it.";
  for (const button of document.querySelectorAll(".continue-as")) {
    button.disabled = !!note;
    const level = $("continue-level").selectedOptions[0]?.value || "medium";
    button.textContent = `Continue from here as ${cap(button.dataset.seat)} against the computer (${level})`;
  }
  $("continue-note").textContent = note || `From step ${step}. ${pendingText(pending)}`;
}

function draw(v) {
  const me = SEATS.includes(as) ? as : null;
  const game = { view: v, seats: Object.fromEntries(SEATS.map((s) => [s, { kind: header.seats?.[s] || "" }])) };
  renderStatus($("status"), game, null);
  $("status").lastChild.textContent = SEEN_AS[as];
  renderTrack($("track"), $("track-text"), v.score);
  renderEventCard($("event-card"), v);
  renderProvinces($("board"), v, null);
  renderPlayers($("players"), game, me);
  renderHands(v, as);
  renderOutcome($("outcome"), v.outcome, null);
  renderContinue(v);
  const event = step ? events[step - 1] : null;
  const what = event ? `Step ${step}: ${eventText(event)}` : "The start: nothing has happened yet.";
  clear($("now"), el("span", {}, what), " ", el("span", { class: "muted" }, pendingText(v.pending)));
}

function highlight() {
  const list = $("events");
  list.querySelector("li.now")?.classList.remove("now");
  list.querySelector("[aria-current]")?.removeAttribute("aria-current");
  if (!step) return;
  const item = list.querySelector(`li[data-step="${step}"]`);
  if (!item) return;
  item.classList.add("now");
  item.querySelector("button").setAttribute("aria-current", "step");
  // keep it in sight inside the list, without moving the page
  const top = item.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
}

async function show() {
  const n = step;
  const perspective = as;
  const ticket = ++asked;
  root.setAttribute("aria-busy", "true");
  try {
    const v = await viewAt(n, perspective);
    if (ticket !== asked) return;
    showError("");
    draw(v);
    root.dataset.shown = `${n}:${perspective}`;
  } catch (e) {
    if (ticket === asked) showError(e.message);
  } finally {
    if (ticket === asked) root.removeAttribute("aria-busy");
  }
}

// -- moving -------------------------------------------------------------------------------
function go(n, perspective = as) {
  const next = Math.max(0, Math.min(length, Math.trunc(Number(n)) || 0));
  const moved = next !== step || !root.dataset.step;
  step = next;
  as = PERSPECTIVES.includes(perspective) ? perspective : "spectator";
  root.dataset.step = String(step);
  root.dataset.as = as;
  $("step-slider").value = String(step);
  $("step-slider").setAttribute("aria-valuetext", `Step ${step} of ${length}`);
  const round = rounds.filter(([, at]) => at <= step).pop();
  $("step-text").textContent = `Step ${step} of ${length}${round ? `, round ${round[0]}` : ""}`;
  for (const radio of document.querySelectorAll("#perspective input")) radio.checked = radio.value === as;
  for (const button of document.querySelectorAll("#rounds button")) {
    const current = round ? Number(button.dataset.round) === round[0] : false;
    button.setAttribute("aria-pressed", current ? "true" : "false");
  }
  $("go-first").disabled = $("go-prev").disabled = step === 0;
  $("go-last").disabled = $("go-next").disabled = step === length;
  const query = new URLSearchParams(location.search);
  query.set("step", String(step));
  query.set("as", as);
  history.replaceState(null, "", `${location.pathname}?${query}${location.hash}`);
  highlight();
  show();
  if (moved) document.dispatchEvent(new CustomEvent("replay:step", { detail: { step, length } }));
}

function roundStep(direction) {
  const starts = [0, ...rounds.map(([, at]) => at), length];
  if (direction > 0) return starts.find((at) => at > step) ?? length;
  return [...starts].reverse().find((at) => at < step) ?? 0;
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  const typing = target instanceof HTMLElement && (target.matches("input:not([type=range]), select, textarea") || target.isContentEditable);
  if (typing) return; // the radios, the level list and text fields keep their own keys
  const moves = {
    ArrowLeft: () => step - 1,
    ArrowRight: () => step + 1,
    Home: () => 0,
    End: () => length,
    PageUp: () => roundStep(-1),
    PageDown: () => roundStep(1),
  };
  if (!moves[event.key]) return;
  event.preventDefault();
  go(moves[event.key]());
}

// -- verification and continuing ----------------------------------------------------------
async function showVerification() {
  const box = $("verify-body");
  try {
    const report = await api(`${base}/verify`);
    const head = report.ok ? "✔ Verified." : "✘ This record does not verify.";
    const parts = [el("p", { class: report.ok ? "verified" : "refused", "data-ok": report.ok ? "yes" : "no" }, el("strong", {}, head), " ", report.sentence)];
    if (report.divergence) {
      const at = report.divergence.step;
      parts.push(el("p", {}, at ? el("button", { type: "button", "data-step": at, onclick: () => go(at) }, `Go to step ${at}, where it goes wrong`) : "It goes wrong in the header."));
    }
    for (const note of report.notes || []) parts.push(el("p", { class: "muted" }, note));
    clear(box, parts);
  } catch (e) {
    clear(box, el("p", { class: "error" }, `The record could not be checked: ${e.message}`));
  }
}

async function continueAs(seat) {
  const level = $("continue-level").value;
  const buttons = document.querySelectorAll(".continue-as");
  buttons.forEach((b) => { b.disabled = true; });
  $("continue-note").textContent = "Setting up the game…";
  try {
    const created = await api(`${base}/continue`, { method: "POST", body: { step, seat, level } });
    const token = created.seats?.[seat]?.token;
    if (token) setToken(created.game_id, seat, token);
    location.assign(`/g/${encodeURIComponent(created.game_id)}/${seat}`);
  } catch (e) {
    $("continue-note").textContent = e.message;
    buttons.forEach((b) => { b.disabled = false; });
  }
}

// -- start --------------------------------------------------------------------------------
async function start() {
  const query = new URLSearchParams(location.search);
  try {
    ({ header, events } = await api(base));
  } catch (e) {
    showError(e.message);
    return;
  }
  renderSummary();
  renderEvents();
  renderRounds();
  $("step-slider").addEventListener("input", (event) => go(event.target.value));
  $("go-first").addEventListener("click", () => go(0));
  $("go-prev").addEventListener("click", () => go(step - 1));
  $("go-next").addEventListener("click", () => go(step + 1));
  $("go-last").addEventListener("click", () => go(length));
  $("perspective").addEventListener("change", (event) => go(step, event.target.value));
  $("continue-level").addEventListener("change", () => { if (root.dataset.shown) show(); });
  for (const button of document.querySelectorAll(".continue-as")) button.addEventListener("click", () => continueAs(button.dataset.seat));
  document.addEventListener("keydown", onKey);
  document.addEventListener("replay:goto", (event) => go(event.detail?.step));
  const wanted = query.has("step") ? Number(query.get("step")) : 0;
  go(Number.isFinite(wanted) ? wanted : 0, query.get("as") || "spectator");
  showVerification();
}

start();
