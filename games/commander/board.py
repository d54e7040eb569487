"""The board of Commander: 4 files (a–d) by 8 ranks (1–8), the river between ranks 4 and 5.

A square is a number, ``rank * 4 + file`` (a1 = 0, d1 = 3, a2 = 4 … d8 = 31); a board is a
string of 32 characters in that order: ``.`` empty, ``C`` ``O`` ``S`` Blue's Commander,
Officer and Soldier, ``c`` ``o`` ``s`` Red's. Every square's neighbours and lines are worked
out once here, so finding moves is reading tables.
"""

from __future__ import annotations

FILES = "abcd"
RANKS = 8
SQUARES = 32
SEATS = ("blue", "red")
PIECES = "COS"  # Commander, Officer, Soldier: upper case Blue's, lower case Red's
RANK_OF = {"C": 3, "O": 2, "S": 1}  # who captures whom (rules.may_take)
EMPTY = "."
COUNTS = {"C": 1, "O": 5, "S": 10}  # each side's pieces
NAMES = tuple(f"{FILES[sq % 4]}{sq // 4 + 1}" for sq in range(SQUARES))
SQUARE = {name: sq for sq, name in enumerate(NAMES)}


def side_of(sq: int) -> int:
    """0: Blue's side (ranks 1–4), 1: Red's (ranks 5–8)."""
    return sq // 16


def _step(sq: int, df: int, dr: int) -> int | None:
    f, r = sq % 4 + df, sq // 4 + dr
    return r * 4 + f if 0 <= f < 4 and 0 <= r < RANKS else None


ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))
ALL_WAYS = (*ORTHOGONAL, (1, 1), (1, -1), (-1, 1), (-1, -1))

# A Soldier's steps, a Commander's steps, an Officer's lines: for each square, the squares
# in reach in order along each line. An Officer's line does not cross the river: a square
# on the other side is reached only by a one-space step (so a line that starts by crossing
# stops there).
STEPS = tuple(tuple(s for d in ORTHOGONAL if (s := _step(sq, *d)) is not None)
              for sq in range(SQUARES))  # fmt: skip
KING_STEPS = tuple(tuple(s for d in ALL_WAYS if (s := _step(sq, *d)) is not None)
                   for sq in range(SQUARES))  # fmt: skip


def _line(sq: int, df: int, dr: int) -> tuple[int, ...]:
    out, at = [], sq
    while (at := _step(at, df, dr)) is not None:
        if out and (side_of(at) != side_of(sq) or side_of(out[0]) != side_of(sq)):
            break  # more than one space, and across the river
        out.append(at)
    return tuple(out)


LINES = tuple(tuple(line for d in ORTHOGONAL if (line := _line(sq, *d))) for sq in range(SQUARES))

# Each seat's side, back rank first, files a to d: the order of an arrangement.
HOME = (
    tuple(range(16)),  # Blue: a1 … d1, a2 … d4
    tuple(r * 4 + f for r in range(7, 3, -1) for f in range(4)),  # Red: a8 … d8, a7 … d5
)
BACK_RANK = (frozenset(range(28, 32)), frozenset(range(4)))  # the enemy's back rank, by seat
ENEMY_SIDE = (frozenset(range(16, 32)), frozenset(range(16)))
GOALS = {"back_rank": BACK_RANK, "enemy_side": ENEMY_SIDE}  # the commander_goal option
STANDARD = "OOCOSOSOSSSSSSSS"  # the standard arrangement, back rank first (rules, "Setup")


def goal_of(goal: str, seat: int) -> frozenset[int]:
    """Where ``seat``'s Commander wins on arriving (the ``commander_goal`` option)."""
    return GOALS[goal][seat]


def arrange(pieces: tuple[str, str]) -> str:
    """The board of two arrangements (each seat's pieces in ``HOME`` order, upper case)."""
    board = [EMPTY] * SQUARES
    for seat, text in enumerate(pieces):
        for sq, piece in zip(HOME[seat], text, strict=True):
            board[sq] = piece if seat == 0 else piece.lower()
    return "".join(board)


def played(board: str, start: int, to: int) -> str:
    """The board after a move from ``start`` to ``to`` (a capture or not)."""
    piece = board[start]
    if start < to:
        return board[:start] + EMPTY + board[start + 1 : to] + piece + board[to + 1 :]
    return board[:to] + piece + board[to + 1 : start] + EMPTY + board[start + 1 :]
