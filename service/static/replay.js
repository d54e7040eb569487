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
// The address bar keeps ?step=n&as=<seat|spectator|full> (history.replaceState), and a
// link with them opens the replay there. The board is drawn by the game's own front end
// (kinds.js loads it by the game's key) from the view the API gives for
// /api/replays/<id>/states/<n>?as=…; "full" is the spectator's view with the hidden parts
// of the full state filled in (the front end's fullView). Every sentence (the events, what
// a position waits for, how the game ended) comes from the server.
import { api, cap, clear, el, setToken } from "./api.js";
import { _, dateTime, number } from "./i18n.js";
import { loadFront } from "./kinds.js";
import { list, sentence } from "./sentence.js";

const root = document.getElementById("replay");
const replayId = root.dataset.replay;
const length = Number(root.dataset.steps);
const base = `/api/replays/${encodeURIComponent(replayId)}`;
const $ = (id) => document.getElementById(id);
let kind = null; // the game's catalogue and words
let front = null; // the game's front end
let perspectives = ["spectator", "full"];

function seenAs(perspective) {
  if (perspective === "spectator") return _("Seen as a spectator saw it");
  if (perspective === "full") return _("Everything shown, what was hidden included");
  return _("Seen as {seat} saw it during play", { seat: kind.label(perspective) });
}

let header = null;
let events = [];
let rounds = []; // [round, the step it starts at], from the game's front end
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

// {view, prompt, outcome, outcome_text} of step n as the perspective sees it.
async function viewAt(n, perspective) {
  if (perspective !== "full") return stateAt(n, perspective);
  const [spectator, full] = await Promise.all([stateAt(n, "spectator"), stateAt(n, "full")]);
  return { ...spectator, view: front.fullView ? front.fullView(spectator.view, full.view) : spectator.view };
}

// -- words --------------------------------------------------------------------------------
// One line per event, as the server tells it (everything is public in a replay); an event
// with nothing to tell is named by its type.
function eventText(e) {
  return e.text || `${cap(String(e.type).replace(/_/g, " "))}.`;
}

function seenBy(visibleTo) {
  if (visibleTo === "all") return null;
  if (visibleTo === "server") return _("hidden from everyone during play");
  return _("hidden from {seats} during play", { seats: list(kind.others(visibleTo).map(kind.label)) });
}

// -- drawing ------------------------------------------------------------------------------
function renderSummary() {
  const players = kind.seatIds.map((seat) => {
    const id = header.players?.[seat];
    const computer = !id || String(id).startsWith("ai:");
    const who = computer ? _("computer ({level})", { level: String(id || header.seats?.[seat] || "").replace(/^ai:/, "") })
      : header.names?.[seat] || _("a player");
    return el("span", { class: "seat-name", "data-colour": seat, "data-name": computer ? "" : who }, _("{seat}: {player}", { seat: kind.label(seat), player: who }));
  });
  const result = header.result === "draw" ? _("Draw") : _("{seat} won", { seat: kind.label(header.result) });
  const ended = new Date(header.ended_at);
  const when = Number.isNaN(ended.getTime()) ? header.ended_at : dateTime(ended);
  const said = header.outcome_text ? _("{head}. {reason}", header.outcome_text) : _("{result} ({reason})", { result, reason: header.reason });
  clear($("summary"), players, el("span", { "data-result": header.result }, said),
    el("span", {}, sentence(_("Finished {when}"), { when: el("time", { datetime: header.ended_at }, when) })),
    header.imported ? el("span", { class: "badge" }, _("imported")) : null);
}

function renderEvents() {
  const items = events.map((e) => {
    const hidden = seenBy(e.visible_to);
    return el("li", { "data-step": e.seq, "data-type": e.type },
      el("button", { type: "button", class: "event-step", "data-step": e.seq, "aria-label": _("Go to step {step}: {event}", { step: e.seq, event: eventText(e) }) },
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
  rounds = front.roundStarts ? front.roundStarts(events) : []; // [round, step of its start]
  const buttons = [el("button", { type: "button", "data-step": 0 }, _("Start"))];
  for (const [round, at] of rounds) buttons.push(el("button", { type: "button", "data-step": at, "data-round": round }, _("Round {round}", { round: number(round) })));
  buttons.push(el("button", { type: "button", "data-step": length }, _("End")));
  clear($("rounds"), buttons);
  $("rounds").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-step]");
    if (button) go(Number(button.dataset.step));
  });
}

function renderHands(v, perspective) {
  const node = $("hands");
  node.hidden = !front.renderHands;
  if (node.hidden) return;
  const shown = perspective === "full" ? kind.seatIds : kind.seatIds.includes(perspective) ? [perspective] : [];
  front.renderHands(node, v, { kind, shown, full: perspective === "full" });
}

function renderOutcome(v, outcome, said) {
  const node = $("outcome");
  node.hidden = !outcome;
  if (node.hidden) return;
  const told = said || { head: _("The game is over"), reason: "" };
  const note = front.outcomeNote ? front.outcomeNote(outcome, { kind, view: v }) : null;
  clear(node, el("h2", {}, told.head), el("p", { "data-reason": outcome.reason }, told.reason),
    note ? el("p", { class: "muted" }, note) : null,
    el("p", { class: "buttons" }, el("a", { href: "/" }, _("Start a new game"))));
}

function renderContinue(v, outcome, prompt) {
  const over = !!outcome;
  let note = "";
  if (over || step >= length) note = _("The game is over at this step: choose an earlier one to play on.");
  else if (!prompt) note = _("Nobody has a decision to make at this step: go to a step where someone decides.");
  else if (front.continueNote) note = front.continueNote(v) || "";
  for (const button of document.querySelectorAll(".continue-as")) {
    button.disabled = !!note;
    const level = $("continue-level").selectedOptions[0]?.value || "medium";
    button.textContent = _("Continue from here as {seat} against the computer ({level})", { seat: kind.label(button.dataset.seat), level });
  }
  $("continue-note").textContent = note || _("From step {step}. {prompt}", { step, prompt });
}

function draw({ view: v, prompt = "", outcome = null, outcome_text: said = null }) {
  const me = kind.seatIds.includes(as) ? as : null;
  const game = { view: v, seats: Object.fromEntries(kind.seatIds.map((s) => [s, { kind: header.seats?.[s] || "" }])) };
  // the events up to this step: a front end shows from them what happened last (the dice)
  const ctx = { kind, me, game, view: v, ui: {}, deciding: false, viewer: seenAs(as), legend: false, finalHands: false,
    events: events.slice(0, step) };
  front.renderBoard($("board-area"), v, ctx);
  front.renderPlayers($("players"), v, ctx);
  renderHands(v, as);
  renderOutcome(v, outcome, said);
  renderContinue(v, outcome, prompt);
  const event = step ? events[step - 1] : null;
  const what = event ? _("Step {step}: {event}", { step, event: eventText(event) }) : _("The start: nothing has happened yet.");
  clear($("now"), el("span", {}, what), " ", el("span", { class: "muted" }, prompt));
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
  as = perspectives.includes(perspective) ? perspective : "spectator";
  root.dataset.step = String(step);
  root.dataset.as = as;
  $("step-slider").value = String(step);
  $("step-slider").setAttribute("aria-valuetext", _("Step {step} of {steps}", { step, steps: length }));
  const round = rounds.filter(([, at]) => at <= step).pop();
  $("step-text").textContent = round ? _("Step {step} of {steps}, round {round}", { step, steps: length, round: number(round[0]) })
    : _("Step {step} of {steps}", { step, steps: length });
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
    const head = report.ok ? _("✔ Verified.") : _("✘ This record does not verify.");
    const parts = [el("p", { class: report.ok ? "verified" : "refused", "data-ok": report.ok ? "yes" : "no" }, el("strong", {}, head), " ", report.sentence)];
    if (report.divergence) {
      const at = report.divergence.step;
      parts.push(el("p", {}, at ? el("button", { type: "button", "data-step": at, onclick: () => go(at) }, _("Go to step {step}, where it goes wrong", { step: at })) : _("It goes wrong in the header.")));
    }
    for (const note of report.notes || []) parts.push(el("p", { class: "muted" }, note));
    clear(box, parts);
  } catch (e) {
    clear(box, el("p", { class: "error" }, _("The record could not be checked: {error}", { error: e.message })));
  }
}

async function continueAs(seat) {
  const level = $("continue-level").value;
  const buttons = document.querySelectorAll(".continue-as");
  buttons.forEach((b) => { b.disabled = true; });
  $("continue-note").textContent = _("Setting up the game…");
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
    ({ kind, front } = await loadFront(root.dataset.kind));
    perspectives = [...kind.seatIds, "spectator", "full"];
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
