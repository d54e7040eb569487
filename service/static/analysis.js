// The analysis panel of the replay page: ask for an analysis, follow its progress, then
// show the winning-chance graph, the players' accuracy, luck and the marked decisions.
//
// Contract with the replay page (replay.js):
//   - the page has <section id="analysis-panel" data-replay="ID"> and #replay[data-step];
//   - it dispatches document "replay:step" {detail: {step, length}} when the step changes:
//     the graph's cursor follows it;
//   - this module dispatches document "replay:goto" {detail: {step}} to move the page
//     (a marker on the graph, a link in the list of decisions).
// The API: GET/POST /api/replays/<id>/analysis (status none|queued|running|done|failed).
// Everything is built with DOM calls; colours and sizes are CSS classes (analysis.css).
import { api, cap, clear, el } from "./api.js";
import { _, number } from "./i18n.js";
import { loadKind } from "./kinds.js";

const panel = document.getElementById("analysis-panel");
const page = document.getElementById("replay");
const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 1000;
const W = 1000, H = 260, LEFT = 44, RIGHT = 12, TOP = 12, BOTTOM = 28;
const CLASSES = ["inaccuracy", "mistake", "blunder"];
// A mark's name: in a sentence, as a heading (the legend, a marked decision), and its count.
const NAME = { inaccuracy: _("inaccuracy"), mistake: _("mistake"), blunder: _("blunder") };
const HEADING = { inaccuracy: _("Inaccuracy"), mistake: _("Mistake"), blunder: _("Blunder") };
const PLURAL = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" }; // the API's keys
const COUNTED = { inaccuracy: _("Inaccuracies"), mistake: _("Mistakes"), blunder: _("Blunders") };

let length = Number(page?.dataset.steps) || 0;
let step = Number(page?.dataset.step) || 0;
let cursor = null;
let timer = null;
let label = cap; // a seat as players read it, once the game's catalogue is here

const base = panel ? `/api/replays/${encodeURIComponent(panel.dataset.replay)}/analysis` : "";
const $ = (id) => document.getElementById(id);
const x = (n) => LEFT + (length ? n / length : 0) * (W - LEFT - RIGHT);
const y = (chance) => TOP + (1 - chance) * (H - TOP - BOTTOM);
const pct = (chance) => number(chance, { style: "percent", maximumFractionDigits: 0 });
const points = (n) => _("{points} points", { points: number(Math.abs(n), { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, String(value));
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function goto(target) {
  document.dispatchEvent(new CustomEvent("replay:goto", { detail: { step: target } }));
}

function stepLink(entry) {
  const query = new URLSearchParams(location.search);
  query.set("step", String(entry.step));
  query.set("as", entry.seat);
  return el("a", {
    href: `${location.pathname}?${query}`,
    onclick: (event) => { event.preventDefault(); goto(entry.step); },
  }, _("Step {step}", { step: entry.step }));
}

// -- states of the panel -----------------------------------------------------------------
function frame(...body) {
  clear(panel,
    el("h2", { id: "analysis-title" }, _("Analysis")),
    el("p", { class: "muted legend" },
      _("Every decision judged from what its player knew then (never what was hidden from them), against the best decision the computer finds.")),
    ...body);
  panel.setAttribute("aria-labelledby", "analysis-title");
}

function offer(note) {
  const button = el("button", { type: "button", class: "primary", id: "analyse" }, note ? _("Try again") : _("Analyse this game"));
  button.addEventListener("click", () => request(button));
  frame(note ? el("p", { class: "error", role: "alert" }, note) : null,
    el("div", { class: "buttons" }, button),
    el("p", { class: "muted", id: "analysis-status", role: "status" }, _("It takes up to a minute.")));
}

function progress(status) {
  const known = status.total > 0;
  const bar = el("progress", { id: "analysis-progress", max: known ? status.total : null, value: known ? status.done : null });
  let text = _("Waiting for a worker…");
  if (status.status === "running") {
    text = known ? _("Analysing: {done} of {total} decisions", { done: number(status.done), total: number(status.total) }) : _("Analysing…");
  }
  bar.setAttribute("aria-label", _("Analysis progress"));
  frame(el("div", { class: "analysis-progress" }, bar, el("span", { id: "analysis-status", role: "status" }, text)));
}

async function request(button) {
  if (button) button.disabled = true;
  try {
    show(await api(base, { method: "POST" }));
  } catch (error) {
    offer(error.message);
  }
}

async function poll() {
  timer = null;
  try {
    show(await api(base));
  } catch (error) {
    const status = $("analysis-status");
    if (status) status.textContent = _("{error} Trying again…", { error: error.message });
    timer = setTimeout(poll, 3 * POLL_MS);
  }
}

function show(status) {
  if (timer) clearTimeout(timer);
  timer = null;
  if (status.status === "done" && status.result) return render(status.result);
  if (status.status === "queued" || status.status === "running") {
    progress(status);
    timer = setTimeout(poll, POLL_MS);
    return;
  }
  if (status.status === "failed") {
    return offer(status.error ? _("The analysis failed: {reason}.", { reason: status.error }) : _("The analysis failed: no reason given."));
  }
  offer();
}

// -- the result ----------------------------------------------------------------------------
function render(result) {
  length = result.length || length;
  const marked = result.decisions.filter((d) => d.class);
  frame(
    graph(result),
    legend(result),
    players(result),
    luck(result),
    el("h3", {}, _("Marked decisions")),
    marked.length
      ? el("ol", { class: "plain analysis-list", id: "analysis-list" }, marked.map(item))
      : el("p", { class: "muted" }, _("No inaccuracies, mistakes or blunders were found.")),
    definitions(result),
  );
  move(step);
}

function graph(result) {
  const seats = Object.keys(result.players);
  const chart = svg("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "analysis-graph", role: "img",
    "aria-labelledby": ["analysis-graph-title", "analysis-graph-desc"].join(" "),
  });
  chart.append(
    svg("title", { id: "analysis-graph-title" }, _("Winning chance of each player over the game")),
    svg("desc", { id: "analysis-graph-desc" },
      _("One line per player: its winning chance at each of its decisions, as it could judge it then, from {low} to {high}, over steps 0 to {steps}; the last point is the result. Marked decisions are listed below the graph.",
        { low: pct(0), high: pct(1), steps: length })),
  );
  const back = svg("rect", { x: LEFT, y: TOP, width: W - LEFT - RIGHT, height: H - TOP - BOTTOM, class: "plot" });
  back.addEventListener("click", (event) => {
    const box = chart.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * W;
    goto(Math.round(((at - LEFT) / (W - LEFT - RIGHT)) * length));
  });
  chart.append(back);
  for (const level of [0, 0.25, 0.5, 0.75, 1]) {
    chart.append(
      svg("line", { x1: LEFT, x2: W - RIGHT, y1: y(level), y2: y(level), class: `grid${level === 0.5 ? " even" : ""}` }),
      svg("text", { x: LEFT - 6, y: y(level) + 4, class: "axis end" }, pct(level)),
    );
  }
  chart.append(
    svg("text", { x: LEFT, y: H - 8, class: "axis" }, _("step {step}", { step: 0 })),
    svg("text", { x: W - RIGHT, y: H - 8, class: "axis end" }, _("step {step}", { step: length })),
  );
  for (const seat of seats) {
    const mine = result.decisions.filter((d) => d.seat === seat && d.assessed);
    const coords = mine.map((d) => [d.step, d.chance]);
    if (result.result && seat in result.result) coords.push([length, result.result[seat]]);
    if (coords.length) {
      chart.append(svg("polyline", {
        points: coords.map(([n, c]) => `${x(n).toFixed(1)},${y(c).toFixed(1)}`).join(" "),
        class: "line", "data-colour": seat,
      }));
    }
  }
  for (const d of result.decisions.filter((e) => e.class)) {
    const marker = svg("circle", {
      cx: x(d.step), cy: y(d.chance), r: 7, class: `marker ${d.class}`, "data-colour": d.seat,
      onclick: () => goto(d.step),
    }, svg("title", {}, _("Step {step}, {seat}: {mark}, {loss} lost", { step: d.step, seat: label(d.seat), mark: NAME[d.class] || d.class, loss: points(d.loss) })));
    chart.append(marker);
  }
  cursor = svg("line", { x1: x(step), x2: x(step), y1: TOP, y2: H - BOTTOM, class: "cursor" });
  chart.append(cursor);
  return el("div", { class: "analysis-figure" }, chart);
}

function legend(result) {
  return el("p", { class: "analysis-legend muted", "aria-hidden": "true" },
    Object.keys(result.players).map((s) => [el("span", { class: "key line", "data-colour": s }, label(s)), " "]),
    ...CLASSES.map((c) => [el("span", { class: `key dot ${c}` }, HEADING[c]), " "]),
    _("Click a marker or the graph to go to that step."));
}

function players(result) {
  const seats = Object.keys(result.players);
  const row = (label, value) => el("tr", {}, el("th", { scope: "row" }, label),
    seats.map((s) => el("td", {}, value(result.players[s]))));
  return el("table", { class: "analysis-players" },
    el("caption", { class: "sr-only" }, _("Accuracy and marked decisions of each player")),
    el("thead", {}, el("tr", {}, el("td", {}), seats.map((s) => el("th", { scope: "col", class: "seat-name", "data-colour": s }, label(s))))),
    el("tbody", {},
      row(_("Accuracy"), (p) => (p.accuracy === null ? "—"
        : number(p.accuracy / 100, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }))),
      CLASSES.map((c) => row(COUNTED[c], (p) => number(p[PLURAL[c]]))),
      row(_("Decisions judged"), (p) => _("{judged} of {decisions}", { judged: number(p.assessed), decisions: number(p.decisions) })),
    ));
}

function luck(result) {
  const seats = Object.keys(result.luck);
  const [first, second] = seats;
  const mine = result.luck[first];
  const toward = (n) => (n >= 0 ? label(first) : label(second));
  const share = Math.round(100 * mine.share);
  const text = mine.luck === 0 && mine.decisions === 0
    ? _("Nothing moved the result away from even.")
    : _("Luck — chance, and what neither player could see — moved the result {luck} toward {lucky}; the decisions moved it {decided} toward {better}. About {share} of the result came from luck.",
      { luck: points(mine.luck), lucky: toward(mine.luck), decided: points(mine.decisions), better: toward(mine.decisions), share: pct(share / 100) });
  return el("p", { class: "analysis-luck", id: "analysis-luck" }, text);
}

// When a decision was made: its round, or before the first round (a choice made before
// the first round is told with round 0).
function when(d) {
  return d.round ? _("round {round}", { round: number(d.round) }) : _("before round 1");
}

function item(d) {
  return el("li", { class: `analysis-item ${d.class}`, "data-step": d.step },
    stepLink(d), " · ",
    el("span", { class: "seat-name", "data-colour": d.seat }, label(d.seat)), " · ", when(d), " · ",
    el("strong", {}, HEADING[d.class] || cap(d.class)), " ",
    _("({loss} lost: {played} instead of {best})", { loss: points(d.loss), played: pct(d.played_chance), best: pct(d.best_chance) }),
    el("br"), _("Played: {move}", { move: d.played_text }),
    el("br"), _("Best found: {move}", { move: d.best_text }));
}

function definitions(result) {
  const s = result.strength || {};
  return el("details", { class: "analysis-how" },
    el("summary", {}, _("How this is worked out")),
    el("p", {}, _("For each decision the computer takes the position as that player saw it — what was public and their own, everything hidden from them unknown — and plays it out many times with the decision made and with the best one it finds (the main decisions: {searched} searched playouts, then {playouts} playouts of each from the same guesses of what was hidden).",
      { searched: s.place === undefined ? "?" : number(s.place), playouts: s.place_evaluations === undefined ? "?" : number(s.place_evaluations) })),
    el("p", {}, _("Loss: the drop in winning chance from the best decision to the one played. Inaccuracy from 5 points, mistake from 10, blunder from 15. Accuracy per decision: 103.1668 × e^(−0.04354 × loss) − 3.1669 (lichess's formula), averaged over the decisions that offered a choice. Decisions the computer cannot start from (some owed in the middle of a turn) are not judged.")),
    el("p", {}, _("Luck: the result (win 100%, draw 50%, loss 0%) moved away from an even 50%; the decisions explain the opponent's losses minus one's own; luck is the rest (it also holds the computer's own misjudgements).")));
}

// -- following the page ------------------------------------------------------------------------
function move(to) {
  step = Math.max(0, Math.min(length, Number(to) || 0));
  if (cursor) {
    cursor.setAttribute("x1", x(step));
    cursor.setAttribute("x2", x(step));
  }
  for (const li of panel.querySelectorAll(".analysis-item")) {
    li.classList.toggle("here", Number(li.dataset.step) === step);
  }
}

async function start() {
  if (!panel) return;
  try {
    label = (await loadKind(page.dataset.kind)).label;
  } catch { /* the seats as they are written */ }
  panel.classList.add("panel", "analysis");
  document.addEventListener("replay:step", (event) => {
    if (event.detail?.length) length = event.detail.length;
    move(event.detail?.step);
  });
  frame(el("p", { class: "muted", role: "status" }, _("Looking for an analysis…")));
  poll();
}

start();
