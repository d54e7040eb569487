// The rematch of a finished game, for the outcome panel of the game page:
// showRematch(container, gameId, seat) offers it (or accepts the opponent's offer), shows
// "waiting for your opponent", and goes to the new game once it exists (polling the API) when
// this page asked for it; a page opened later only links to it (the old game stays itself).
// The API says which seat this player gets in the new game (the seats swapped).
import { api, clear, el, getToken, setToken } from "./api.js";
import { _ } from "./i18n.js";
import { sentence } from "./sentence.js";

const POLL_MS = 3000;

// The token of the seat this browser gets in the rematch: given when it asks, kept until
// the new game exists (the other seat may accept much later).
const keyOf = (gameId) => `bingfa:${gameId}:rematch:token`;
function kept(gameId) {
  try { return localStorage.getItem(keyOf(gameId)); } catch { return null; }
}
function keep(gameId, token) {
  try { localStorage.setItem(keyOf(gameId), token); } catch { /* private mode */ }
}
function forget(gameId) {
  try { localStorage.removeItem(keyOf(gameId)); } catch { /* private mode */ }
}

function nonce() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function showRematch(container, gameId, seat) {
  if (!container || !seat) return null; // spectators have no rematch to ask for
  const base = `/api/games/${encodeURIComponent(gameId)}/rematch`;
  const token = getToken(gameId, seat) || undefined; // else the browser's player id acts
  const headers = { "X-Bingfa-Seat": seat }; // which seat, when one player holds both
  const button = el("button", { type: "button", class: "primary", id: "rematch" }, _("Rematch"));
  const status = el("p", { id: "rematch-status", role: "status" });
  const box = el("div", { class: "rematch", "data-rematch": "none" }, button, status);
  container.append(box);
  let timer = null;
  let gone = false;
  let askedHere = false; // this page asked for (or accepted) the rematch while open

  // The kept token becomes the new game's seat token, and is forgotten here: the old game's
  // page must open as itself ever after, never send its reader on (bug 1).
  function adopt(answer) {
    const mine = answer.token || kept(gameId);
    if (mine && !getToken(answer.game_id, answer.seat)) setToken(answer.game_id, answer.seat, mine);
    forget(gameId);
  }

  function go(answer) {
    adopt(answer);
    gone = true;
    clearTimeout(timer);
    location.assign(`/g/${encodeURIComponent(answer.game_id)}/${encodeURIComponent(answer.seat)}`);
  }

  function show(answer) {
    box.dataset.rematch = answer.game_id ? "made" : answer.offered_by ? (answer.offered_by === seat ? "offered" : "asked") : "none";
    if (answer.game_id) {
      button.hidden = true;
      const link = el("a", { href: `/g/${encodeURIComponent(answer.game_id)}/${encodeURIComponent(answer.seat)}` }, _("go to the new game"));
      clear(status, sentence(_("The rematch has started: {link}."), { link }));
    } else if (answer.offered_by === seat) {
      button.hidden = true;
      clear(status, _("Rematch offered: waiting for your opponent…"));
    } else if (answer.offered_by) { // the other seat asked
      button.hidden = false;
      button.textContent = _("Accept the rematch");
      clear(status, _("Your opponent asks for a rematch, with the colours swapped."));
    } else {
      button.hidden = false;
      clear(status);
    }
  }

  async function poll() {
    if (gone || !box.isConnected) return;
    try {
      const answer = await api(base, { token, headers });
      if (answer.game_id && askedHere) return go(answer); // asked on this page, still open
      if (answer.game_id && kept(gameId)) adopt(answer); // asked earlier: the link below
      show(answer);
      if (answer.game_id) return; // made without this browser: the link stays, no more polls
    } catch { /* a missed poll is retried */ }
    timer = setTimeout(poll, POLL_MS);
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    askedHere = true;
    try {
      const answer = await api(base, { method: "POST", token, headers, body: { nonce: nonce() } });
      if (answer.token) keep(gameId, answer.token);
      if (answer.game_id) return go(answer);
      show(answer);
    } catch (e) {
      clear(status, e.message);
    } finally {
      button.disabled = false;
    }
  });

  poll();
  return box;
}
