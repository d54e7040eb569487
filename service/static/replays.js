// The list of replays: finished games newest first, filters and paging (the API's keyset
// cursor), a link to each replay and its export; importing a record exported elsewhere.
import { api, clear, el, problemText } from "./api.js";
import { _, dateTime, number } from "./i18n.js";
import { loadKind } from "./kinds.js";

const $ = (id) => document.getElementById(id);
const PAGE = 20;
const FILTERS = ["player", "result", "imported"];
let cursors = [null]; // the cursor of each page shown so far (null: the newest)

function filters() {
  const query = new URLSearchParams(location.search);
  const out = {};
  for (const name of FILTERS) if (query.get(name)) out[name] = query.get(name);
  return out;
}

function showFilters() {
  const f = filters();
  $("f-player").value = f.player || "";
  $("f-result").value = f.result || "";
  $("f-imported").value = f.imported || "";
}

// An AI level's name as players read it (service/pages.py's levels), else its id.
function levelName(level) {
  const names = { random: _("random"), easy: _("easy"), medium: _("medium"), hard: _("hard") };
  return Object.hasOwn(names, level) ? names[level] : level;
}

// A player as a person reads it: the computer and its level, or the player's name (as the
// server gives it: chosen, else their anonymous label) that filters the list to their games.
function playerNode(header, seat, label) {
  const id = header.players?.[seat];
  const kind = header.seats?.[seat] || "";
  const handed = header.handed_to_ai?.[seat];
  const bits = [el("span", { class: "seat-name", "data-colour": seat }, label(seat)), ": "];
  if (!id || String(id).startsWith("ai:")) {
    const level = String(id || kind).replace(/^ai:/, "");
    bits.push(_("computer ({level})", { level: levelName(level) || "?" }));
  } else {
    const href = `/replays?player=${encodeURIComponent(id)}`;
    const name = header.names?.[seat] || _("a player");
    bits.push(el("a", { href, title: _("Games of {name}", { name }), "data-player": id, "data-name": name }, name));
  }
  if (handed) {
    bits.push(el("span", { class: "muted" }, " ",
      _("(computer, {level}, from event {seq})", { level: levelName(handed.level), seq: number(handed.seq) })));
  }
  return el("div", { "data-seat": seat }, bits);
}

// How the game ended, as the server says it to anyone.
function resultText(header) {
  const told = header.outcome_text || { head: header.result, reason: header.reason || "" };
  return [el("strong", { "data-result": header.result }, told.head), el("br"), el("span", { class: "muted" }, told.reason)];
}

// A game's seat labels (its catalogue), or the seats as they are for a game not here.
async function labelsOf(key) {
  try {
    const kind = await loadKind(key);
    return { label: kind.label, seats: kind.seatIds };
  } catch {
    return { label: (seat) => seat, seats: null };
  }
}

function when(iso) {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? String(iso) : dateTime(date);
  return el("time", { datetime: iso }, text);
}

async function row(header) {
  const id = header.id;
  const { label, seats } = await labelsOf(header.game);
  const watch = el("a", { href: `/r/${encodeURIComponent(id)}`, class: "button primary", "data-replay": id,
    "aria-label": _("Watch the replay of game {id}", { id }) }, _("Watch"));
  const exported = el("a", { href: `/api/replays/${encodeURIComponent(id)}/export`, download: `bingfa-${id}.jsonl`,
    "aria-label": _("Export game {id} as JSON Lines", { id }) }, _("Export"));
  const events = header.events === 1 ? _("1 event") : _("{count} events", { count: number(header.events) });
  return el("tr", { "data-id": id, "data-kind": header.game },
    el("td", { "data-label": _("Players") }, (seats || Object.keys(header.seats || {})).map((s) => playerNode(header, s, label)),
      header.imported ? el("span", { class: "badge" }, _("imported")) : null),
    el("td", { "data-label": _("Result") }, resultText(header)),
    el("td", { "data-label": _("Finished") }, when(header.ended_at), el("br"), el("span", { class: "muted" }, events)),
    el("td", { "data-label": _("Replay"), class: "links" }, watch, " ", exported));
}

async function load(page) {
  const query = new URLSearchParams({ limit: String(PAGE), ...filters() });
  if (cursors[page]) query.set("cursor", cursors[page]);
  $("list-error").hidden = true;
  $("list-status").textContent = _("Loading…");
  let body;
  try {
    body = await api(`/api/replays?${query}`);
  } catch (e) {
    $("list-error").textContent = e.message;
    $("list-error").hidden = false;
    $("list-status").textContent = "";
    return;
  }
  cursors = cursors.slice(0, page + 1);
  if (body.next) cursors.push(body.next);
  clear($("replay-rows"), await Promise.all(body.replays.map(row)));
  $("replay-table").hidden = !body.replays.length;
  $("list-total").textContent = `(${number(body.total)})`;
  const first = page * PAGE + 1;
  const shown = { first: number(first), last: number(first + body.replays.length - 1), total: number(body.total) };
  $("list-status").textContent = body.replays.length ? _("Games {first} to {last} of {total}.", shown)
    : Object.keys(filters()).length ? _("No finished game matches these filters.") : _("No game has finished yet.");
  $("replays").dataset.page = page;
  $("page-first").hidden = page < 2;
  $("page-prev").hidden = page < 1;
  $("page-next").hidden = !body.next;
  $("page-prev").onclick = () => load(page - 1);
  $("page-first").onclick = () => load(0);
  $("page-next").onclick = () => load(page + 1);
}

function applyFilters(event) {
  event.preventDefault();
  const query = new URLSearchParams();
  const values = { player: $("f-player").value.trim(), result: $("f-result").value, imported: $("f-imported").value };
  for (const [name, value] of Object.entries(values)) if (value) query.set(name, value);
  history.replaceState(null, "", `${location.pathname}${query.toString() ? `?${query}` : ""}`);
  cursors = [null];
  load(0);
}

// -- import -------------------------------------------------------------------------------
function show(value) {
  return value === null || value === undefined ? _("nothing") : JSON.stringify(value);
}

function divergenceNodes(d) {
  if (!d) return [];
  const where = d.step === 0 ? _("the header (line 1)")
    : _("event {step} (line {line})", { step: number(d.step), line: number(d.step + 1) });
  const rows = [
    [_("Where"), where],
    [_("Field"), d.field], [_("Expected"), show(d.expected)], [_("Found"), show(d.found)],
  ];
  const list = el("dl", { class: "divergence" }, rows.map(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
  const cause = d.cause ? el("p", {}, _("What the re-run finds there: {sentence}", { sentence: d.cause.sentence })) : null;
  return [list, cause];
}

async function importRecord(event) {
  event.preventDefault();
  const file = $("import-file").files[0];
  const box = $("import-error");
  box.hidden = true;
  if (!file) {
    clear(box, el("p", {}, _("Choose the record file first (a .jsonl export).")));
    box.hidden = false;
    $("import-file").focus();
    return;
  }
  const form = new FormData();
  form.append("record", file, file.name);
  $("import-send").disabled = true;
  $("import-status").textContent = _("Verifying the record…");
  try {
    let response;
    let body = null;
    try {
      response = await fetch("/api/replays", { method: "POST", body: form, headers: { Accept: "application/json" } });
      body = await response.json().catch(() => null);
    } catch {
      throw new Error(_("Could not reach the server; check your connection and try again."));
    }
    if (response.ok) {
      $("import-status").textContent = body.sentence ? _("{sentence} Opening the replay…", { sentence: body.sentence })
        : _("Imported. Opening the replay…");
      location.assign(`/r/${encodeURIComponent(body.id)}`);
      return;
    }
    $("import-status").textContent = "";
    clear(box, el("p", { class: "refusal" }, problemText(body, response.status)), divergenceNodes(body?.divergence));
    box.hidden = false;
  } catch (e) {
    $("import-status").textContent = "";
    clear(box, el("p", {}, e.message));
    box.hidden = false;
  } finally {
    $("import-send").disabled = false;
  }
}

$("filters").addEventListener("submit", applyFilters);
$("f-clear").addEventListener("click", () => {
  history.replaceState(null, "", location.pathname);
  showFilters();
  cursors = [null];
  load(0);
});
$("import").addEventListener("submit", importRecord);
showFilters();
load(0);
