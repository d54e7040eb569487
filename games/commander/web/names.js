// Commander's names and the board's geometry as the page needs them. Every word comes from
// the game's messages (games/commander/text.py and page.py, served as
// GET /api/kinds/commander/text): set once by index.js's init(kind).

let kind = null;

export function setKind(k) {
  kind = k;
}

export const t = (id, values) => kind.t(id, values);
export const has = (id) => !!kind && id in kind.messages;
export const label = (seat) => kind.label(seat);
export const seatIds = () => kind.seatIds;
export const otherSeat = (seat) => kind.others(seat)[0];

export const FILES = ["a", "b", "c", "d"];
export const RANKS = [1, 2, 3, 4, 5, 6, 7, 8];
export const KINDS = ["C", "O", "S"]; // Commander, Officer, Soldier
// the rules' standard arrangement (board.py STANDARD): back rank first, files a to d
export const STANDARD = "OOCOSOSOSSSSSSSS";

export const pieceName = (piece) => (has(`piece.${piece}`) ? t(`piece.${piece}`) : String(piece));
export const pieceLetter = (piece) => (has(`piece.${piece}.letter`) ? t(`piece.${piece}.letter`) : String(piece));
// "Blue Officer": a piece with its seat
export const pieceOf = (seat, piece) => t("page.piece", { seat: label(seat), piece: pieceName(piece) });

// The first seat's side is ranks 1–4, the second's ranks 5–8 (board.py): each seat's 16
// squares back rank first, files a to d, the order an arrangement is written in.
export function homeSquares(seat) {
  const ranks = seatIds().indexOf(seat) === 1 ? [8, 7, 6, 5] : [1, 2, 3, 4];
  return ranks.flatMap((rank) => FILES.map((file) => `${file}${rank}`));
}

// The seat whose side a square is on.
export const sideOf = (square) => seatIds()[Number(square.slice(1)) <= 4 ? 0 : 1];
