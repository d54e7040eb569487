"""What the generic search needs of Duel, and its rule of thumb (the easy level)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from toy_game import rules
from toy_game.knowledge import KNOWLEDGE


class Parts:
    determinize = staticmethod(KNOWLEDGE.determinize)

    @staticmethod
    def searchable(view: dict[str, Any], seat: str) -> bool:
        return view.get("decision") is not None

    @staticmethod
    def candidates(state: rules.State, seat: str, rng: Any, root: bool) -> list[dict]:
        return rules.legal(state, seat)

    @staticmethod
    def rollout(state: rules.State, seat: str, rng: Any) -> dict | None:
        return rules.random_command(state, seat, rng)

    @staticmethod
    def evaluate(state: rules.State, seat: str) -> float:
        if state.result is not None:
            winner = state.result["winner"]
            return 0.5 if winner is None else float(winner == seat)
        other = rules.SEATS[1 - rules.SEATS.index(seat)]
        lead = state.won.get(seat, 0) - state.won.get(other, 0)
        return min(1.0, max(0.0, 0.5 + lead / (2 * max(1, state.hand_size))))

    @staticmethod
    def horizon(root: rules.State, state: rules.State) -> bool:
        return state.result is not None

    @staticmethod
    def key(command: dict[str, Any]) -> Hashable:
        return (command.get("type"), command.get("card"))

    @staticmethod
    def fallback(state: rules.State, seat: str, rng: Any) -> dict | None:
        options = rules.legal(state, seat)
        return options[0] if options else None

    @staticmethod
    def assessable(view: dict[str, Any], seat: str, command: dict[str, Any]) -> bool:
        """Every play answers the decision owed (a resignation is not judged)."""
        return view.get("decision") is not None and command.get("type") == "play"

    @staticmethod
    def alternatives(state: rules.State, seat: str, played: dict[str, Any]) -> list[dict]:
        return rules.legal(state, seat)

    @staticmethod
    def heuristic(view: dict[str, Any], seat: str, rng: Any) -> dict | None:
        """Play the highest card (no lookahead)."""
        decision = view.get("decision")
        if not decision:
            return None
        return {"type": "play", "card": max(decision["cards"])}


AI = Parts()
