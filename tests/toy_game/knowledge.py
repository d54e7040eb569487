"""What a seat's view lets one rebuild: positions consistent with it (``determinize``), and
the documented everything-view of a replay (``full_view``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from toy_game.rules import DECK, SEATS, State


class Knowledge:
    @staticmethod
    def determinize(view: dict[str, Any], seat: str, rng: Any) -> State:
        """A whole position ``seat`` cannot tell from the true one: the cards it has not
        seen (the other's hand and face-down card) dealt at random from those unseen."""
        other = SEATS[1 - SEATS.index(seat)]
        mine = list(view["hands"][seat] or [])
        seen = Counter(mine)
        for shown in view["shown"]:
            seen.update(shown["cards"].values())
        played = {s: c for s, c in view["played"].items() if c != "hidden"}
        seen.update(played.values())
        pool = list((Counter(DECK) - seen).elements())
        rng.shuffle(pool)
        if other in view["played"] and other not in played:
            played[other] = pool.pop()
        theirs = sorted(pool[: view["cards_left"][other]])
        rest = pool[view["cards_left"][other] :]
        won = {s: n for s, n in view["won"].items() if n}
        return State(view["hand_size"], tuple(mine + theirs + rest),
                     {seat: tuple(mine), other: tuple(theirs)}, played, won,
                     len(view["shown"]), tuple(view["shown"]),
                     view["result"])  # fmt: skip

    @staticmethod
    def full_view(state: State) -> dict[str, Any]:
        """Everything: ``hands`` (seat -> cards), ``played`` (this round's face-down
        cards), ``deck`` (the shuffled deck), ``won``, ``shown`` (every round), ``result``."""
        return {"hands": {s: list(h) for s, h in state.hands.items()},
                "played": dict(state.played), "deck": list(state.deck),
                "won": dict(state.won), "shown": [dict(r) for r in state.shown],
                "result": state.result}  # fmt: skip


KNOWLEDGE = Knowledge()
