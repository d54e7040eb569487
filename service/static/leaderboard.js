// The leaderboard: established players by rating, then provisional ones, each marked;
// a name links to the player's page.
import { api, clear, el } from "./api.js";
import { _, number } from "./i18n.js";

const $ = (id) => document.getElementById(id);

// A player's name (or anonymous label) linking to their page, and their marks.
export function playerLink(person) {
  return el("a", { href: `/p/${encodeURIComponent(person.player)}`, "data-player": person.player }, person.label);
}

export function timeoutMark(often) {
  return often ? el("span", { class: "badge warning", title: _("Their time ran out in 3 games or more") }, _("often runs out of time")) : null;
}

// The mark of a provisional rating (the player's page shows it too).
export function provisionalMark() {
  return el("span", { class: "badge", title: _("Fewer than 10 rated games, or RD above 110") }, _("provisional"));
}

// A rating (or its deviation) in CLDR's digits, without a grouping separator: a score, "1523".
export const rating = (n) => number(n, { useGrouping: false });

function row(p) {
  const rank = p.provisional ? provisionalMark() : number(p.rank);
  return el("tr", { "data-player": p.player, "data-provisional": String(p.provisional) },
    el("td", { "data-label": _("Rank") }, rank),
    el("td", { "data-label": _("Player") }, playerLink(p), " ", timeoutMark(p.often_times_out)),
    el("td", { "data-label": _("Rating"), class: "number" }, p.provisional ? `${rating(p.rating)}?` : rating(p.rating)),
    el("td", { "data-label": _("RD"), class: "number" }, `±${rating(p.rd)}`),
    el("td", { "data-label": _("Games"), class: "number" }, number(p.games)),
    el("td", { "data-label": _("Won / lost / drawn") },
      `${number(p.wins)} / ${number(p.losses)} / ${number(p.draws)}`));
}

async function load() {
  try {
    const game = $("leaderboard").dataset.kind; // the page's game (the first by default)
    const board = await api(`/api/leaderboard?game=${encodeURIComponent(game)}&limit=200`);
    clear($("board-rows"), board.players.map(row));
    $("board-table").hidden = board.players.length === 0;
    const count = board.players.length;
    $("board-status").textContent = count === 1 ? _("1 rated player.")
      : count ? _("{count} rated players.", { count: number(count) })
        : _("Nobody has finished a rated game yet. Start one against a friend from the home page (tick “Rated”).");
  } catch (e) {
    $("board-status").textContent = "";
    $("board-error").textContent = e.message;
    $("board-error").hidden = false;
  }
}

if ($("leaderboard")) load();
