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
    # About 80 (Five Kingdoms) to 110 (Qin Dominates) decisions a game, nearly all searched,
    # each playout to the end of the turn: at the analysis' default strength about 2.9 CPU s
    # a decision, 230 s a game, over its 60 s goal; a fifth of the playouts brings it there.
    analysis_scale = 0.2

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
        """Rule of thumb on a determinized position (the easy level): bid the scenario's
        target; play the least useful card face down for a military operation when one
        promises a gain, else a diplomacy step that turns a kingdom, else a reinforcement
        of the own side where it is most at stake; in an operation take the move that gains
        most RP at the best odds; lose armies before generals; answer with a Break card
        whenever one is held."""
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
            return _action(state, side, options, rng)
        if due == "operate":
            return max(options, key=lambda o: _operation_value(state, side, o))
        if due == "respond":
            return options[-1]  # a card when one is held (the last), else let it pass
        if due == "pick":
            return options[rng.randrange(len(options))]
        owed = state["op"]["owed"]
        values = [_option_value(state, side, owed["kind"], o) for o in owed["options"]]
        best = max(range(len(values)), key=lambda i: values[i])
        return {"type": "choose", "option": best}


def _strength(stack: dict | None) -> int:
    return B.size(stack)


def _operation_value(state: dict, side: str, o: dict) -> float:
    """RP gained (or kept) at the odds of the fight it starts."""
    n = o["armies"] + len(o["generals"]) + o.get("ally", 0)
    dest = o["path"][-1] if o["path"] else o["area"]
    content = state["areas"][dest]
    hostile = [
        s
        for s in B.stacks(content)
        if s["force"] != o["force"] and B.faction(state, s["force"]) != side
    ]
    city = content["city"]
    value = 0.0
    if hostile:
        worst = max(hostile, key=_strength)
        bonus = 1 if city is worst else 0
        odds = n - min(4, _strength(worst)) - bonus
        gain = B.D.rp[dest] if city and B.faction(state, city["force"]) != side else 0
        value = gain * (1.0 if odds > 0 else 0.3) + 0.8 * odds
    elif city is None:
        value = B.D.rp[dest] + 0.5
    origin = state["areas"][o["area"]]
    city = origin["city"]
    leaves = (
        city
        and city["force"] == o["force"]
        and (_strength(city) == o["armies"] + len(o["generals"]))
    )
    if o["path"] and leaves:
        value -= B.D.rp[o["area"]]  # leaves a city empty
    return value


def _action(state: dict, side: str, options: list[dict], rng: Any) -> dict:
    hand = state["hands"][side]
    card = hand[rng.randrange(len(hand))] if hand else None
    if card is None:
        return {"type": "pass"}
    mil = [o for o in options if o.get("action") == "military" and o["card"] == card]
    if mil:
        ops = R.operations(state, side)
        if ops and max(_operation_value(state, side, o) for o in ops) > 0.5:
            return mil[0]
    fav = B.favour(side)
    dip = [
        o
        for o in options
        if o.get("action") == "diplomacy" and o["card"] == card and o["dir"] == fav
    ]
    if dip:

        def turns(o: dict) -> int:
            box = state["track"][o["force"]]["box"]
            new = B.shifted(box, fav, R.cfg(state, "diplomacy_track_layout"))
            before, after = B.D.boxes[box]["faction"], B.D.boxes[new]["faction"]
            return int(before != after) * 2 + int(after == side)

        best = max(dip, key=turns)
        if turns(best) >= 2 or rng.random() < 0.3:
            return best
    rein = [
        o
        for o in options
        if o.get("action") == "reinforcement"
        and o["card"] == card
        and B.faction(state, o["force"]) == side
    ]
    if rein:
        return max(rein, key=lambda o: B.D.rp[o["area"]] + rng.random())
    if dip:
        return dip[rng.randrange(len(dip))]
    return options[rng.randrange(len(options))]


def _option_value(state: dict, side: str, kind: str, o: dict) -> float:
    if kind == "losses":  # armies before generals, exhausted before ready
        return -10 * len(o["gens"]) - o.get("ready", 0) + o.get("tired", 0)
    if kind == "defend":
        return len(o["gens"]) * 2 + o["ready"] + o["tired"]
    if kind == "engage":
        target = B.stack_of(state["areas"][state["op"]["mil"]["area"]], o["target"])
        return (
            o["join"]["n"]
            + len(o["join"]["gens"])
            + o["join"].get("ally", 0)
            - _strength(target) / 4
        )
    if kind == "after":
        return {"again": 1.0, "stay": 2.0, "retreat": 0.0}[o["do"]]
    if kind in ("reinforce", "general"):
        friendly = B.faction(state, o.get("force") or B.D.generals[o["general"]].force) == side
        return B.D.rp[o["area"]] + (5 if friendly else 0)
    if kind in ("successor", "city"):
        return 1.0 if B.faction(state, o["force"]) == side else 0.0
    if kind == "bolster":
        return o["armies"] + len(o["gens"])
    if kind == "onward":
        return 0.0 if o["do"] == "stop" else -1.0
    return 0.0


AI = Parts()
