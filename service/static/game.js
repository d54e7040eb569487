// The game page, for any game: the seat's token, taking the seat, the view, live updates,
// commands, the log, clocks, draws, vacation, hints, handing the seat to the computer,
// resigning and the rematch. The board, the hand, the decisions and the game's own
// controls are drawn by the game's front end (loaded by key: kinds.js), through the
// interface of games/<package>/web/README.md; every sentence comes from the server.
import { ApiError, api, clear, copyText, el, getInvite, getToken, newKey, setInvite, setToken } from "./api.js";
import { renderClocks } from "./clock.js";
import { _, duration, number } from "./i18n.js";
import { loadFront } from "./kinds.js";
import { showRematch } from "./rematch.js";
import { list } from "./sentence.js";

const root = document.getElementById("game");
const gameId = root.dataset.game;
const seatOfPage = root.dataset.seat || null;
const $ = (id) => document.getElementById(id);
const base = `/api/games/${encodeURIComponent(gameId)}`;
const ui = {}; // what the game's front end keeps between redraws (choices being made)
let kind = null; // the game's catalogue and words
let front = null; // the game's front end
let me = null; // the seat this browser plays here (null: watching)
let token = null;
let game = null;
let lastSeq = 0;
let source = null;
let refreshing = null; // the refresh under way, so callers can wait for it
let again = false;
let sending = false;
let hintFor = null; // the version the hint shown was given for
let rematchShown = false;
let outcomeSeen = false; // the end has been brought into view once
const logEvents = []; // every event the page has seen (the log's lines, and ctx.events)
let pace = null; // the paced showing of a computer-only game (see "Watching at a pace")
let pacePending = false; // asked for, not yet begun: an ended game is not shown meanwhile

// Every call names the seat of the page: a browser without the seat's token (another
// browser of the same player, after a recovery code) acts by its player id, and a player
// who holds both seats says which one.
function call(path, options = {}) {
  const headers = { ...(seatOfPage ? { "X-Bingfa-Seat": seatOfPage } : {}), ...(options.headers || {}) };
  return api(path, { token, ...options, headers });
}

function showError(message) {
  $("error").textContent = message || "";
  $("error").hidden = !message;
}

// The token arrives in the fragment (#token=…), which never reaches the server; keep it in
// localStorage and take it out of the address bar, so it is not shared by accident.
function takeToken() {
  const found = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (found && seatOfPage) setToken(gameId, seatOfPage, decodeURIComponent(found[1]));
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  token = seatOfPage ? getToken(gameId, seatOfPage) : null;
  me = token ? seatOfPage : null;
}

async function takeSeat() {
  try {
    game = await call(base);
  } catch (e) {
    if (e.status !== 401) throw e;
    showError(_("{error} You are watching instead.", { error: e.message }));
    token = null;
    me = null;
    return;
  }
  if (!token && seatOfPage && game.seat === seatOfPage) me = seatOfPage; // by player id
  if (seatOfPage && !me) {
    showError(_("This page is for the {seat} seat, but this browser has no link for it. Open the invite link you were given (or carry your identity here with a recovery code from your profile); meanwhile you are watching.", { seat: kind.label(seatOfPage) }));
  }
  if (me && token && !game.seats[me]?.joined) {
    const nonce = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    await call(`${base}/join`, { method: "POST", body: { nonce } });
  }
}

// One refresh at a time; a call during one asks it to go round once more and waits for
// that, so whoever calls (e.g. after sending a command) sees the page show the new state.
function refresh() {
  if (refreshing) { again = true; return refreshing; }
  refreshing = (async () => {
    try {
      do {
        again = false;
        game = await call(base);
        await loadEvents();
        render();
        if (lastSeq > game.version) again = true; // moved on between the two requests
      } while (again);
    } catch (e) {
      if (e instanceof ApiError) showError(e.message);
      else {
        showError(_("Something went wrong while showing the game; reloading the page may help."));
        setTimeout(() => { throw e; }); // reported as a script error, not swallowed
      }
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

// The log: each event's sentence as the server tells it to this seat (or to anyone); the
// commands given are told by the events they cause.
async function loadEvents() {
  const { events } = await call(`${base}/events?after=${lastSeq}`);
  for (const event of events) {
    if (event.seq <= lastSeq) continue;
    lastSeq = event.seq;
    logEvents.push(event);
    if (!pace?.active) addToLog(event);
  }
}

// The log, grouped by round (a heading per round, from the game's roundStarts), oldest
// first unless the reader asked for newest first (remembered in this browser).
const ORDER_KEY = "bingfa:log-order";
function logOrder() {
  try { return localStorage.getItem(ORDER_KEY) === "newest" ? "newest" : "oldest"; } catch { return "oldest"; }
}
let logRound = null;
const told = (event) => event.text && event.type !== "command_given";
const roundStarted = (event) => {
  const starts = front?.roundStarts ? front.roundStarts([event]) : [];
  return starts.length ? starts[0][0] : null;
};

function addToLog(event) {
  const log = $("log");
  const newest = logOrder() === "newest";
  const put = (node, head) => {
    if (!newest) {
      const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
      log.append(node);
      if (atBottom) log.scrollTop = log.scrollHeight;
    } else if (head || !log.firstElementChild?.matches("[data-round-head]")) log.prepend(node);
    else log.firstElementChild.after(node);
  };
  const started = roundStarted(event);
  if (front?.roundStarts && started !== null && started !== logRound) {
    logRound = started;
    put(el("li", { class: "round-head", "data-round-head": started }, el("h3", {}, _("Round {round}", { round: number(started) }))), true);
  } else if (front?.roundStarts && logRound === null && told(event)) {
    logRound = 0;
    put(el("li", { class: "round-head", "data-round-head": 0 }, el("h3", {}, _("Before the first round"))), true);
  }
  if (told(event)) put(el("li", { "data-seq": event.seq, "data-type": event.type }, event.text), false);
}

function rebuildLog(events) {
  const log = $("log");
  clear(log);
  logRound = null;
  log.dataset.order = logOrder();
  for (const event of events) addToLog(event);
  if (logOrder() === "oldest") log.scrollTop = log.scrollHeight;
}

function showLogOrder() {
  const newest = logOrder() === "newest";
  $("log-order").textContent = newest ? _("Show oldest first") : _("Show newest first");
  $("log-order").setAttribute("aria-pressed", newest ? "true" : "false");
  $("log").dataset.order = logOrder();
}

// A finished game of a match still listens until the match is decided: its stream says
// "match" when the match goes on (the next game made, the result decided in a later game).
const matchOpen = () => !!(game?.match && !game.match.result);

function listen() {
  if (source || (game?.outcome && !matchOpen())) return;
  source = new EventSource(`${base}/stream?after=${lastSeq}`);
  source.addEventListener("game", () => setTimeout(refresh, 30));
  source.addEventListener("match", () => setTimeout(refresh, 30));
}

// A seat handed to the computer is still this browser's, but no longer its to play.
function handed() {
  return !!(me && game?.seats[me]?.kind?.startsWith("ai:"));
}

function myTurn() {
  return !!(me && game && !game.outcome && game.pending[me] && !handed());
}

const shownView = () => (handed() && game.view ? { ...game.view, decision: null } : game.view);

function viewer() {
  return me ? _("You play {seat}", { seat: kind.label(me) }) : _("You are watching");
}

// What the game's front end is given to draw with (README.md in the game's web folder).
const ctx = () => ({
  kind, me, game, view: shownView(), ui, deciding: myTurn(), viewer: viewer(), legend: true,
  finalHands: true, send, say: showError, rerender: render, events: logEvents, levelName,
});

// A computer level in the words of the page's level list ("medium" -> "Medium").
function levelName(level) {
  const option = document.querySelector(`#handover-level option[value="${CSS.escape(level)}"]`);
  return option ? option.textContent.replace(/\s*[(（].*[)）]\s*$/, "").trim() : level; // "Random (plays …)"
}

// Who the computer is in this game, said under the banner.
function renderFacing() {
  const ai = kind.seatIds.filter((s) => String(game.seats[s]?.kind || "").startsWith("ai:"));
  const level = (s) => levelName(game.seats[s].kind.slice(3));
  let text = "";
  if (me && ai.some((s) => s !== me)) {
    const them = ai.filter((s) => s !== me).map((s) => _("{seat}, {level} level", { seat: kind.label(s), level: level(s) }));
    text = _("You play against the computer: {seats}.", { seats: list(them) });
  } else if (!me && ai.length === kind.seatIds.length) {
    const all = ai.map((s) => _("{seat} {level}", { seat: kind.label(s), level: level(s) }));
    text = _("The computer plays every seat: {seats}.", { seats: list(all) });
  } else if (!me && ai.length) {
    const some = ai.map((s) => _("{seat} ({level})", { seat: kind.label(s), level: level(s) }));
    text = _("The computer plays {seats}.", { seats: list(some) });
  }
  $("facing").textContent = text;
  $("facing").hidden = !text;
  $("facing").dataset.levels = ai.map((s) => game.seats[s].kind.slice(3)).join(",");
}

async function send(command) {
  if (sending) return;
  sending = true;
  root.setAttribute("aria-busy", "true");
  showError("");
  try {
    await call(`${base}/commands`, { method: "POST", body: { command }, headers: { "Idempotency-Key": newKey() } });
  } catch (e) {
    showError(e.message);
  } finally {
    sending = false;
    root.removeAttribute("aria-busy");
  }
  await refresh();
  root.dataset.sent = Number(root.dataset.sent || 0) + 1; // each answer's round trip is done
}

// The invite link of a seat still open, kept by the browser that made the game.
function renderInvite() {
  const box = $("invite-box");
  const open = me ? kind.others(me).filter((s) => getInvite(gameId, s)) : [];
  for (const seat of open) if (game.seats[seat]?.joined) setInvite(gameId, seat, null);
  const them = open.find((s) => !game.seats[s]?.joined);
  box.hidden = !them;
  if (box.hidden) return;
  $("invite-box-seat").textContent = kind.label(them);
  $("invite-box-link").value = getInvite(gameId, them);
}

// Each part of the page is redrawn only when what it shows has changed, so a live update
// that does not concern a part leaves it (and a click or the focus on it) alone.
const drawn = {};
function part(name, inputs, draw) {
  const signature = JSON.stringify(inputs);
  if (drawn[name] === signature) return;
  drawn[name] = signature;
  draw();
}

function render(focusKey) {
  if (pace?.active || (pacePending && game?.outcome)) return;
  const focused = document.activeElement?.dataset?.focus;
  const view = shownView();
  const turn = myTurn();
  const mine = turn ? ui : null; // the choices being made are part of what is shown
  root.dataset.version = game.version;
  root.dataset.round = view?.round ?? 0;
  root.dataset.over = game.outcome ? "yes" : "no";
  root.dataset.deciding = turn ? game.pending[me] : "";
  $("banner").textContent = handed()
    ? _("The computer ({level}) plays your seat. {prompt}", { level: game.seats[me].kind.slice(3), prompt: game.prompt })
    : game.prompt;
  $("banner").classList.toggle("turn", turn);
  document.title = turn ? _("● Your turn — {game} {id} — Bingfa", { game: kind.title, id: gameId })
    : _("{game} {id} — Bingfa", { game: kind.title, id: gameId });
  part("outcome", [game.outcome, game.outcome_text, game.match], renderOutcome);
  part("facing", [game.seats, me], renderFacing);
  part("match-note", [game.match, !!game.outcome], renderMatchNote);
  renderInvite();
  $("players").hidden = !view;
  part("board", [view, game.seats, mine, me], () => front.renderBoard($("board-area"), view, ctx()));
  if (view) part("players", [view, game.seats], () => front.renderPlayers($("players"), view, ctx()));
  part("hand", [view, mine], () => { $("hand-panel").hidden = !front.renderHand($("hand-panel"), view, ctx()); });
  part("decision", [view?.decision, game.pending[me], mine], () => {
    const shown = turn && front.renderDecision($("decision"), ctx());
    $("decision").hidden = !shown;
    $("decision").dataset.kind = shown ? game.pending[me] : "";
  });
  $("more").hidden = !(me && view && !game.outcome);
  $("hint-box").hidden = !(turn && !game.rated);
  if (hintFor !== null && hintFor !== game.version) { $("hint-text").hidden = true; hintFor = null; }
  $("handover-box").hidden = !(me && game.seats[me]?.kind === "human" && !game.rated && !game.outcome);
  // handed over (not a stand-in for one timed-out decision, which is the computer's alone)
  $("takeback-box").hidden = !(handed() && !game.clock?.seats?.[me]?.standing_in && !game.outcome);
  if (!$("more").hidden && front.renderExtras) part("extras", [view], () => front.renderExtras($("game-extras"), ctx()));
  part("clocks", [game.clock, game.outcome, me], () => renderClocks($("clocks"), game, me, kind.label));
  part("draw", [game.draw_offer, game.outcome, me], renderDraw);
  part("vacation", [game.clock?.seats?.[me]?.vacation_days_left, game.outcome], renderVacation);
  if (game.outcome && me && !rematchShown) {
    rematchShown = true;
    $("rematch-box").hidden = false;
    showRematch($("rematch-box"), gameId, me);
  }
  if (game.outcome && source && !matchOpen()) { source.close(); source = null; }
  renderPaceBox();
  if (game.outcome && !outcomeSeen) { // the end, where the player is looking
    outcomeSeen = true;
    requestAnimationFrame(() => {
      $("outcome").scrollIntoView({ block: "start", behavior: "smooth" });
      $("outcome").focus({ preventScroll: true });
    });
  }
  const lost = !document.activeElement || document.activeElement === document.body;
  const focus = focusKey ?? (lost ? focused : null);
  if (focus) document.querySelector(`[data-focus="${CSS.escape(focus)}"]`)?.focus();
}

// A game of a match of linked games: which game it is, the match's result once decided
// (the server's words for this seat), else a link to the next game once it exists.
function matchNote() {
  const match = game.match;
  if (!match) return null;
  const next = match.games[match.game];
  const parts = [kind.t("table.match.game", { game: match.game, of: match.of }), " "];
  if (match.result_text) parts.push(el("strong", { "data-match-result": "" }, match.result_text));
  else if (next) parts.push(el("a", { href: `/g/${encodeURIComponent(next)}`, "data-match-next": "" }, kind.t("table.match.next", { game: match.game + 1 })));
  return el("p", { "data-match": "" }, ...parts);
}

// While a game of a match is played, which game of the match it is (the end says more).
function renderMatchNote() {
  const match = game.match;
  const node = $("match-note");
  node.hidden = !match || !!game.outcome;
  node.textContent = node.hidden ? "" : kind.t("table.match.game", { game: match.game, of: match.of });
}

// How the game ended, as the server tells it to this seat, with a link to the replay.
function renderOutcome() {
  const node = $("outcome");
  const outcome = game.outcome;
  node.hidden = !outcome;
  node.tabIndex = -1;
  if (!outcome) return;
  const said = game.outcome_text || { head: _("The game is over"), reason: "" };
  const note = front.outcomeNote ? front.outcomeNote(outcome, ctx()) : null;
  clear(node,
    el("h2", {}, said.head),
    el("p", { "data-reason": outcome.reason }, said.reason),
    note ? el("p", { class: "muted" }, note) : null,
    matchNote(),
    el("p", { class: "buttons" }, node.dataset.replay ? el("a", { href: node.dataset.replay, class: "button primary", "data-replay-link": "" }, _("Watch the replay")) : null,
      el("a", { href: "/" }, _("Start a new game"))));
}

// ---- Watching at a pace ----------------------------------------------------------------
// A game the computer plays against itself is usually over before its page opens. Its
// watcher came to see it played, so the page plays the finished game back from the start,
// one move (one line of the log) at a time, at a readable pace, with pause, step, speed and
// "skip to the end"; the board of each step is the record's (/api/replays/<id>/states/<n>,
// as a spectator saw it). This is the game page, not the replay page, because the watcher
// asked to watch a game, not to study a record: the end arrives the way a live game's does.
// Playback starts by itself when the home page's "watch" sent the viewer here and the game
// is already over; any finished computer-only game offers it ("Watch it from the start").
const PACE_KEY = `bingfa:${gameId}:paced`;
const SPEEDS = { slow: 2200, normal: 1100, fast: 350 };

function computerOnly() {
  return !!game && kind.seatIds.every((s) => String(game.seats[s]?.kind || "").startsWith("ai:"));
}

function renderPaceBox() {
  const offer = !me && game.outcome && computerOnly();
  $("pace-box").hidden = !offer;
  if (offer && !pace?.active) $("pace-text").textContent = "";
  $("pace-controls").hidden = !pace?.active;
  $("pace-start").hidden = !!pace?.active;
}

async function startPace() {
  if (pace?.active) return;
  showError("");
  let record;
  try {
    record = await api(`/api/replays/${encodeURIComponent(gameId)}`);
  } catch (e) {
    showError(_("The game cannot be played back just now ({error}).", { error: e.message }));
    return;
  }
  const steps = record.events.filter((e) => told(e)).map((e) => e.seq);
  pacePending = false;
  pace = { active: true, events: record.events, steps, i: -1, playing: true, timer: null, states: new Map() };
  root.dataset.over = "no";
  root.dataset.paced = "playing";
  $("outcome").hidden = true;
  $("rematch-box").hidden = true;
  renderPaceBox();
  showPaceButtons();
  await paceStep(1);
}

function stateAt(n) {
  if (!pace.states.has(n)) {
    const found = api(`/api/replays/${encodeURIComponent(gameId)}/states/${n}?as=spectator`);
    found.catch(() => pace.states.delete(n));
    pace.states.set(n, found);
  }
  return pace.states.get(n);
}

async function paceStep(by) {
  if (!pace?.active) return;
  clearTimeout(pace.timer);
  const i = Math.min(pace.i + by, pace.steps.length - 1);
  if (i >= pace.steps.length - 1 && pace.i === i) return paceEnd();
  pace.i = i;
  const n = pace.steps[i];
  let shown;
  try {
    shown = await stateAt(n);
  } catch (e) {
    showError(e.message);
    pace.playing = false;
    showPaceButtons();
    return;
  }
  if (!pace?.active || pace.i !== i) return; // moved on meanwhile
  if (pace.steps[i + 1]) stateAt(pace.steps[i + 1]); // the next one, ready in time
  const seen = pace.events.filter((e) => e.seq <= n);
  const view = shown.view;
  root.dataset.step = n;
  root.dataset.round = view?.round ?? 0;
  $("banner").textContent = shown.prompt ? _("Played back at a readable pace: {prompt}", { prompt: shown.prompt })
    : _("Played back at a readable pace.");
  const c = { ...ctx(), view, game: { ...game, outcome: null }, events: seen, deciding: false, viewer: _("You are watching the computer play itself") };
  front.renderBoard($("board-area"), view, c);
  front.renderPlayers($("players"), view, c);
  $("players").hidden = false;
  rebuildLog(seen);
  $("pace-text").textContent = _("Move {move} of {moves}", { move: number(i + 1), moves: number(pace.steps.length) });
  if (i >= pace.steps.length - 1) return paceEnd();
  if (pace.playing) pace.timer = setTimeout(() => paceStep(1), SPEEDS[$("pace-speed").value] || SPEEDS.normal);
}

// The end of the playback: the page shows the game as it is (its end, the whole log).
function paceEnd() {
  if (!pace) return;
  clearTimeout(pace.timer);
  pace.active = false;
  try { sessionStorage.removeItem(PACE_KEY); } catch { /* private mode */ }
  delete root.dataset.paced;
  for (const name of Object.keys(drawn)) delete drawn[name]; // every part drawn afresh
  rebuildLog(logEvents);
  outcomeSeen = false; // bring the end into view, as in a live game
  render();
}

function showPaceButtons() {
  $("pace-play").textContent = pace?.playing ? _("Pause") : _("Play");
  $("pace-play").setAttribute("aria-pressed", pace?.playing ? "false" : "true");
  root.dataset.paced = pace?.active ? (pace.playing ? "playing" : "paused") : "";
}

$("pace-start").addEventListener("click", () => startPace());
$("pace-play").addEventListener("click", () => {
  if (!pace?.active) return;
  pace.playing = !pace.playing;
  showPaceButtons();
  if (pace.playing) paceStep(1);
  else clearTimeout(pace.timer);
});
$("pace-step").addEventListener("click", () => {
  if (!pace?.active) return;
  pace.playing = false;
  showPaceButtons();
  paceStep(1);
});
$("pace-end").addEventListener("click", () => paceEnd());

// A draw offered to me asks for an answer in plain sight; my own offer waits for one.
function renderDraw() {
  const box = $("draw-offer");
  const offer = game.draw_offer;
  box.hidden = !(me && offer && !game.outcome);
  $("offer-draw").disabled = !!offer;
  $("offer-draw").textContent = offer === me ? _("Draw offered") : _("Offer a draw");
  if (box.hidden) return;
  if (offer === me) {
    clear(box, el("p", {}, _("You offered a draw. It stands until your opponent answers or the game moves on.")));
    return;
  }
  const answer = (action) => drawAction(action);
  clear(box, el("p", {}, _("{seat} offers a draw.", { seat: kind.label(offer) })),
    el("p", { class: "buttons" },
      el("button", { type: "button", class: "primary", id: "accept-draw", onclick: () => answer("accept") }, _("Accept the draw")),
      el("button", { type: "button", id: "decline-draw", onclick: () => answer("decline") }, _("Decline"))));
}

async function drawAction(action) {
  showError("");
  try {
    await call(`${base}/draw`, { method: "POST", body: { action } });
  } catch (e) {
    showError(e.message);
  }
  await refresh();
}

function renderVacation() {
  const left = game.clock?.seats?.[me]?.vacation_days_left || 0;
  $("vacation-box").hidden = !(me && !game.outcome && left > 0);
  const options = Array.from({ length: left }, (unused, i) => el("option", { value: i + 1 }, duration((i + 1) * 86400)));
  clear($("vacation-days"), options);
}

document.addEventListener("keydown", (event) => {
  if (front?.onKey && myTurn() && front.onKey(event, ctx())) event.preventDefault();
});
$("resign").addEventListener("click", () => {
  if (window.confirm(_("Resign this game? Your opponent wins."))) send({ type: "resign" });
});
$("offer-draw").addEventListener("click", () => drawAction("offer"));
$("vacation").addEventListener("click", async () => {
  const days = Number($("vacation-days").value);
  if (!window.confirm(_("Stop your clock in this game for {days}? The days are spent even if you come back sooner.", { days: duration(days * 86400) }))) return;
  showError("");
  try {
    await call(`${base}/vacation`, { method: "POST", body: { days } });
  } catch (e) {
    showError(e.message);
  }
  await refresh();
});
$("hint").addEventListener("click", async () => {
  showError("");
  try {
    // An AI worker works the hint out; until it is ready the answer is 202: ask again.
    let hint = await call(`${base}/hint`);
    for (let tries = 0; !hint.command && tries < 20; tries += 1) {
      $("hint-text").textContent = _("The computer is thinking…");
      $("hint-text").hidden = false;
      await new Promise((done) => setTimeout(done, 1000));
      hint = await call(`${base}/hint`);
    }
    if (!hint.command) throw new Error(_("The computer could not work out a hint just now; try again."));
    hintFor = hint.version;
    $("hint-text").textContent = _("Hint ({level}): {hint}", { level: hint.level, hint: hint.text });
    $("hint-text").hidden = false;
  } catch (e) {
    showError(e.message);
  }
});
$("handover").addEventListener("click", async () => {
  const level = $("handover-level").value;
  if (!window.confirm(_("Let the computer ({level}) play this game for you? You can take your seat back at any time.", { level }))) return;
  showError("");
  try {
    await call(`${base}/ai`, { method: "POST", body: { level } });
  } catch (e) {
    showError(e.message);
  }
  await refresh();
});
$("take-back").addEventListener("click", async () => {
  showError("");
  try {
    await call(`${base}/take-back`, { method: "POST" });
  } catch (e) {
    showError(e.message);
  }
  await refresh();
});
$("invite-box-copy").addEventListener("click", () => copyText($("invite-box-link"), $("invite-box-status")));
document.addEventListener("visibilitychange", () => { if (!document.hidden && front) refresh(); });
$("log-order").addEventListener("click", () => {
  try { localStorage.setItem(ORDER_KEY, logOrder() === "newest" ? "oldest" : "newest"); } catch { /* private mode */ }
  showLogOrder();
  rebuildLog(pace?.active ? pace.events.filter((e) => e.seq <= pace.steps[pace.i]) : logEvents);
});

async function start() {
  takeToken(); // first: the token leaves the address bar at once
  try {
    ({ kind, front } = await loadFront(root.dataset.kind));
  } catch (e) {
    showError(_("This game's page could not be loaded ({error}); reloading the page may help.", { error: e.message }));
    return;
  }
  if (front.extrasTitle) $("more-title").textContent = _("Hint, {extras}, vacation, draw, hand over, resign", { extras: front.extrasTitle });
  try {
    await takeSeat();
  } catch (e) {
    showError(e.message);
  }
  showLogOrder();
  let paced = false;
  try { paced = sessionStorage.getItem(PACE_KEY) === "1"; } catch { /* private mode */ }
  outcomeSeen = paced; // played back from the start: the end comes into view at its end
  pacePending = paced && !me;
  await refresh();
  if (!game?.outcome) outcomeSeen = false; // watched live: its end is brought into view
  listen();
  if (pacePending && game?.outcome && computerOnly()) await startPace();
  if (pacePending) { // not played back after all: the page as it is
    pacePending = false;
    render();
  }
}

start();
