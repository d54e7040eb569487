"""What the generic search needs of Warring States, and its rule of thumb (the easy level)."""

from __future__ import annotations

import json
import math
from collections.abc import Hashable
from typing import Any, ClassVar

from games.warring_states import board as B
from games.warring_states import cards, moves
from games.warring_states import rules as R
from games.warring_states.knowledge import KNOWLEDGE


def _side(state: dict, seat: str) -> str | None:
    return R.side_of(state, seat)


# The search: candidates pruned to sensible moves, playouts by the rule of thumb below (not
# at random) for a few card plays, then a static judgement of the board.
PLAYS_AHEAD = 4  # card plays (both sides together) a playout looks past the decision
OPERATIONS_KEPT = 8  # the operations a search compares, best by ``_operation_value`` first
SAMPLED_OPERATIONS = 3  # the operations a playout draws and judges, rather than all
REINFORCEMENTS_KEPT = 4  # the reinforcement places a search compares, best RP first


class Parts:
    determinize = staticmethod(KNOWLEDGE.determinize)
    # About 80 (Five Kingdoms) to 110 (Qin Dominates) decisions a game, nearly all searched:
    # the analysis' default strength would be over its 60 s goal a game; a fifth of the
    # playouts brings it there.
    analysis_scale = 0.2
    # Issue 15's goals beyond the bench's own (hard vs random 0.95, vs easy 0.75).
    strength_goals: ClassVar[dict[str, float]] = {"hard_vs_medium": 0.6}

    @staticmethod
    def searchable(view: dict[str, Any], seat: str) -> bool:
        return view.get("decision") is not None and view["phase"] == "play"

    @staticmethod
    def candidates(state: dict, seat: str, rng: Any, root: bool) -> list[dict]:
        return sensible(state, seat)

    @staticmethod
    def rollout(state: dict, seat: str, rng: Any) -> dict | None:
        return policy(state, seat, rng, fast=True)

    @staticmethod
    def evaluate(state: dict, seat: str) -> float:
        """1 won, 0 lost; before the end, a judgement of the board from ``seat``'s side."""
        if state["result"] is not None:
            return (
                0.5
                if state["result"]["winner"] is None
                else float(state["result"]["winner"] == seat)
            )
        value = lianheng_chance(state)
        return value if _side(state, seat) == "lianheng" else 1.0 - value

    @staticmethod
    def horizon(root: dict, state: dict) -> bool:
        if state["result"] is not None or state["turn"] != root["turn"]:
            return True
        return state["op"] is None and _plays(state) - _plays(root) >= PLAYS_AHEAD

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
        """Rule of thumb on a determinized position (the easy level), see ``policy``."""
        if view.get("decision") is None:
            return None
        return policy(KNOWLEDGE.determinize(view, seat, rng), seat, rng)


def _plays(state: dict) -> int:
    """Cards played this turn (face down or up, both sides): the discards and removals."""
    return sum(len(state["discards"][s]) + len(state["removed"][s]) for s in B.SIDES)


def lianheng_chance(state: dict) -> float:
    """Lianheng's chance from the board: a logistic model fitted to 400 games of the rule
    of thumb against itself (Five Kingdoms, 20,000 positions at an action; held-out log
    loss 0.61, 67% right). Qin's RP against its target counts more the nearer the end
    (what the last turn's end counts), then the share of the counters on the map that
    are Lianheng's and the cards each side has left this turn. The RP each faction controls
    and the kingdoms' places on the track added nothing to these on held-out games (their
    fitted weights were small and negative: they go with Qin's RP), so they are left out."""
    left = max(0, state["turns"] - state["turn"])  # turns after this one
    lead = B.qin_rp(state) - state["target"] + 0.5
    ours = theirs = 0
    for content in state["areas"].values():
        for s in B.stacks(content):
            fac = B.faction(state, s["force"])
            if fac == "lianheng":
                ours += B.size(s)
            elif fac == "alliance":
                theirs += B.size(s)
    army = (ours - theirs) / max(1, ours + theirs)
    hands = len(state["hands"]["lianheng"]) - len(state["hands"]["alliance"])
    score = (
        0.28 + 0.078 * lead + 1.96 * lead / (1 + left) + 0.645 * army + 0.158 * left + 0.046 * hands
    )
    return 1.0 / (1.0 + math.exp(-score))


def _least_useful(state: dict, side: str) -> str | None:
    """The card in hand to give up for a face-down action: the one with fewest face-up uses
    now (ties: the first in hand)."""
    hand = list(dict.fromkeys(state["hands"][side]))
    if not hand:
        return None
    return min(hand, key=lambda c: len(cards.variants(state, side, c)))


def sensible(state: dict, seat: str) -> list[dict]:
    """The legal commands worth comparing: in an action, pass, each face-up text, and with
    the least useful card face down a military operation, a reinforcement of the own side
    in one of its best places, a diplomacy step in the side's favour, the weather; in an
    operation the best few; elsewhere every legal answer."""
    due = R.pending(state).get(seat)
    side = _side(state, seat)
    if due == "action":
        card = _least_useful(state, side)
        if card is None:
            return [{"type": "pass"}]
        out: list[dict] = [{"type": "pass"}]
        down = {"type": "play", "card": card, "face": "down"}
        if R.can_operate(state, side):
            out.append({**down, "action": "military"})
        places = R.reinforce_table(state)
        rein = [
            (B.D.rp[area], force, area)
            for force in B.D.forces
            if B.faction(state, force) == side
            for area in places.get(force, ())
        ]
        rein.sort(key=lambda t: (-t[0], t[1], t[2]))
        for _, force, area in rein[:REINFORCEMENTS_KEPT]:
            out.append({**down, "action": "reinforcement", "force": force, "area": area})
        fav = B.favour(side)
        for force, pos in sorted(state["track"].items()):
            if pos["received"]:
                out.append({**down, "action": "diplomacy", "force": force, "dir": fav})
        if not state["initiative"]["flipped"]:
            out += [{**down, "action": "weather", "move": m} for m in (True, False)]
        out += cards.face_up_commands(state, side)
        return out
    if due == "operate":
        ops = R.operations(state, side)
        cache: dict = {}
        ops.sort(key=lambda o: -_operation_value(state, side, o, cache))
        return ops[:OPERATIONS_KEPT]
    return moves.legal(state, seat)


def policy(state: dict, seat: str, rng: Any, fast: bool = False) -> dict | None:
    """The rule of thumb on a whole position: bid the scenario's target; play the least
    useful card face down for a military operation when one promises a gain, else a
    diplomacy step that turns a kingdom, else a reinforcement of the own side where it is
    most at stake; in an operation take the move that gains most RP at the best odds; lose
    armies before generals; answer with a Break card whenever one is held. ``fast`` (the
    search's playouts): judge a few operations drawn at random rather than all of them."""
    due = R.pending(state).get(seat)
    if due is None:
        return None
    if due == "bid":
        return {"type": "bid", "rp": state["target"]}
    side = _side(state, seat)
    if due == "action":
        return _action(state, side, rng, fast)
    if due == "operate":
        return _best_operation(state, side, rng, fast)[1]
    options = moves.legal(state, seat)
    if not options:
        return None
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


def _operation_value(state: dict, side: str, o: dict, cache: dict | None = None) -> float:
    """RP gained (or kept) at the odds of the fight it starts. ``cache``: what the
    destination holds, per (destination, force), for many operations of one position."""
    n = o["armies"] + len(o["generals"]) + o.get("ally", 0)
    dest = o["path"][-1] if o["path"] else o["area"]
    there = None if cache is None else cache.get((dest, o["force"]))
    if there is None:
        content = state["areas"][dest]
        city = content["city"]
        worst, bonus, gain = -1, 0, 0
        for s in B.stacks(content):
            if s["force"] != o["force"] and B.faction(state, s["force"]) != side:
                size = min(4, B.size(s))
                if size > worst or (size == worst and s is city):
                    worst, bonus = size, int(s is city)
        if worst >= 0 and city and B.faction(state, city["force"]) != side:
            gain = B.D.rp[dest]
        there = (worst, bonus, gain, city is None)
        if cache is not None:
            cache[(dest, o["force"])] = there
    worst, bonus, gain, open_field = there
    value = 0.0
    if worst >= 0:
        odds = n - worst - bonus
        value = gain * (1.0 if odds > 0 else 0.3) + 0.8 * odds
    elif open_field:
        value = B.D.rp[dest] + 0.5
    if o["path"]:
        city = state["areas"][o["area"]]["city"]
        moved = o["armies"] + len(o["generals"])
        if city and city["force"] == o["force"] and B.size(city) == moved:
            value -= B.D.rp[o["area"]]  # leaves a city empty
    return value


def _best_operation(state: dict, side: str, rng: Any, fast: bool) -> tuple[float, dict | None]:
    """The best operation open to ``side`` and its value: among all of them, or (``fast``,
    in playouts) among a few drawn at random."""
    cache: dict = {}
    if fast:
        ops = []
        for _ in range(SAMPLED_OPERATIONS):
            o = moves.random_operation(state, side, rng)
            if o is None:
                break
            ops.append(o)
    else:
        ops = R.operations(state, side)
    best, best_value = None, -math.inf
    for o in ops:
        v = _operation_value(state, side, o, cache)
        if v > best_value:
            best, best_value = o, v
    return best_value, best


def _card_actions(state: dict, side: str, card: str) -> list[dict]:
    """What the rule of thumb considers with ``card`` face down (``moves.action_commands``
    without the other side's reinforcements, the unfavourable steps and the weather)."""
    down = {"type": "play", "card": card, "face": "down"}
    out = [{**down, "action": "military"}] if R.can_operate(state, side) else []
    fav = B.favour(side)
    out += [
        {**down, "action": "diplomacy", "force": force, "dir": fav}
        for force, pos in state["track"].items()
        if pos["received"]
    ]
    for force, places in R.reinforce_table(state).items():
        if B.faction(state, force) == side:
            out += [{**down, "action": "reinforcement", "force": force, "area": a} for a in places]
    return out


def _action(state: dict, side: str, rng: Any, fast: bool) -> dict:
    hand = state["hands"][side]
    card = hand[rng.randrange(len(hand))] if hand else None
    if card is None:
        return {"type": "pass"}
    options = (
        _card_actions(state, side, card)
        if fast
        else moves.action_commands(state, side, hand=[card])
    )
    if not options:
        return {"type": "pass"}
    mil = [o for o in options if o.get("action") == "military"]
    if mil and _best_operation(state, side, rng, fast)[0] > 0.5:
        return mil[0]
    fav = B.favour(side)
    dip = [o for o in options if o.get("action") == "diplomacy" and o["dir"] == fav]
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
        if o.get("action") == "reinforcement" and B.faction(state, o["force"]) == side
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
