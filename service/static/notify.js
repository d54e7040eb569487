// Live notifications on every page: "your turn", "your opponent joined", "game over".
// One stream per page (Server-Sent Events, resumed by Last-Event-ID). Each notification
// is shown once per browser: as a system notification when the page is not in view and
// the player allowed them (asked only after a click on "Enable notifications", never on
// load), else as a toast in the page. Pages that list notifications (home.js) listen to
// the "bingfa:notification" event on window.
import { el } from "./api.js";
import { _ } from "./i18n.js";

// The newest seq shown in this browser (any tab), per identity: a recovery code may bring
// another player's identity (and its own numbering) into this browser.
const seenKey = (player) => `bingfa:notify:seen:${player}`;
const FRESH_MS = 15 * 60 * 1000; // catching up after a while away: only recent news pops up
const TOAST_MS = 10_000;

function seen(player) {
  try { return Number(localStorage.getItem(seenKey(player))) || 0; } catch { return 0; }
}
function markSeen(player, seq) {
  try { localStorage.setItem(seenKey(player), String(Math.max(seen(player), seq))); } catch { /* private mode */ }
}

function toasts() {
  let box = document.getElementById("toasts");
  if (!box) {
    box = el("div", { id: "toasts", class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  return box;
}

function toast(note) {
  const close = el("button", { type: "button", class: "toast-close", "aria-label": _("Dismiss") }, "×");
  const item = el("div", { class: `toast toast-${note.kind}`, "data-id": note.id },
    el("a", { href: note.url }, note.said || note.text), close);
  close.addEventListener("click", () => item.remove());
  toasts().append(item);
  setTimeout(() => item.remove(), TOAST_MS);
}

function system(note) {
  const shown = new Notification("Bingfa", { body: note.said || note.text, tag: note.id });
  shown.onclick = () => { window.focus(); location.assign(note.url); };
}

const canNotify = () => !!window.Notification && Notification.permission === "granted";

function show(note) {
  if (note.seq <= seen(note.player)) return; // another tab showed it already
  markSeen(note.player, note.seq);
  const at = Date.parse(note.at);
  if (Number.isFinite(at) && Date.now() - at > FRESH_MS) return;
  const here = new URL(note.url, location.href).pathname === location.pathname;
  if (canNotify() && document.visibilityState !== "visible") system(note);
  else if (!here) toast(note); // on the game's own page the page itself shows the news
}

function enableButton() {
  if (!window.Notification || Notification.permission !== "default") return;
  const nav = document.querySelector(".site-nav") || document.body;
  const button = el("button", { type: "button", id: "enable-notifications", class: "link-button" },
    _("Enable notifications"));
  button.addEventListener("click", async () => {
    try { await Notification.requestPermission(); } catch { /* an old browser: callbacks only */ }
    button.remove();
  });
  nav.append(button);
}

function listen() {
  if (!("EventSource" in window)) return;
  // From now on: what came while no page was open is in the home page's list already.
  const source = new EventSource("/api/me/notifications/stream");
  source.addEventListener("notification", (message) => {
    let note;
    try { note = JSON.parse(message.data); } catch { return; }
    window.dispatchEvent(new CustomEvent("bingfa:notification", { detail: note }));
    show(note);
  });
}

enableButton();
listen();
