"""The **two games** victory (§13) as a match the service plays (``games.base.MatchParts``):
the same scenario twice, the second game made when the first ends, the same players in
swapped seats and the first seat playing the side it played in the first game, so each
player is Lianheng once; the result is ``victory.two_game_result``.

Our rulings where the rules are silent (see ``victory.py``): a resignation ends the match,
lost by the player who resigned; so does a game ended off the board (a player's time ran
out: they lose the match; a draw agreed: the match is drawn).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import RulesError
from games.warring_states import victory

SIDES = {"lianheng": "Lianheng (Qin)", "alliance": "the Alliance"}
REASONS = {
    "more_rp": "more Qin RP as Lianheng",
    "equal_rp": "equal Qin RP as Lianheng",
    "resignation": "a resignation",
    "time": "a player's time ran out",
    "agreement": "a draw agreed",
}


class TwoGames:
    games_in_match = 2
    label = "Victory: two games (each player Lianheng once; more Qin RP wins)"

    @staticmethod
    def check(options: Mapping[str, Any]) -> None:
        if options.get("victory", "basic") != "basic":
            raise RulesError(
                "a two-game match decides the winner by the two games' Qin RP: "
                "play it with the basic victory rule, not the competitive bid"
            )

    @staticmethod
    def next_options(options: Mapping[str, Any], outcome: Mapping[str, Any]) -> dict[str, Any]:
        """The same options; the seats are swapped, so the first seat plays the side the
        first seat played before (and each player the other side)."""
        sides = outcome.get("sides") or {}
        first = sides.get("first", options.get("first_side", "lianheng"))
        return {**options, "first_side": first}

    @staticmethod
    def result(
        outcomes: list[Mapping[str, Any]], seats: list[Mapping[str, str]]
    ) -> dict[str, Any] | None:
        if not outcomes:
            return None
        for n, outcome in enumerate(outcomes):
            if "sides" not in outcome:  # ended off the board: that ends the match
                back = {here: first for first, here in seats[n].items()}
                winner = outcome.get("winner")
                return {"winner": back.get(winner), "reason": outcome.get("reason")}
        first = outcomes[0]
        if first["reason"] == victory.RESIGNED or len(outcomes) == 1:
            if first["reason"] != victory.RESIGNED:
                return None  # the second game decides
            return victory.two_game_result(first, None)
        return victory.two_game_result(first, outcomes[1], seats[1])

    @staticmethod
    def words(result: Mapping[str, Any], seat: str | None) -> str:
        winner = result.get("winner")
        why = REASONS.get(result.get("reason"), str(result.get("reason")))
        rp = result.get("rp")
        if rp:
            why += (
                " ("
                + " to ".join(
                    str(rp[s]) for s in sorted(rp, key=lambda s: s != (winner or seat or "first"))
                )
                + " RP)"
            )
        if winner is None:
            return f"The match is drawn: {why}."
        if seat is None:
            who = "the first player" if winner == "first" else "the second player"
            return f"The match goes to {who} of the first game: {why}."
        return f"You {'won' if winner == seat else 'lost'} the match: {why}."


MATCH = TwoGames()
