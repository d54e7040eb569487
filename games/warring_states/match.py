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
from games.i18n import said
from games.messages import Message, msg
from games.warring_states import victory

REASONS = ("more_rp", "equal_rp", "resignation", "time", "agreement")  # "match.why.<r>"


class TwoGames:
    games_in_match = 2
    label = "match.label"  # a message id (text.MESSAGES), as every sentence here

    @staticmethod
    def check(options: Mapping[str, Any]) -> None:
        if options.get("victory", "basic") != "basic":
            raise RulesError(
                said(
                    "a two-game match decides the winner by the two games' Qin RP: play it with "
                    "the basic victory rule, not the competitive bid"
                )
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
    def words(result: Mapping[str, Any], seat: str | None) -> Message:
        """The result for ``seat`` (a first-game seat; None: a spectator) as a message of
        ``text.MESSAGES``: who won and why, with the Lianheng RP of each player (the
        winner's, or the reader's, first)."""
        winner = result.get("winner")
        reason = result.get("reason")
        if reason in REASONS:
            why = msg(f"match.why.{reason}")
        else:
            why = msg("match.why.other", reason=str(reason))
        rp = result.get("rp")
        if rp:
            ahead = winner or seat or "first"
            order = sorted(rp, key=lambda s: s != ahead)
            why = msg("match.why.rp", why=why, rp=rp[order[0]], other=rp[order[-1]])
        if winner is None:
            return msg("match.drawn", why=why)
        if seat is None:
            return msg(f"match.won.{'first' if winner == 'first' else 'second'}", why=why)
        return msg("match.won.you" if winner == seat else "match.lost.you", why=why)


MATCH = TwoGames()
