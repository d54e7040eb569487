"""What a seat (or a spectator, ``None``) may see: ``view`` of a state, ``redact`` of an
event. The one secret is an arrangement before both are made: each seat sees its own;
from the reveal on everything is on the board."""

from __future__ import annotations

from typing import Any

from games.commander import notation
from games.commander.board import COUNTS, EMPTY, HOME, NAMES, SEATS
from games.commander.rules import OWN, QUIET_LIMIT, State, all_moves, pending


def view(state: State, seat: str | None) -> dict[str, Any]:
    """``phase`` (arrange, play, over); ``pieces``: square -> {seat, piece}; ``to_move``;
    ``last``: the last move; ``left``: each seat's pieces on the board by kind;
    ``arranged``: which seats have arranged (while arranging), ``mine``: this seat's own
    arrangement once made; ``seen``: every
    position since the last capture (player to move and board, ``rules.State``);
    ``decision``: what this seat owes (the moves it may make, or
    the arrangement to build); ``position``: the notation (``notation.py``)."""
    on_board = state.phase in ("play", "over") and state.board != EMPTY * 32
    pieces = {}
    left = {s: dict.fromkeys(COUNTS, 0) for s in SEATS}
    if on_board:
        for sq, ch in enumerate(state.board):
            if ch != EMPTY:
                who = SEATS[0] if ch in OWN[0] else SEATS[1]
                pieces[NAMES[sq]] = {"seat": who, "piece": ch.upper()}
                left[who][ch.upper()] += 1
    me = SEATS.index(seat) if seat in SEATS else None
    due = pending(state).get(seat) if seat is not None else None
    decision: dict[str, Any] | None = None
    if due == "move":
        moves = all_moves(state.board, state.turn, state.takes)
        decision = {"kind": "move", "moves": [[NAMES[a], NAMES[b]] for a, b in moves]}
    elif due == "arrange":
        decision = {"kind": "arrange", "squares": [NAMES[sq] for sq in HOME[me]],
                    "counts": dict(COUNTS)}  # fmt: skip
    last = None
    if state.last is not None:
        who, piece, start, to, captured = state.last
        last = {"seat": SEATS[who], "piece": piece, "from": NAMES[start], "to": NAMES[to],
                "captured": captured}  # fmt: skip
    return {
        "phase": state.phase,
        "options": {
            "setup": state.setup,
            "soldier_takes_commander": state.takes,
            "commander_goal": state.goal,
        },
        "pieces": pieces,
        "to_move": SEATS[state.turn] if state.phase == "play" else None,
        "moves_made": state.plies,
        "quiet": state.quiet,
        "quiet_limit": QUIET_LIMIT,
        "repeated": state.seen.count(state.seen[-1]) if state.seen else 0,
        "seen": list(state.seen) if on_board else [],  # for the draws (knowledge.py)
        "last": last,
        "left": left if on_board else None,
        "arranged": {s: a is not None for s, a in zip(SEATS, state.arranged, strict=True)}
        if state.phase == "arrange"
        else None,
        "mine": state.arranged[me] if me is not None and state.phase == "arrange" else None,
        "decision": decision,
        "position": notation.of_state(state) if on_board else None,
        "result": None if state.result is None else dict(state.result),
    }


def redact(event: dict[str, Any], seat: str | None) -> dict[str, Any] | None:
    """An arrangement is its seat's until the reveal: another sees that it was made."""
    to = event.get("visible_to", "all")
    if to == "all" or (seat is not None and to == seat):
        return event
    return {"type": event["type"], "visible_to": to, "seat": event["seat"]}
