// The home page: create a game through the API, keep the seat token, go to the game.
import { api, clear, copyText, el, setInvite, setToken } from "./api.js";
import { clockFields } from "./clock_fields.js";
import { _, dateTime, duration, number } from "./i18n.js";
import { loadKind } from "./kinds.js";
import { gameFields } from "./new_game.js";

const form = document.getElementById("new-game");
const error = document.getElementById("home-error");
const invite = document.getElementById("invite");

function mode() {
  return form.querySelector("input[name=mode]:checked").value;
}

const clock = clockFields("");
const fields = gameFields("");

function showMode() {
  const m = mode();
  const $ = (id) => document.getElementById(id);
  $("level").disabled = m === "friend";
  fields.seatChoice().disabled = m === "watch";
  clock.hide(m === "watch");
  clock.show({ ratable: m === "friend" }); // games against the computer are not rated
}

function showError(message) {
  error.textContent = message;
  error.hidden = !message;
}

async function create(event) {
  event.preventDefault();
  showError("");
  const m = mode();
  const me = fields.seat();
  const ai = `ai:${document.getElementById("level").value}`;
  const others = m === "ai" ? ai : "human";
  const seats = Object.fromEntries(fields.seats().map((s) => [s, m === "watch" ? ai : s === me ? "human" : others]));
  const key = fields.key();
  const body = {
    game: key,
    options: fields.options(),
    seats,
    rated: clock.rated(),
    clock: clock.chosen(),
    match: fields.match(),
  };
  const button = document.getElementById("create");
  button.disabled = true;
  try {
    const created = await api("/api/games", { method: "POST", body });
    const id = created.game_id;
    for (const [seat, link] of Object.entries(created.seats)) {
      if (link.token && seat === me) setToken(id, seat, link.token);
    }
    if (m === "friend" && created.seats[me]?.token) {
      // take the seat now (as its page would on opening): the game is this player's at once,
      // so "Your games" lists it while the invite waits (bug 8)
      const nonce = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
      try {
        await api(`/api/games/${encodeURIComponent(id)}/join`, {
          method: "POST", token: created.seats[me].token, headers: { "X-Bingfa-Seat": me }, body: { nonce } });
      } catch { /* the game page joins when it opens */ }
      myGames(id);
    }
    if (m === "watch") {
      // the computer plays it out at once: its page plays it back at a readable pace
      try { sessionStorage.setItem(`bingfa:${id}:paced`, "1"); } catch { /* private mode */ }
      location.assign(`/g/${encodeURIComponent(id)}`);
    } else if (m === "ai") {
      location.assign(`/g/${encodeURIComponent(id)}/${me}`);
    } else {
      const them = fields.seats().find((s) => s !== me);
      const link = new URL(created.seats[them].invite, location.origin).href;
      setInvite(id, them, link); // shown on the game page until they join
      document.getElementById("invite-link").value = link;
      document.getElementById("invite-seat").textContent = (await loadKind(key)).label(them);
      document.getElementById("go-to-game").href = `/g/${encodeURIComponent(id)}/${me}`;
      invite.hidden = false;
      form.hidden = true;
      document.getElementById("invite-link").focus();
    }
  } catch (e) {
    showError(e.message);
  } finally {
    button.disabled = false;
  }
}

// A game's status as the list gives it ("your turn", events/readmodels.py), as an id
// ("your-turn") to compare it with.
const statusOf = (g) => String(g.status).replaceAll(" ", "-");

// Where a listed game stands for one of the player's seats, in one sentence: how a finished
// game ended for it, as the server says it ("You win. …"), else whose turn it is and the
// time the player's clock has left (the earliest of their seats).
function gameState(g, seat, label) {
  const status = statusOf(g);
  if (status === "finished") {
    const outcome = g.outcome_text?.[seat]?.text;
    return outcome ? _("{seat}, finished: {outcome}", { seat: label, outcome }) : _("{seat}, finished", { seat: label });
  }
  const ms = g.deadline ? Date.parse(g.deadline) - Date.now() : null;
  const time = ms > 0 ? duration(ms / 1000) : null;
  if (status === "your-turn") {
    if (ms === null) return _("{seat}, your turn", { seat: label });
    return time ? _("{seat}, your turn, {time} left on your clock", { seat: label, time })
      : _("{seat}, your turn, out of time", { seat: label });
  }
  if (status === "waiting") {
    if (ms === null) return _("{seat}, waiting", { seat: label });
    return time ? _("{seat}, waiting, {time} left on your clock", { seat: label, time })
      : _("{seat}, waiting, out of time", { seat: label });
  }
  return `${label}, ${g.status}`; // a state this page does not know yet: as the server says it
}

// A seat of a listed game as players read it (its game's catalogue), else as it is.
async function seatLabel(game, seat) {
  try {
    return (await loadKind(game)).label(seat);
  } catch {
    return seat;
  }
}

// expect: a game just made, which the list may take a moment to include (asked again)
async function myGames(expect = null, tries = 20) {
  const list = document.getElementById("my-games");
  let games;
  try {
    games = (await api("/api/me/games")).games || [];
  } catch {
    return; // the list is a convenience; the form still works
  }
  if (expect && tries > 0 && !games.some((g) => g.game === expect)) {
    setTimeout(() => myGames(expect, tries - 1), 500);
  }
  const items = [];
  for (const g of games) {
    for (const seat of g.seats || []) {
      // Every seat this player took: the game page acts by its token or the player id.
      const href = `/g/${encodeURIComponent(g.game)}/${encodeURIComponent(seat)}`;
      const state = gameState(g, seat, await seatLabel(g.key, seat));
      items.push(el("li", { class: statusOf(g) === "your-turn" ? "turn" : "", "data-game": g.game },
        el("a", { href }, _("Game {id}", { id: g.game })), " — ", state));
    }
  }
  if (items.length) clear(list, items);
  list.dataset.count = items.length;
}
// back to this page from a game (the browser may show it from its cache): the list again
window.addEventListener("pageshow", (event) => { if (event.persisted) myGames(); });

// Notifications ("your turn", "your opponent joined", "game over"), newest first, unread
// ones highlighted; notify.js tells this page of each new one as it arrives.
const notes = { items: [], unread: 0 };

function showNotes() {
  const list = document.getElementById("my-notifications");
  const count = document.getElementById("unread-count");
  count.textContent = notes.unread ? _("{count} unread", { count: number(notes.unread) }) : "";
  count.hidden = !notes.unread;
  document.getElementById("mark-read").hidden = !notes.unread;
  if (!notes.items.length) return;
  clear(list, notes.items.map((n) =>
    el("li", { class: n.read ? "read" : "unread", "data-id": n.id, "data-kind": n.kind },
      el("a", { href: n.url }, n.said || n.text), " ", el("time", { datetime: n.at }, when(n.at)))));
}

function when(at) {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? "" : dateTime(date);
}

async function myNotes() {
  try {
    const found = await api("/api/me/notifications?limit=30");
    notes.items = found.notifications;
    notes.unread = found.unread;
  } catch {
    return; // a convenience, like the list of games
  }
  showNotes();
}

async function markRead() {
  const upto = Math.max(0, ...notes.items.map((n) => n.seq));
  try {
    notes.unread = (await api("/api/me/notifications/read", { method: "POST", body: { upto } })).unread;
  } catch {
    return;
  }
  notes.items = notes.items.map((n) => ({ ...n, read: n.read || n.seq <= upto }));
  showNotes();
}

window.addEventListener("bingfa:notification", (event) => {
  const note = event.detail;
  if (notes.items.some((n) => n.id === note.id)) return;
  notes.items = [{ ...note, read: false }, ...notes.items].slice(0, 30);
  notes.unread = note.unread ?? notes.unread + 1;
  showNotes();
  myGames(); // whose turn it is has changed
});
document.getElementById("mark-read").addEventListener("click", markRead);
myNotes();

form.addEventListener("submit", create);
form.addEventListener("change", showMode);
document.getElementById("copy-invite").addEventListener("click", () =>
  copyText(document.getElementById("invite-link"), document.getElementById("copy-status")));
showMode();
myGames();
