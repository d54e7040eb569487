// "Find a game": the open seeks (refreshed every few seconds), posting a seek, accepting
// one, and this browser's own seeks with Cancel and, once accepted, a link to the game.
import { api, clear, el, getToken, setToken } from "./api.js";
import { clockFields } from "./clock_fields.js";
import { _, ago } from "./i18n.js";
import { loadKind } from "./kinds.js";
import { gameFields } from "./new_game.js";

const REFRESH_MS = 3000;
const $ = (id) => document.getElementById(id);
const form = $("seek-form");

// The seeker's seat token is given when the seek is posted (its colour may be decided
// only when someone accepts): kept here until the seek becomes a game.
const seekTokenKey = (id) => `bingfa:seek:${id}:token`;
function seekToken(id) {
  try { return localStorage.getItem(seekTokenKey(id)); } catch { return null; }
}
function keepSeekToken(id, token) {
  try { localStorage.setItem(seekTokenKey(id), token); } catch { /* private mode */ }
}

function nonce() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

function showError(message) {
  $("seeks-error").textContent = message || "";
  $("seeks-error").hidden = !message;
}

// What a seek offers, in one sentence: its summary and the colour it wants ("either
// colour", or "wants <the seat's label>").
async function offerText(seek) {
  const summary = seek.summary;
  if (seek.colour === "random") return _("{summary}; either colour", { summary });
  return _("{summary}; wants {seat}", { summary, seat: await labelOf(seek, seek.colour) });
}

async function labelOf(seek, seat) {
  try {
    return (await loadKind(seek.game)).label(seat);
  } catch {
    return seat;
  }
}

// How long ago a seek was posted ("5 minutes ago"), CLDR's words; nothing for a bad time.
function age(iso) {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? "" : ago(at);
}

function gameHref(seek) {
  return `/g/${encodeURIComponent(seek.game_id)}/${encodeURIComponent(seek.seat)}`;
}

let mineIds = new Set();

async function openItem(seek) {
  const mine = mineIds.has(seek.id);
  const action = mine
    ? el("span", { class: "badge" }, _("your seek"))
    : el("button", { type: "button", class: "primary", "data-accept": seek.id, onclick: () => accept(seek) }, _("Accept"));
  return el("li", { class: "seek", "data-seek": seek.id },
    el("a", { class: "seek-who", href: `/p/${encodeURIComponent(seek.player)}` }, seek.name),
    el("span", { class: "seek-what" }, await offerText(seek)),
    el("span", { class: "muted seek-age" }, age(seek.created_at)),
    action);
}

async function mineItem(seek) {
  const parts = [el("span", { class: "seek-what" }, seek.summary)];
  if (seek.status === "made" && seek.game_id) {
    // Give the game page the seat's token, so it plays the seat as an invite link would.
    const token = seekToken(seek.id);
    if (token && !getToken(seek.game_id, seek.seat)) setToken(seek.game_id, seek.seat, token);
    parts.push(el("span", {}, _("Accepted: you play {seat}.", { seat: await labelOf(seek, seek.seat) })),
      el("a", { class: "button primary", href: gameHref(seek), "data-game": seek.game_id }, _("Go to your game")));
  } else if (seek.status === "open") {
    parts.push(el("span", { class: "muted" }, _("waiting, posted {ago}", { ago: age(seek.created_at) })),
      el("button", { type: "button", "data-cancel": seek.id, onclick: () => cancel(seek) }, _("Cancel")));
  } else {
    parts.push(el("span", { class: "muted" }, _("being accepted…")));
  }
  return el("li", { class: "seek", "data-seek": seek.id, "data-status": seek.status }, parts);
}

let refreshing = null;
function refresh() {
  refreshing ??= load().finally(() => { refreshing = null; });
  return refreshing;
}

async function load() {
  try {
    const [open, mine] = await Promise.all([api("/api/seeks"), api("/api/seeks/mine")]);
    mineIds = new Set(mine.seeks.map((s) => s.id));
    const [opened, mined] = await Promise.all([Promise.all(open.seeks.map(openItem)), Promise.all(mine.seeks.map(mineItem))]);
    clear($("open-seeks"), opened.length ? opened
      : el("li", {}, _("Nobody is looking for a game right now. Post a seek below.")));
    clear($("my-seeks"), mined.length ? mined : el("li", {}, _("None yet.")));
  } catch (e) {
    showError(e.message);
  }
}

async function accept(seek) {
  showError("");
  try {
    const made = await api(`/api/seeks/${encodeURIComponent(seek.id)}/accept`, { method: "POST", body: { nonce: nonce() } });
    setToken(made.game_id, made.seat, made.token);
    location.assign(`/g/${encodeURIComponent(made.game_id)}/${encodeURIComponent(made.seat)}`);
  } catch (e) {
    showError(e.message);
    refresh();
  }
}

async function cancel(seek) {
  showError("");
  try {
    await api(`/api/seeks/${encodeURIComponent(seek.id)}`, { method: "DELETE" });
  } catch (e) {
    showError(e.message);
  }
  refresh();
}

const clock = clockFields("seek-");
const fields = gameFields("seek-");
const showForm = () => clock.show();

async function post(event) {
  event.preventDefault();
  showError("");
  const body = {
    game: fields.key(),
    options: fields.options(),
    clock: clock.chosen(),
    rated: clock.rated(),
    match: fields.match(), // offered only for a game whose package plays matches
    colour: fields.seat(),
    nonce: nonce(),
  };
  const button = $("post-seek");
  button.disabled = true;
  try {
    const posted = await api("/api/seeks", { method: "POST", body });
    keepSeekToken(posted.seek.id, posted.token);
    $("seek-summary").textContent = _("Posted: {summary}. It stays open for a week, or until you cancel it.", { summary: posted.seek.summary });
    await refresh();
  } catch (e) {
    showError(e.message);
  } finally {
    button.disabled = false;
  }
}

form.addEventListener("submit", post);
form.addEventListener("change", showForm);
showForm();
refresh();
setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
