"""Commander's position notation, one line like chess's FEN, and the snapshot of a state.

A position: the ranks from 8 down to 1, separated by ``/``, each from file a to d: ``C``
``O`` ``S`` Blue's Commander, Officer and Soldier, ``c`` ``o`` ``s`` Red's, a digit for
that many empty spaces; then who is to move (``b`` or ``r``), the moves made since the last
capture (the no-capture draw comes at 80), and the number of the move (Blue's and Red's
moves together count one, from 1). The standard start::

    ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/OOCO b 0 1

``dump``/``load`` keep a whole state (server side: a secret arrangement included) as one
line of JSON around the position.
"""

from __future__ import annotations

import json
import re
from typing import Any

from games.base import RulesError
from games.commander.board import COUNTS, EMPTY, SQUARES
from games.commander.rules import QUIET_LIMIT, State
from games.i18n import said

_RANK = re.compile(r"^(?:[COScos]|[1-4])+$")


def position(board: str, turn: int, quiet: int, plies: int) -> str:
    ranks = []
    for r in range(7, -1, -1):
        text, gap = "", 0
        for ch in board[r * 4 : r * 4 + 4]:
            if ch == EMPTY:
                gap += 1
                continue
            text += (str(gap) if gap else "") + ch
            gap = 0
        ranks.append(text + (str(gap) if gap else ""))
    return f"{'/'.join(ranks)} {'br'[turn]} {quiet} {plies // 2 + 1}"


def of_state(state: State) -> str:
    """The position of a state (what is on the board, whoever arranged it)."""
    return position(state.board, state.turn, state.quiet, state.plies)


def parse(text: str) -> tuple[str, int, int, int]:
    """(board, turn, quiet, plies) of a position; a ``RulesError`` says what is wrong."""
    parts = text.split() if isinstance(text, str) else []
    if len(parts) != 4:
        raise RulesError(said("A position is the board, who moves (b or r), the moves since "
                              "a capture and the move number, with spaces between."))  # fmt: skip
    ranks, who, quiet, number = parts
    rows = ranks.split("/")
    board = ""
    for row in reversed(rows):
        if not _RANK.match(row):
            raise RulesError(said("{row!r} is not a rank of the board.", row=row[:12]))
        line = "".join(EMPTY * int(ch) if ch.isdigit() else ch for ch in row)
        if len(line) != 4:
            raise RulesError(said("{row!r} is not a rank of the board.", row=row[:12]))
        board += line
    if len(rows) != 8 or len(board) != SQUARES:
        raise RulesError(said("A position has 8 ranks."))
    for piece, most in COUNTS.items():
        if board.count(piece) > most or board.count(piece.lower()) > most:
            raise RulesError(said("A side has at most 1 Commander, 5 Officers and 10 "
                                  "Soldiers."))  # fmt: skip
    if who not in ("b", "r"):
        raise RulesError(said("The player to move is b (Blue) or r (Red)."))
    if not (quiet.isdigit() and number.isdigit() and int(number) >= 1):
        raise RulesError(said("The move counts are whole numbers."))
    if int(quiet) > QUIET_LIMIT:
        raise RulesError(said("A game ends after {limit} moves without a capture.",
                              limit=QUIET_LIMIT))  # fmt: skip
    turn = "br".index(who)
    return board, turn, int(quiet), (int(number) - 1) * 2 + turn


def dump(state: State) -> str:
    """The whole state as one line (a snapshot): server side only."""
    fields: dict[str, Any] = state._asdict()
    fields["position"] = of_state(state)
    del fields["board"], fields["turn"]
    fields["seen"] = list(state.seen)
    fields["arranged"] = list(state.arranged)
    fields["last"] = None if state.last is None else list(state.last)
    return json.dumps(fields, sort_keys=True, separators=(",", ":"))


def load(text: str) -> State:
    fields = json.loads(text)
    board, turn, _, plies = parse(fields.pop("position"))
    last = fields.pop("last")
    fields.update(board=board, turn=turn, plies=plies, seen=tuple(fields["seen"]),
                  arranged=tuple(fields["arranged"]),
                  last=None if last is None else tuple(last))  # fmt: skip
    return State(**fields)
