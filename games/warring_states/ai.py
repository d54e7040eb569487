"""What the generic search needs of Warring States, and its rule of thumb (the easy level)."""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any

from games.warring_states import board as B
from games.warring_states import moves
from games.warring_states import rules as R
from games.warring_states.knowledge import KNOWLEDGE


def _side(state: dict, seat: str) -> str | None:
    return R.side_of(state, seat)


class Parts:
    determinize = staticmethod(KNOWLEDGE.determinize)

    @staticmethod
    def searchable(view: dict[str, Any], seat: str) -> bool:
        return view.get("decision") is not None and view["phase"] == "play"

    @staticmethod
    def candidates(state: dict, seat: str, rng: Any, root: bool) -> list[dict]:
        return moves.legal(state, seat)

    @staticmethod
    def rollout(state: dict, seat: str, rng: Any) -> dict | None:
        return moves.random_command(state, seat, rng)

    @staticmethod
    def evaluate(state: dict, seat: str) -> float:
        """1 won, 0 lost; before the end, Qin's RP against its target, from ``seat``'s side."""
        side = _side(state, seat)
        if state["result"] is not None:
            return (
                0.5
                if state["result"]["winner"] is None
                else float(state["result"]["winner"] == seat)
            )
        lead = (B.qin_rp(state) - state["target"]) / max(1, state["target"])
        value = min(1.0, max(0.0, 0.5 + lead))
        return value if side == "lianheng" else 1.0 - value

    @staticmethod
    def horizon(root: dict, state: dict) -> bool:
        return state["result"] is not None or state["turn"] != root["turn"]

    @staticmethod
    def key(command: dict[str, Any]) -> Hashable:
        return json.dumps(command, sort_keys=True)

    @staticmethod
    def fallback(state: dict, seat: str, rng: Any) -> dict | None:
        options = moves.legal(state, seat)
        return options[0] if options else None

    @staticmethod
    def assessable(view: dict[str, Any], seat: str, command: dict[str, Any]) -> bool:
        return view.get("decision") is not None and command.get("type") in (
            "play",
            "operate",
            "choose",
        )

    @staticmethod
    def alternatives(state: dict, seat: str, played: dict[str, Any]) -> list[dict]:
        return moves.legal(state, seat)

    @staticmethod
    def heuristic(view: dict[str, Any], seat: str, rng: Any) -> dict | None:
        """Rule of thumb on a determinized position: bid the scenario's target; play a card
        for a military operation when one can attack, else reinforce the own side's largest
        threatened stack, else a diplomacy step in favour; in an operation prefer the
        largest stack entering a non-friendly area; choose the first option offered."""
        if view.get("decision") is None:
            return None
        state = KNOWLEDGE.determinize(view, seat, rng)
        due = R.pending(state).get(seat)
        if due == "bid":
            return {"type": "bid", "rp": view["target"]}
        side = _side(state, seat)
        options = moves.legal(state, seat)
        if not options:
            return None
        if due == "action":
            mil = [o for o in options if o.get("action") == "military"]
            if mil and rng.random() < 0.6:
                return mil[0]
            dip = [
                o for o in options if o.get("action") == "diplomacy" and o["dir"] == B.favour(side)
            ]
            if dip and rng.random() < 0.5:
                return dip[rng.randrange(len(dip))]
            rein = [
                o
                for o in options
                if o.get("action") == "reinforcement" and B.faction(state, o["force"]) == side
            ]
            if rein:
                return rein[rng.randrange(len(rein))]
            return options[rng.randrange(len(options))]
        if due == "operate":

            def score(o: dict) -> tuple:
                dest = o["path"][-1] if o["path"] else o["area"]
                content = state["areas"][dest]
                fight = B.hostile_to(state, content, side, o["force"]) or not o["path"]
                return (fight, o["armies"] + len(o["generals"]), B.D.rp[dest])

            return max(options, key=score)
        return options[0]


AI = Parts()
