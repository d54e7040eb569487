"""Positions and moves for the Commander tests: a state from a position in the game's own
notation (``games.commander.notation``), and moves decided and folded as the service
would (``decide``, then ``evolve`` of each event)."""

from __future__ import annotations

import random
from typing import Any

from games.commander import RULES, notation
from games.commander.rules import State

OPTIONS = {"setup": "standard", "soldier_takes_commander": True, "commander_goal": "back_rank"}


def position(text: str, earlier: tuple[str, ...] = (), **options: Any) -> State:
    """The state of a position (``parse``), in play; ``earlier``: the positions since the
    last capture before it (``State.seen``, who is to move then the board), oldest first;
    options as ``rules.OPTIONS`` names them."""
    board, turn, _, plies = notation.parse(text)
    chosen = OPTIONS | options
    return State(phase="play", setup=chosen["setup"], takes=chosen["soldier_takes_commander"],
                 goal=chosen["commander_goal"], board=board, turn=turn, plies=plies,
                 seen=(*earlier, "br"[turn] + board))  # fmt: skip


def move(state: State, start: str, to: str) -> tuple[State, list[dict]]:
    """The seat to move moves ``start`` to ``to``: the state after the events, and them."""
    seat = RULES.seats[state.turn]
    events = RULES.decide(state, seat, {"type": "move", "from": start, "to": to}, random.Random(0))
    for event in events:
        state = RULES.evolve(state, event)
    return state, events


def moves_of(state: State, seat: str | None = None) -> set[tuple[str, str]]:
    """The legal moves of the seat (default: the one to move), as (from, to) names."""
    seat = seat or RULES.seats[state.turn]
    return {(c["from"], c["to"]) for c in RULES.legal(state, seat)}
