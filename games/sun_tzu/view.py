"""What a seat (or a spectator, ``None``) may see: ``view`` of a state, ``redact`` of an event.

Hidden information never leaves through here: the opponent's hand, both decks, face-down
placements, unplayed Warlords, armed reactions and plans, the event deck's order.
When the game is over every hand and placement is shown; deck order never is.
"""

from __future__ import annotations

import copy
from typing import Any

from games.sun_tzu import battle
from games.sun_tzu.components import PROVINCES, SCORING_ROUNDS, SEATS
from games.sun_tzu.flow import owed
from games.sun_tzu.moves import warlord_plays
from games.sun_tzu.state import DRAWN, SEAT_INDEX, State


def view(st: State, seat_name: str | None) -> dict[str, Any]:
    me = None if seat_name is None else SEAT_INDEX[seat_name]
    over = st.phase == "over"
    column = next((i for i, r in enumerate(SCORING_ROUNDS) if r >= max(st.round, 1)), 2)
    shown = set(st.fought)
    if st.current is not None:
        shown.add(st.current)
    provinces = []
    for p, name in enumerate(PROVINCES):
        cards = {}
        for s, who in enumerate(SEATS):
            placed = st.placed[s]
            if placed is None:
                cards[who] = None
            elif over or s == me or p in shown:
                cards[who] = placed[p]
            else:
                cards[who] = "placed"
        provinces.append(
            {
                "name": name,
                "display": list(st.displays[p]) if st.displays else [],
                "value": st.displays[p][column] if st.displays else 0,
                "armies": dict(zip(SEATS, st.armies[p], strict=True)),
                "markers": dict(zip(SEATS, st.markers[p], strict=True)),
                "cards": cards,
                "fought": p in st.fought,
            }
        )
    players = {}
    for s, who in enumerate(SEATS):
        mine = s == me or over
        players[who] = {
            "reserve": st.reserve[s],
            "aside": st.aside[s],
            "on_board": st.on_board(s),
            "hand": list(st.hands[s]) if mine else None,
            "hand_size": len(st.hands[s]),
            "deck_size": len(st.decks[s]),
            "warlords": list(st.kept[s]) if mine else None,
            "warlords_held": len(st.kept[s]),
            "warlords_played": list(st.spent[s]),
            "discarded": list(st.gone[s]),
            "discarded_face_down": list(st.burned[s]) if mine else len(st.burned[s]),
            # where its recycled Plague is (public: draws are from the top, recycles go
            # under): cards above it in the deck, "drawn", or None (rulings.EPIDEMIC_PLAGUES)
            "recycled_plague": "drawn" if st.plague_back[s] == DRAWN else st.plague_back[s],
        }
    pending = {SEATS[s]: kind for s, kind in sorted(owed(st).items())}
    out: dict[str, Any] = {
        "game": "sun-tzu",
        "variant": st.variant,
        "events": st.events_on,
        "round": st.round,
        "phase": st.phase,
        "score": st.score,
        "provinces": provinces,
        "players": players,
        "privilege": None if st.privilege is None else SEATS[st.privilege],
        "fought": [PROVINCES[p] for p in st.fought],
        "current": None if st.current is None else PROVINCES[st.current],
        "event_card": st.event_up if st.events_on else None,
        "events_left": len(st.event_deck),
        "events_done": list(st.events_done),
        "plagues_played": st.plagues_played,  # Plague cards played, each once (Epidemic)
        "pending": pending,
        "outcome": copy.deepcopy(st.outcome),
    }
    if me is not None and not over:
        out["plan"] = copy.deepcopy(st.plans[me]) if st.placed[me] is not None else None
        out["decision"] = _decision(st, me, pending.get(SEATS[me]))
    return out


def _decision(st: State, me: int, kind: str | None) -> dict[str, Any] | None:
    """What the seat needs to answer its own decision."""
    if kind is None:
        return None
    info: dict[str, Any] = {"kind": kind}
    if kind == "keep":
        info.update(drawn=list(st.drawn[me]), keep=st.keep_n[me])
    elif kind == "sources":
        task = st.tasks[0]
        tiers = battle.source_tiers(st.armies, me, task)
        info.update(
            need=task["n"],
            why=task["why"],
            to=task["to"],
            from_reserve=min(task["n"], st.reserve[me]),
            tiers=[{PROVINCES[p]: n for p, n in tier} for tier in tiers],
        )
    elif kind == "next_province":
        info["provinces"] = [PROVINCES[p] for p in range(5) if p not in st.fought]
    elif kind in ("after_battles", "place"):
        info["warlord_plays"] = warlord_plays(st, me)
    return info


# Public stubs of events whose details only their own seat may see.
_PUBLIC_FIELDS = {
    "placed": ("seat",),
    "cards_drawn": ("seat",),
    "card_kept": ("seat",),
    "warlord_chosen": ("seat", "extra"),
    "order_named": ("seat",),
    "after_battles_chosen": ("seat",),
    "card_recycled": ("seat", "warlord", "card", "province"),
    "deck_shuffled": ("seat",),
    "event_deck_shuffled": (),
}


def redact(event: dict[str, Any], seat_name: str | None) -> dict[str, Any]:
    """The event as ``seat_name`` may see it (spectators: ``None``)."""
    to = event.get("visible_to", "all")
    if to == "all" or (seat_name is not None and to == seat_name):
        return event
    stub = {
        k: event[k] for k in ("type", "visible_to", *_PUBLIC_FIELDS[event["type"]]) if k in event
    }
    if event["type"] == "cards_drawn":
        stub["count"] = len(event["cards"])
    if event["type"] == "card_recycled":
        stub["burned"] = None if event.get("burned") is None else "hidden"
    return stub
