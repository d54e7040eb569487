"""What a seat (or a spectator, ``None``) may see: ``view`` of a state, ``redact`` of an event.

Hidden: each hand (its owner sees it), each deck's order (nobody; sizes are public), the
face of a card played face down (its owner sees it), a bid until both are in, standing
instructions (their owner). A seat searching its own deck sees the deck's cards, sorted.
When the game is over the hands are shown; a face-down card never is (§7.3: "the opponent
never sees its face"; no rule reveals it), nor deck order.
"""

from __future__ import annotations

from typing import Any

from games.warring_states import board as B
from games.warring_states import cards, moves
from games.warring_states import rules as R
from games.warring_states import state as S

_PUBLIC = ("side", "seat", "face", "action", "why")


def view(st: dict, seat: str | None) -> dict[str, Any]:
    over = st["phase"] == "over"
    me = R.side_of(st, seat) if seat else None
    decision = None
    due = R.pending(st).get(seat) if seat else None
    if due is not None:
        owed = (st["op"] or {}).get("owed") or {}
        decision = {"kind": owed.get("kind", due), "command": due, "options": owed.get("options")}
        if due == "pick":  # the cards this seat may pick: a search of its own deck shows the
            # deck's cards (sorted, so its order stays hidden), a discard the hand's
            kinds = cards.pick_commands(st, st["op"]["side"], decision["kind"])
            decision["cards"] = [c["card"] for c in kinds]
        elif due == "action":  # only the seat that plays: the card ids would show its hand
            decision["plays"] = plays(st, me)
    return {
        "scenario": st["scenario"],
        "victory": st["victory"],
        "config": dict(st["config"]),
        "phase": st["phase"],
        "turn": st["turn"],
        "turns": st["turns"],
        "target": st["target"],
        "sides": dict(st["sides"]),
        "me": me,
        "active": st["active"],
        "passes": st["passes"],
        "initiative": dict(st["initiative"]),
        "areas": S.copy(st["areas"]),
        "track": S.copy(st["track"]),
        "pool": dict(st["pool"]),
        "eliminated": list(st["eliminated"]),
        "rp": {s: B.rp(st, s) for s in B.SIDES},
        "qin_rp": B.qin_rp(st),
        "hands": {s: (list(st["hands"][s]) if over or s == me else None) for s in B.SIDES},
        "hand_sizes": {s: len(st["hands"][s]) for s in B.SIDES},
        "deck_sizes": {s: len(st["decks"][s]) for s in B.SIDES},
        "discards": {
            s: [
                {"card": d["card"] if (d["up"] or s == me) else None, "up": d["up"]}
                for d in st["discards"][s]
            ]
            for s in B.SIDES
        },
        "removed": {s: list(st["removed"][s]) for s in B.SIDES},
        "bids": {
            k: (v if over or k == seat or st["phase"] != "bid" else "hidden")
            for k, v in st["bids"].items()
        },
        "standing": st["standing"].get(seat) if seat else None,
        "op": S.copy(st["op"]),
        "decision": decision,
        "result": None if st["result"] is None else dict(st["result"]),
    }


def plays(st: dict, side: str) -> dict[str, Any]:
    """What ``side`` may do with the cards of its hand, from the rules' own lists (those
    ``moves.legal`` makes its ``play`` commands of, without ``type``, ``card``, ``face``):
    ``down``, the face-down actions (any card makes them, Ruling 13); ``up``, each card's
    face-up parameters ([] if none); ``why``, for a card with none, the message key
    (``play.up.<why>``) that says why. A pass is always open."""
    hand = st["hands"][side]
    down = moves.generic_actions(st, side) if hand else []
    up = {card: cards.variants(st, side, card) for card in hand}
    why = {card: cards.barred(st, card) or "condition" for card, v in up.items() if not v}
    return {"down": down, "up": up, "why": why}


def redact(event: dict[str, Any], seat: str | None) -> dict[str, Any] | None:
    to = event.get("visible_to", "all")
    if to == "all" or (seat is not None and to == seat):
        return event
    stub = {k: event[k] for k in ("type", "visible_to", *_PUBLIC) if k in event}
    for key in ("cards", "deck"):
        if key in event:
            stub["count"] = len(event[key])
    if event["type"] == "card_played":  # face down: which card stays hidden
        stub.update({k: event[k] for k in ("side", "face", "action")})
    return stub
