// A player's page: name, ratings per game, rated history newest first (paged, each
// game linked to its replay), and the mark for a player who often runs out of time.
import { api, clear, el } from "./api.js";
import { loadKind } from "./kinds.js";
import { _, dateTime, number } from "./i18n.js";
import { playerLink, provisionalMark, rating } from "./leaderboard.js";

const $ = (id) => document.getElementById(id);
const main = $("player-page");
const player = main.dataset.player;
const PAGE = 20;
let offset = 0;

// A game's result for the player, with the seat they played: one sentence each.
function resultText(result, seat) {
  if (result === "win") return _("Won as {seat}", { seat });
  if (result === "loss") return _("Lost as {seat}", { seat });
  if (result === "draw") return _("Drawn as {seat}", { seat });
  return `${result} (${seat})`; // a result this page does not know yet: as the server says it
}

function when(iso) {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? String(iso) : dateTime(date);
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

// "1 rated game: 1 won, 0 lost, 0 drawn": the record of one game's ratings.
function record(r) {
  const values = { games: number(r.games), wins: number(r.wins), losses: number(r.losses), draws: number(r.draws) };
  return r.games === 1 ? _("1 rated game: {wins} won, {losses} lost, {draws} drawn", values)
    : _("{games} rated games: {wins} won, {losses} lost, {draws} drawn", values);
}

function ratingItem(r, kind) {
  const status = r.provisional ? provisionalMark() : null;
  return el("li", { "data-game": r.game, "data-provisional": String(r.provisional) },
    el("strong", {}, kind.title), ": ",
    el("span", { class: "rating" }, rating(r.rating)), ` ±${rating(r.rd)} `, status,
    el("span", { class: "muted" }, " · ", record(r)));
}

function historyRow(h, kind) {
  const replay = el("a", { href: `/r/${encodeURIComponent(h.game)}`, "data-replay": h.game,
    "aria-label": _("Watch the replay of game {id}", { id: h.game }) }, _("Replay"));
  const change = number(h.change, { signDisplay: "exceptZero", useGrouping: false });
  return el("tr", { "data-game": h.game },
    el("td", { "data-label": _("Finished") }, when(h.finished_at)),
    el("td", { "data-label": _("Opponent") }, playerLink(h.opponent), el("span", { class: "muted" }, ` (${rating(h.opponent_rating)})`)),
    el("td", { "data-label": _("Result") }, el("strong", { "data-result": h.result }, resultText(h.result, kind.label(h.seat)))),
    el("td", { "data-label": _("Rating") }, `${rating(h.rating_before)} → ${rating(h.rating_after)} (${change})`),
    el("td", { "data-label": _("Replay"), class: "links" }, replay));
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
  flag.textContent = p.timeouts.often ? _("Often runs out of time: in {count} games", { count: number(p.timeouts.games) }) : "";
  flag.hidden = !p.timeouts.often;
  const kinds = await Promise.all(p.ratings.map((r) => kindOf(r.game)));
  clear($("ratings"), p.ratings.map((r, i) => ratingItem(r, kinds[i])));
  $("ratings-status").textContent = p.ratings.length ? "" : _("No rated games yet.");
  const counts = { finished: number(p.games.finished), playing: number(p.games.playing) };
  $("player-games").textContent = p.games.finished === 1
    ? _("1 finished game, {playing} under way (rated or not).", counts)
    : _("{finished} finished games, {playing} under way (rated or not).", counts);
  const h = p.history;
  const played = await kindOf(p.history.game);
  clear($("history-rows"), h.entries.map((entry) => historyRow(entry, played)));
  $("history-table").hidden = h.entries.length === 0;
  $("history-total").textContent = h.total ? `(${number(h.total)})` : "";
  $("history-status").textContent = h.total ? _("Newest first; {first}–{last} of {total}.",
    { first: number(offset + 1), last: number(offset + h.entries.length), total: number(h.total) }) : "";
  $("history-newer").hidden = offset === 0;
  $("history-older").hidden = h.next_offset === null;
}

$("history-newer").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); load(); });
$("history-older").addEventListener("click", () => { offset += PAGE; load(); });
load();
