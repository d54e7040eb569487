// The two decisions a seat answers, from `view.decision`: a move (click one of your pieces,
// then one of the spaces marked for it; or drag it there; or keys) and the secret
// arrangement (swap pieces on your side by two clicks or a drag, then confirm). What is
// being chosen lives in ctx.ui (redrawn by ctx.rerender); `marks` tells board.js which
// squares take clicks and what to mark on them. ctx: see README.md.
import { clear, el } from "/static/api.js";
import { pieceNode } from "./board.js";
import { STANDARD, label, otherSeat, pieceName, pieceOf, t } from "./names.js";

const title = (text) => el("h2", { id: "decision-title" }, text);
const button = (id, text, onclick, extra = {}) => el("button", { type: "button", id, onclick, ...extra }, text);
const decision = (ctx) => (ctx.deciding ? ctx.view?.decision || null : null);

// Why a click did nothing ("that piece has no move", "not your side") is said in the
// decision's help line, beside the board where the player is looking (on a phone the
// page's error line is scrolled out of sight), until the next click.
function note(ctx, st, text) {
  st.note = text;
  ctx.say("");
}
const helpLine = (id, st, text) => el("p", { id, "aria-live": "polite", "data-note": st.note ? "yes" : null }, st.note || text);

// ---- a move -------------------------------------------------------------------------------
// The piece picked (`from`) and the square last acted on (`at`, the board's tab stop), for
// this position only.
function moveChoice(ctx) {
  const key = ctx.view.position;
  if (!ctx.ui.move || ctx.ui.move.key !== key) ctx.ui.move = { key, from: null, at: null, note: "" };
  return ctx.ui.move;
}

const movesFrom = (ctx, square) => ctx.view.decision.moves.filter(([from]) => from === square).map(([, to]) => to);
const kindOfMove = (ctx, to) => (ctx.view.pieces[to] ? "capture" : "move");

function moveTo(ctx, from, to) {
  const st = moveChoice(ctx);
  st.from = null;
  st.at = to;
  note(ctx, st, "");
  ctx.send({ type: "move", from, to });
}

function pickPiece(ctx, square) {
  const st = moveChoice(ctx);
  st.at = square;
  st.from = st.from === square ? null : square;
  note(ctx, st, "");
  ctx.rerender(`sq-${square}`);
}

function clickMove(ctx, square) {
  const st = moveChoice(ctx);
  const here = ctx.view.pieces[square];
  if (st.from && movesFrom(ctx, st.from).includes(square)) return moveTo(ctx, st.from, square);
  if (here?.seat === ctx.me && movesFrom(ctx, square).length) return pickPiece(ctx, square);
  st.at = square;
  if (here?.seat === ctx.me) note(ctx, st, t("page.move.stuck", { piece: pieceName(here.piece), square }));
  else if (st.from) note(ctx, st, t("page.move.not_there", { piece: pieceName(ctx.view.pieces[st.from].piece), start: st.from, to: square }));
  else note(ctx, st, t("page.move.pick_first"));
  st.from = null;
  ctx.rerender(`sq-${square}`);
}

// Let go of a dragged piece: on one of its spaces it moves; back on its own square it stays
// picked; anywhere else the page says why not.
function dropMove(ctx, from, to) {
  if (to && movesFrom(ctx, from).includes(to)) return moveTo(ctx, from, to);
  const st = moveChoice(ctx);
  st.from = from;
  st.at = from;
  note(ctx, st, to && to !== from ? t("page.move.not_there", { piece: pieceName(ctx.view.pieces[from].piece), start: from, to }) : "");
  ctx.rerender(`sq-${from}`);
}

function moveMarks(ctx) {
  const st = moveChoice(ctx);
  const moves = ctx.view.decision.moves;
  const movable = new Set(moves.map(([from]) => from));
  const targets = {};
  if (st.from) for (const to of movesFrom(ctx, st.from)) targets[to] = kindOfMove(ctx, to);
  const handlers = {
    ghost: (square) => pieceNode(ctx.me, ctx.view.pieces[square]?.piece),
    start: (square) => { const s = moveChoice(ctx); s.from = square; s.at = square; s.note = ""; ctx.rerender(); },
    drop: (from, to) => dropMove(ctx, from, to),
  };
  return {
    mode: "move", movable, targets, selected: st.from,
    at: st.at || st.from || moves[0]?.[0] || null,
    onSquare: (square) => clickMove(ctx, square),
    drag: { from: (square) => movable.has(square), handlers },
  };
}

function renderMove(node, ctx) {
  const st = moveChoice(ctx);
  const parts = [title(t("page.move.title"))];
  if (st.from) {
    const piece = ctx.view.pieces[st.from];
    parts.push(helpLine("move-help", st, t("page.move.selected", { piece: pieceOf(piece.seat, piece.piece), square: st.from })),
      el("p", { id: "move-choices", class: "buttons", role: "group", "aria-label": t("page.move.choices") },
        movesFrom(ctx, st.from).map((to) => {
          const there = ctx.view.pieces[to];
          return button(null, there ? t("page.move.button.capture", { start: st.from, to, captured: pieceOf(there.seat, there.piece) })
            : t("page.move.button", { start: st.from, to }), () => moveTo(ctx, st.from, to), { "data-move": `${st.from}-${to}`, "data-capture": there ? "yes" : null });
        }),
        button("move-cancel", t("page.move.cancel"), () => { st.from = null; note(ctx, st, ""); ctx.rerender(`sq-${st.at}`); })));
  } else {
    parts.push(helpLine("move-help", st, t("page.move.how")));
  }
  parts.push(el("p", { class: "muted small" }, t("page.move.keys")));
  clear(node, parts);
}

// ---- the secret arrangement -----------------------------------------------------------------
// The sixteen pieces in the order an arrangement is written (decision.squares: back rank
// first, files a to d), and the one picked to swap.
function arrangement(ctx) {
  const key = ctx.view.decision.squares.join(" ");
  if (!ctx.ui.arrange || ctx.ui.arrange.key !== key) ctx.ui.arrange = { key, pieces: STANDARD, picked: null, at: null, note: "" };
  return ctx.ui.arrange;
}

function swap(st, i, j) {
  const pieces = [...st.pieces];
  [pieces[i], pieces[j]] = [pieces[j], pieces[i]];
  st.pieces = pieces.join("");
}

function clickArrange(ctx, square) {
  const st = arrangement(ctx);
  const i = ctx.view.decision.squares.indexOf(square);
  st.at = square;
  if (i < 0) {
    note(ctx, st, t("page.arrange.own_side"));
  } else if (st.picked === null) {
    st.picked = i;
    note(ctx, st, "");
  } else {
    if (st.picked !== i) swap(st, st.picked, i);
    st.picked = null;
    note(ctx, st, "");
  }
  ctx.rerender(`sq-${square}`);
}

function dropArrange(ctx, from, to) {
  const st = arrangement(ctx);
  const squares = ctx.view.decision.squares;
  const i = squares.indexOf(from);
  const j = to ? squares.indexOf(to) : -1;
  st.picked = null;
  st.at = from;
  if (j < 0) note(ctx, st, t("page.arrange.own_side"));
  else {
    if (i !== j) swap(st, i, j);
    st.at = to;
    note(ctx, st, "");
  }
  ctx.rerender(`sq-${st.at}`);
}

function arrangeMarks(ctx) {
  const st = arrangement(ctx);
  const squares = ctx.view.decision.squares;
  const pieces = {};
  squares.forEach((square, i) => { pieces[square] = { seat: ctx.me, piece: st.pieces[i] }; });
  const home = new Set(squares);
  const targets = {};
  if (st.picked !== null) {
    squares.forEach((square, i) => { if (st.pieces[i] !== st.pieces[st.picked]) targets[square] = "swap"; });
  }
  const handlers = {
    ghost: (square) => pieceNode(ctx.me, pieces[square]?.piece),
    start: (square) => { const s = arrangement(ctx); s.picked = squares.indexOf(square); s.at = square; s.note = ""; ctx.rerender(); },
    drop: (from, to) => dropArrange(ctx, from, to),
  };
  return {
    mode: "arrange", pieces, home, targets,
    selected: st.picked === null ? null : squares[st.picked],
    at: st.at || squares[0],
    onSquare: (square) => clickArrange(ctx, square),
    drag: { from: (square) => home.has(square), handlers },
  };
}

function renderArrange(node, ctx) {
  const st = arrangement(ctx);
  const d = ctx.view.decision;
  const counts = d.counts || {};
  const picked = st.picked === null ? null : d.squares[st.picked];
  clear(node, title(t("page.arrange.title")),
    el("p", {}, t("page.arrange.how")),
    el("p", { id: "arrange-counts" }, t("page.arrange.counts", { c: counts.C, o: counts.O, s: counts.S })),
    helpLine("arrange-help", st, picked
      ? t("page.arrange.picked", { piece: pieceName(st.pieces[st.picked]), square: picked })
      : t("page.arrange.pick")),
    el("p", { id: "arrange-written", class: "muted", "data-pieces": st.pieces },
      t("page.arrange.written", { pieces: st.pieces })),
    el("p", { class: "buttons" },
      button("arrange-confirm", t("page.arrange.confirm"), () => ctx.send({ type: "arrange", pieces: st.pieces }), { class: "primary" }),
      button("arrange-standard", t("page.arrange.standard"), () => { st.pieces = STANDARD; st.picked = null; note(ctx, st, ""); ctx.rerender("arrange-standard"); },
        { "data-focus": "arrange-standard" }),
      button("arrange-shuffle", t("page.arrange.shuffle"), () => { shuffle(st); note(ctx, st, ""); ctx.rerender("arrange-shuffle"); },
        { "data-focus": "arrange-shuffle" })),
    el("p", { class: "muted small" }, t("page.arrange.secret.you", { seat: label(otherSeat(ctx.me)) })));
}

// A random arrangement (the counts kept), for a player who does not mind where pieces go.
function shuffle(st) {
  const pieces = [...st.pieces];
  for (let i = pieces.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [pieces[i], pieces[j]] = [pieces[j], pieces[i]];
  }
  st.pieces = pieces.join("");
  st.picked = null;
}

// ---- the interface ------------------------------------------------------------------------
// What the board marks and takes clicks on while the seat decides ({} otherwise).
export function boardMarks(ctx) {
  const d = decision(ctx);
  if (d?.kind === "move") return moveMarks(ctx);
  if (d?.kind === "arrange") return arrangeMarks(ctx);
  return {};
}

export function renderDecision(node, ctx) {
  const d = decision(ctx);
  if (d?.kind === "move") renderMove(node, ctx);
  else if (d?.kind === "arrange") renderArrange(node, ctx);
  else return false;
  return true;
}

// Escape puts back the piece picked (a move) or the piece picked to swap.
export function onKey(event, ctx) {
  const d = decision(ctx);
  if (event.key !== "Escape" || !d) return false;
  const st = d.kind === "move" ? moveChoice(ctx) : arrangement(ctx);
  const picked = d.kind === "move" ? st.from : st.picked;
  if (picked === null) return false;
  if (d.kind === "move") st.from = null;
  else st.picked = null;
  note(ctx, st, "");
  ctx.rerender(st.at ? `sq-${st.at}` : undefined);
  return true;
}
