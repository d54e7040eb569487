"""The **two games** victory rule (§13): the same scenario twice, each player Lianheng once;
the player whose Lianheng game ended with more Qin RP wins, equal is a draw, and a game
ended by Qin's elimination counts 0 RP (R).

A pure function over the two games' outcomes (``RULES.outcome``: ``winner``, ``reason``,
``qin_rp``, ``target``, ``sides`` seat -> side); playing the two games as one match is the
service's (the next issue). Players are named by their seat in the first game;
``second_seat`` maps each of them to their seat in the second game (default: the same seat,
the second game created with the other ``first_side``).

Our ruling where the rules are silent: a game ended by resignation decides the match — the
player who resigned loses it (the second game need not be played: ``second`` may be None).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LIANHENG = "lianheng"
ELIMINATED = "qin_eliminated"
RESIGNED = "resignation"


def lianheng_rp(outcome: Mapping[str, Any]) -> int:
    """The Qin RP a Lianheng game counts for: its RP at the end, 0 if Qin was eliminated."""
    return 0 if outcome["reason"] == ELIMINATED else int(outcome["qin_rp"])


def two_game_result(
    first: Mapping[str, Any],
    second: Mapping[str, Any] | None,
    second_seat: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The match's result: ``winner`` (a seat of the first game, or None for a draw),
    ``reason`` (``more_rp``, ``equal_rp`` or ``resignation``) and ``rp`` (each player's
    Lianheng result, by first-game seat; absent after a resignation). ``ValueError`` when
    the outcomes are not two games of one scenario with each player Lianheng once."""
    seats = tuple(first["sides"])
    if len(seats) != 2:
        raise ValueError("the two games rule is for the two players of a finished game")
    if first["reason"] == RESIGNED:
        return _resigned(first, seats)
    if second is None:
        raise ValueError("the second game's outcome is needed (the first had no resignation)")
    mapped = dict(second_seat) if second_seat is not None else {s: s for s in seats}
    if set(mapped) != set(seats) or set(mapped.values()) != set(second["sides"]):
        raise ValueError("the second game's seats must be the first game's two players")
    if second["target"] != first["target"]:
        raise ValueError("the two games must be of the same scenario (the same Qin target)")
    if second["reason"] == RESIGNED:
        back = {s2: s1 for s1, s2 in mapped.items()}
        return _resigned({**second, "winner": back[second["winner"]]}, seats)
    lianheng = {}
    for seat in seats:
        in_first = first["sides"][seat] == LIANHENG
        in_second = second["sides"][mapped[seat]] == LIANHENG
        if in_first == in_second:
            raise ValueError("each player plays Lianheng in exactly one of the two games")
        lianheng[seat] = lianheng_rp(first if in_first else second)
    a, b = seats
    if lianheng[a] == lianheng[b]:
        return {"winner": None, "reason": "equal_rp", "rp": lianheng}
    winner = a if lianheng[a] > lianheng[b] else b
    return {"winner": winner, "reason": "more_rp", "rp": lianheng}


def _resigned(outcome: Mapping[str, Any], seats: tuple[str, ...]) -> dict[str, Any]:
    """A resignation ends the match: the other player (the game's winner) wins it."""
    if outcome["winner"] not in seats:
        raise ValueError("a game ended by resignation names its winner")
    return {"winner": outcome["winner"], "reason": "resignation"}
