"""The commands a seat may send now (``legal``), and one of them at random."""

from __future__ import annotations

from typing import Any

from games.warring_states import board as B
from games.warring_states import cards
from games.warring_states import rules as R
from games.warring_states.data import kind_of

D = B.D


def action_commands(st: dict, side: str) -> list[dict]:
    """Pass, or any card face down for one generic action that is legal now (Ruling 13)."""
    out: list[dict] = [{"type": "pass"}]
    hand = st["hands"][side]
    if not hand:
        return out
    actions: list[dict] = []
    if R.operations(st, side, limit=1):
        actions.append({"action": "military"})
    for force in D.forces:
        for area in R.reinforce_places(st, force):
            actions.append({"action": "reinforcement", "force": force, "area": area})
    for force, pos in sorted(st["track"].items()):
        if pos["received"]:
            actions += [{"action": "diplomacy", "force": force, "dir": d} for d in (-1, 1)]
    if not st["initiative"]["flipped"]:
        actions += [{"action": "weather", "move": m} for m in (True, False)]
    for card in dict.fromkeys(hand):
        out += [{"type": "play", "card": card, "face": "down", **a} for a in actions]
    return out + cards.face_up_commands(st, side)


def legal(st: dict, seat: str) -> list[dict[str, Any]]:
    due = R.pending(st).get(seat)
    if due is None:
        return []
    if due == "bid":
        return [{"type": "bid", "rp": r} for r in range(R.MAX_BID + 1)]
    side = R.side_of(st, seat)
    if due == "action":
        return action_commands(st, side)
    if due == "operate":
        return R.operations(st, side)
    if due == "pick":
        return cards.pick_commands(st, side, st["op"]["owed"]["kind"])
    options = st["op"]["owed"]["options"]
    if due == "respond":  # the options are public; which of them this seat can play is not
        hand = {kind_of(c) for c in st["hands"][R.side_of(st, seat)]}
        return [
            {"type": "choose", "option": i}
            for i, o in enumerate(options)
            if o["card"] is None or o["card"] in hand
        ]
    return [{"type": "choose", "option": i} for i in range(len(options))]


def random_command(st: dict, seat: str, rng: Any) -> dict[str, Any] | None:
    """A legal command, uniformly, except that a pass is one choice among the card plays'
    kinds (so random games are not all passes nor all diplomacy)."""
    due = R.pending(st).get(seat)
    if due is None:
        return None
    if due == "bid":
        return {"type": "bid", "rp": rng.randrange(R.MAX_BID + 1)}
    options = legal(st, seat)
    if due == "action" and len(options) > 1:
        kinds = sorted({o.get("action", "pass") for o in options})
        kind = kinds[rng.randrange(len(kinds))]
        options = [o for o in options if o.get("action", "pass") == kind]
    return options[rng.randrange(len(options))] if options else None
