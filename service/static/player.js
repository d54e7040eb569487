// A player's page: name, ratings per game, rated history newest first (paged, each
// game linked to its replay), and the mark for a player who often runs out of time.
import { api, clear, el } from "./api.js";
import { loadKind } from "./kinds.js";
import { playerLink } from "./leaderboard.js";

const $ = (id) => document.getElementById(id);
const main = $("player-page");
const player = main.dataset.player;
const PAGE = 20;
let offset = 0;

const RESULTS = { win: "Won", loss: "Lost", draw: "Draw" };

function when(iso) {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  return el("time", { datetime: iso }, text);
}

// Each game's title and seat labels, from its catalogue (a game this server lacks: its key).
async function kindOf(key) {
  try {
    return await loadKind(key);
  } catch {
    return { title: key, label: (seat) => seat };
  }
}

function ratingItem(r, kind) {
  const status = r.provisional ? el("span", { class: "badge", title: "Fewer than 10 rated games, or RD above 110" }, "provisional") : null;
  return el("li", { "data-game": r.game, "data-provisional": String(r.provisional) },
    el("strong", {}, kind.title), ": ",
    el("span", { class: "rating" }, String(r.rating)), ` ±${r.rd} `, status,
    el("span", { class: "muted" }, ` · ${r.games} rated game${r.games === 1 ? "" : "s"}: ${r.wins} won, ${r.losses} lost, ${r.draws} drawn`));
}

function historyRow(h, kind) {
  const sign = h.change > 0 ? "+" : "";
  const replay = el("a", { href: `/r/${encodeURIComponent(h.game)}`, "data-replay": h.game,
    "aria-label": `Watch the replay of game ${h.game}` }, "Replay");
  return el("tr", { "data-game": h.game },
    el("td", { "data-label": "Finished" }, when(h.finished_at)),
    el("td", { "data-label": "Opponent" }, playerLink(h.opponent), el("span", { class: "muted" }, ` (${h.opponent_rating})`)),
    el("td", { "data-label": "Result" }, el("strong", { "data-result": h.result }, RESULTS[h.result] || h.result),
      el("span", { class: "muted" }, ` as ${kind.label(h.seat)}`)),
    el("td", { "data-label": "Rating" }, `${h.rating_before} → ${h.rating_after} (${sign}${h.change})`),
    el("td", { "data-label": "Replay", class: "links" }, replay));
}

function showError(message) {
  $("player-error").textContent = message;
  $("player-error").hidden = !message;
}

async function load() {
  let p;
  try {
    p = await api(`/api/players/${encodeURIComponent(player)}?offset=${offset}&limit=${PAGE}`);
  } catch (e) {
    $("ratings-status").textContent = "";
    showError(e.message);
    return;
  }
  showError("");
  $("player-name").textContent = p.label;
  document.title = `${p.label} — Bingfa`;
  const flag = $("player-flag");
  flag.textContent = p.timeouts.often ? `Often runs out of time: in ${p.timeouts.games} games` : "";
  flag.hidden = !p.timeouts.often;
  const kinds = await Promise.all(p.ratings.map((r) => kindOf(r.game)));
  clear($("ratings"), p.ratings.map((r, i) => ratingItem(r, kinds[i])));
  $("ratings-status").textContent = p.ratings.length ? "" : "No rated games yet.";
  $("player-games").textContent = `${p.games.finished} finished game${p.games.finished === 1 ? "" : "s"}, ${p.games.playing} under way (rated or not).`;
  const h = p.history;
  const played = await kindOf(p.history.game);
  clear($("history-rows"), h.entries.map((entry) => historyRow(entry, played)));
  $("history-table").hidden = h.entries.length === 0;
  $("history-total").textContent = h.total ? `(${h.total})` : "";
  $("history-status").textContent = h.total ? `Newest first; ${offset + 1}–${offset + h.entries.length} of ${h.total}.` : "";
  $("history-newer").hidden = offset === 0;
  $("history-older").hidden = h.next_offset === null;
}

$("history-newer").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); load(); });
$("history-older").addEventListener("click", () => { offset += PAGE; load(); });
load();
