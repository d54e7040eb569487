// The leaderboard: established players by rating, then provisional ones, each marked;
// a name links to the player's page.
import { api, clear, el } from "./api.js";

const $ = (id) => document.getElementById(id);

// A player's name (or anonymous label) linking to their page, and their marks.
export function playerLink(person) {
  return el("a", { href: `/p/${encodeURIComponent(person.player)}`, "data-player": person.player }, person.label);
}

export function timeoutMark(often) {
  return often ? el("span", { class: "badge warning", title: "Their time ran out in 3 games or more" }, "often runs out of time") : null;
}

function row(p) {
  const rank = p.provisional ? el("span", { class: "badge", title: "Fewer than 10 rated games, or RD above 110" }, "provisional") : String(p.rank);
  return el("tr", { "data-player": p.player, "data-provisional": String(p.provisional) },
    el("td", { "data-label": "Rank" }, rank),
    el("td", { "data-label": "Player" }, playerLink(p), " ", timeoutMark(p.often_times_out)),
    el("td", { "data-label": "Rating", class: "number" }, p.provisional ? `${p.rating}?` : String(p.rating)),
    el("td", { "data-label": "RD", class: "number" }, `±${p.rd}`),
    el("td", { "data-label": "Games", class: "number" }, String(p.games)),
    el("td", { "data-label": "Won / lost / drawn" }, `${p.wins} / ${p.losses} / ${p.draws}`));
}

async function load() {
  try {
    const game = $("leaderboard").dataset.kind; // the page's game (the first by default)
    const board = await api(`/api/leaderboard?game=${encodeURIComponent(game)}&limit=200`);
    clear($("board-rows"), board.players.map(row));
    $("board-table").hidden = board.players.length === 0;
    $("board-status").textContent = board.players.length
      ? `${board.players.length} rated player${board.players.length === 1 ? "" : "s"}.`
      : "Nobody has finished a rated game yet. Start one against a friend from the home page (tick “Rated”).";
  } catch (e) {
    $("board-status").textContent = "";
    $("board-error").textContent = e.message;
    $("board-error").hidden = false;
  }
}

if ($("leaderboard")) load();
