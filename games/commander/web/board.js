// Commander's board: the status line, the last move, the 4 × 8 grid with the river between
// ranks 4 and 5 (seen from the viewing seat's side), the pieces' legend, the position's
// notation; and one panel per seat. What a decision adds (squares that take clicks, the
// piece selected and where it may go, an arrangement being built) comes in `marks` from
// decisions.js. Text nodes only (el/clear).
import { clear, copyText, el } from "/static/api.js";
import { tipped } from "/static/tips.js";
import { justDropped, press } from "./drag.js";
import { FILES, KINDS, RANKS, homeSquares, label, otherSeat, pieceLetter, pieceName, pieceOf, seatIds, t } from "./names.js";

// A piece as drawn: its letter on a token of its seat's colour, a shape for each kind.
export function pieceNode(seat, piece) {
  return el("span", { class: "piece", "data-owner": seat || null, "data-piece": piece, "aria-hidden": "true" }, pieceLetter(piece));
}

// The second seat sees the board turned round: its back rank (8) at the bottom, file d on
// the left. Everyone else sees it as the first seat does.
export const turned = (ctx) => !!ctx.me && seatIds().indexOf(ctx.me) === 1;

// What stands where: square -> {seat, piece}. While the arrangements are secret the board
// holds none; the page shows the seat's own (being built: marks.pieces; made: view.mine)
// and, in a replay's everything-view, both (view.arrangements).
export function piecesShown(view, ctx, marks) {
  const out = { ...(view.pieces || {}) };
  if (view.phase !== "arrange") return out;
  for (const seat of seatIds()) {
    const pieces = view.arrangements?.[seat] || (seat === ctx.me ? view.mine : null);
    if (!pieces) continue;
    homeSquares(seat).forEach((square, i) => { out[square] = { seat, piece: pieces[i] }; });
  }
  return { ...out, ...(marks.pieces || {}) };
}

function squareNode(square, here, view, marks) {
  const file = FILES.indexOf(square[0]);
  const rank = Number(square.slice(1));
  const last = view.last?.from === square ? "from" : view.last?.to === square ? "to" : null;
  const target = marks.targets?.[square] || null;
  const selected = marks.selected === square;
  const states = [
    selected ? t("page.square.selected") : null,
    target ? t(`page.square.target.${target}`) : null,
    last ? t(`page.square.last.${last}`) : null,
  ].filter(Boolean);
  const content = here ? pieceOf(here.seat, here.piece) : t("page.square.empty");
  const attrs = {
    class: "square", "data-square": square, "data-shade": (file + rank) % 2 ? "dark" : "light",
    "data-piece": here?.piece || null, "data-owner": here?.seat || null,
    "data-last": last, "data-target": target, "data-selected": selected ? "yes" : null,
    "data-movable": marks.movable?.has(square) ? "yes" : null, "data-home": marks.home?.has(square) ? "yes" : null,
    "aria-label": t(states.length ? "page.square.states" : "page.square", { square, content, states: states.join("; ") }),
  };
  const inside = here ? pieceNode(here.seat, here.piece) : null;
  if (!marks.onSquare) return el("div", { ...attrs, role: "img" }, inside);
  const draggable = !!marks.drag?.from(square);
  return el("button", {
    ...attrs, type: "button", "data-focus": `sq-${square}`, "data-drag": draggable ? "yes" : null,
    tabindex: square === marks.at ? "0" : "-1",
    onclick: () => { if (!justDropped()) marks.onSquare(square); },
    onpointerdown: draggable ? (event) => press(event, square, marks.drag.handlers) : null,
  }, inside);
}

// The arrow keys move the focus between the squares as they are drawn.
function arrows(event, ranks, files) {
  const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
  const from = event.target.closest?.("button[data-square]");
  if (!step || !from || event.altKey || event.ctrlKey || event.metaKey) return;
  const row = ranks.indexOf(Number(from.dataset.square.slice(1))) + step[0];
  const col = files.indexOf(from.dataset.square[0]) + step[1];
  event.preventDefault();
  if (row < 0 || row >= ranks.length || col < 0 || col >= files.length) return;
  const next = event.currentTarget.querySelector(`[data-square="${files[col]}${ranks[row]}"]`);
  if (!next) return;
  from.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}

function gridNode(view, ctx, marks) {
  const round = turned(ctx);
  const ranks = round ? RANKS : [...RANKS].reverse();
  const files = round ? [...FILES].reverse() : FILES;
  const shown = piecesShown(view, ctx, marks);
  const cells = [];
  ranks.forEach((rank, row) => {
    if (row === 4) cells.push(tipped(el("div", { class: "river" }, el("span", {}, t("page.river"))), t("page.tip.river")));
    cells.push(el("span", { class: "rank-label", "aria-hidden": "true" }, String(rank)));
    for (const file of files) cells.push(squareNode(`${file}${rank}`, shown[`${file}${rank}`], view, marks));
  });
  cells.push(el("span", { class: "corner", "aria-hidden": "true" }),
    files.map((file) => el("span", { class: "file-label", "aria-hidden": "true" }, file)));
  return el("div", {
    id: "board", class: "cmd-board", role: "group", "aria-label": t("page.board.label", { seat: label(round ? seatIds()[1] : seatIds()[0]) }),
    "data-bottom": round ? seatIds()[1] : seatIds()[0], "data-mode": marks.mode || "",
    onkeydown: (event) => arrows(event, ranks, files),
  }, cells);
}

function statusNode(view, ctx) {
  const bits = [];
  if (view.phase === "arrange") {
    bits.push(el("span", { class: "phase" }, t("page.status.arrange")));
    for (const seat of seatIds()) {
      const done = !!view.arranged?.[seat];
      bits.push(el("span", { class: "arranged", "data-seat": seat, "data-arranged": done ? "yes" : "no" },
        t(done ? "page.status.arranged" : "page.status.arranging", { seat: label(seat) })));
    }
  } else {
    if (view.to_move) {
      bits.push(el("span", { class: "to-move", "data-seat": view.to_move },
        t(view.to_move === ctx.me ? "page.status.your_move" : "page.status.to_move", { seat: label(view.to_move) })));
    } else if (view.phase === "over") bits.push(el("span", { class: "over" }, t("page.status.over")));
    bits.push(tipped(el("span", { class: "moves", "data-moves": String(view.moves_made) }, t("page.status.moves", { n: view.moves_made })),
      t("page.tip.moves")));
    bits.push(tipped(el("span", { class: "quiet", "data-quiet": String(view.quiet) }, t("page.status.quiet", { n: view.quiet, limit: view.quiet_limit })),
      t("page.tip.quiet", { limit: view.quiet_limit, each: view.quiet_limit / 2 })));
    if (view.repeated > 1) {
      bits.push(tipped(el("span", { class: "repeated", "data-repeated": String(view.repeated) }, t("page.status.repeated", { n: view.repeated })),
        t("page.tip.repeated")));
    }
  }
  return el("div", { id: "status", class: "cmd-status", role: "group", "aria-label": t("page.status.label") }, bits);
}

// The last move in words (its squares are marked on the board).
function lastNode(view) {
  const last = view.last;
  if (!last) return view.phase === "play" ? el("p", { id: "last-move", class: "last-move muted" }, t("page.last.none")) : null;
  const values = { piece: pieceOf(last.seat, last.piece), start: last.from, to: last.to,
    captured: last.captured ? pieceOf(otherSeat(last.seat), last.captured) : "" };
  return el("p", { id: "last-move", class: "last-move", "data-from": last.from, "data-to": last.to, "data-captured": last.captured || "" },
    t(last.captured ? "page.last.capture" : "page.last.move", values));
}

// While the arrangements are secret: what the seat waits for, or that they are secret.
function arrangingNode(view, ctx, marks) {
  if (view.phase !== "arrange" || marks.mode === "arrange") return null;
  if (ctx.me && view.mine) {
    return el("p", { id: "arrange-waiting", class: "waiting", "data-seat": otherSeat(ctx.me) },
      t("page.arrange.waiting", { seat: label(otherSeat(ctx.me)) }));
  }
  if (view.arrangements) return null; // a replay's everything-view shows both
  return el("p", { id: "arrange-secret", class: "waiting" }, t("page.arrange.secret"));
}

// What each kind of piece does, in its tooltip: the options the game was made with decide
// the captures of the Commander and the Soldier and where the Commander wins.
export function pieceTip(piece, options = {}) {
  const dagger = options.soldier_takes_commander !== false;
  if (piece === "C") {
    return [t("page.tip.C"), t(dagger ? "page.tip.C.dagger" : "page.tip.C.rank"),
      t(options.commander_goal === "enemy_side" ? "page.tip.C.goal.enemy_side" : "page.tip.C.goal.back_rank")].join(" ");
  }
  if (piece === "O") return t("page.tip.O");
  return [t("page.tip.S"), t(dagger ? "page.tip.S.dagger" : "page.tip.S.rank")].join(" ");
}

function legendNode(view) {
  return el("p", { id: "piece-legend", class: "legend muted" },
    KINDS.map((piece) => tipped(el("span", { class: "legend-item", "data-legend": piece }, pieceNode(null, piece), " ", pieceName(piece)),
      pieceTip(piece, view.options))));
}

// The position in the game's notation, to copy.
function positionNode(view) {
  if (!view.position) return null;
  const input = el("input", { id: "position-text", type: "text", readonly: true, value: view.position, spellcheck: "false",
    onfocus: (event) => event.target.select() });
  const said = el("span", { class: "muted", role: "status" });
  return el("p", { id: "position", class: "position" },
    tipped(el("label", { for: "position-text" }, t("page.position.label")), t("page.tip.position")), " ", input, " ",
    el("button", { type: "button", id: "copy-position", class: "small", onclick: () => copyText(input, said) }, t("page.position.copy")), " ", said);
}

export function renderBoard(node, view, ctx, marks = {}) {
  if (!view) {
    clear(node, el("p", { class: "muted" }, ctx.viewer || ""));
    return;
  }
  clear(node, statusNode(view, ctx), lastNode(view), arrangingNode(view, ctx, marks),
    el("div", { class: "board-wrap" }, gridNode(view, ctx, marks)), legendNode(view), positionNode(view));
}

// "ai:easy" -> "easy" (null: a person)
const aiLevel = (seatKind) => (String(seatKind || "").startsWith("ai:") ? String(seatKind).slice(3) : null);

function seatTitle(seat, ctx) {
  const level = aiLevel(ctx.game?.seats?.[seat]?.kind);
  const levelName = level && ctx.levelName ? ctx.levelName(level) : level;
  if (seat === ctx.me) return t(level ? "page.seat.you.ai" : "page.seat.you", { seat: label(seat), level: levelName });
  return level ? t("page.seat.ai", { seat: label(seat), level: levelName }) : label(seat);
}

// The person in a seat, linked to their page (none for the computer or an open seat).
function personLink(seat) {
  if (!seat?.name || !seat.player) return null;
  return el("p", { class: "person" }, el("a", { href: `/p/${encodeURIComponent(seat.player)}` }, seat.name));
}

export function renderPlayers(node, view, ctx) {
  if (!view) return clear(node);
  clear(node, seatIds().map((seat) => {
    const left = view.left?.[seat];
    const total = left ? KINDS.reduce((n, piece) => n + (left[piece] || 0), 0) : null;
    const done = !!view.arranged?.[seat];
    return el("section", { class: "player", "data-seat": seat },
      el("h2", { class: "player-name" }, seatTitle(seat, ctx)),
      personLink(ctx.game?.seats?.[seat]),
      view.to_move === seat ? el("p", { class: "turn-flag" }, t(seat === ctx.me ? "page.player.your_move" : "page.player.to_move")) : null,
      view.phase === "arrange" ? el("p", { class: "arranged", "data-arranged": done ? "yes" : "no" }, t(done ? "page.player.arranged" : "page.player.arranging")) : null,
      left ? el("p", { class: "left", "data-left": String(total) }, t("page.player.left", { n: total }), " ",
        KINDS.map((piece) => el("span", { class: "left-kind", "data-left-piece": piece, "data-count": String(left[piece]), role: "img",
          "aria-label": t(`page.left.${piece}`, { n: left[piece] }) }, pieceNode(seat, piece), `×${left[piece]}`))) : null);
  }));
}

// The line under how the game ended: after how many moves, and the pieces left.
export function outcomeNote(outcome, ctx) {
  const view = ctx?.view;
  if (!view?.left) return null;
  const left = seatIds().map((seat) => t("page.outcome.left", { seat: label(seat), n: KINDS.reduce((n, piece) => n + (view.left[seat][piece] || 0), 0) }));
  return t("page.outcome.note", { moves: view.moves_made, left: left.join(", ") });
}

// The replay's everything-view: the game's own (knowledge.full_view), which adds both
// arrangements while they are secret.
export function fullView(spectator, full) {
  return full && full.phase ? full : spectator;
}
