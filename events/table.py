"""Who may act for a seat: the rules of the table, the same for every game, in one place
(the write path refuses with them, the audit checks the stream against them).

A seat is played by its player, or by the computer: from the start (an ``ai:<level>``
seat), after its player handed it over (``seat_handed_to_ai``) until they take it back
(``seat_taken_back``: an explicit, recorded action), or for the one decision it owed
when its time ran out (``clock_expired`` with an AI action: the stand-in). While the
computer plays a seat, its player gives no command and answers no draw: the decision is
not theirs to make (taking a handed seat back is). The computer acts only for a seat it
plays. Every ``command_given`` says who gave it (``by``: ``player`` or ``ai:<level>``);
games recorded before this rule say nothing, and are not checked for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PLAYER = "player"
AI_PREFIX = "ai:"


def kind_of(game: Any, seat: str) -> str:
    """How ``seat`` is played now: "human", or "ai:<level>" (created, handed, standing in)."""
    return game.seats.get(seat, "human")


def played_by(game: Any, seat: str) -> str:
    """Who plays ``seat`` now: ``player`` or ``ai:<level>``."""
    kind = kind_of(game, seat)
    return kind if kind.startswith(AI_PREFIX) else PLAYER


def standing_in(game: Any, seat: str) -> bool:
    return seat in game.meta.get("standing_in", {})


def refusal(game: Any, seat: str, by: str) -> str | None:
    """Why ``by`` (``player``, or ``ai:<level>``) may not act for ``seat`` now, or None."""
    kind = kind_of(game, seat)
    if by == PLAYER:
        if not kind.startswith(AI_PREFIX):
            return None
        if standing_in(game, seat):
            return (f"your time ran out on this decision, so the computer is making it for "
                    f"the {seat} seat; you play again from the next one")  # fmt: skip
        if game.created_seats.get(seat, "human") == "human":
            return (f"you handed the {seat} seat to the computer: take it back first to "
                    "play it yourself")  # fmt: skip
        return f"the {seat} seat is the computer's ({kind}) in this game"
    if not by.startswith(AI_PREFIX) or not kind.startswith(AI_PREFIX):
        return f"the computer does not play the {seat} seat now: its player does"
    return None


def given_by(payload: Mapping[str, Any]) -> str | None:
    """Who gave a recorded command (None: a game recorded before it was said)."""
    return payload.get("by")
