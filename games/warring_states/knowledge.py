"""What a seat's view lets one rebuild (``determinize``) and the everything-view
(``full_view``)."""

from __future__ import annotations

from typing import Any

from games.warring_states import board as B
from games.warring_states import state as S
from games.warring_states.data import kind_of

D = B.D


def _unseen(view: dict[str, Any], side: str, known: list[str]) -> list[str]:
    deck = list(D.deck(side, D.config(view["config"])))
    for card in known:
        if card in deck:
            deck.remove(card)
    return deck


class Knowledge:
    @staticmethod
    def determinize(view: dict[str, Any], seat: str, rng: Any) -> dict:
        """A whole position ``seat`` cannot tell from the true one: the cards it has not
        seen (the opponent's hand and face-down discards, both decks' order) dealt at random
        from those unseen; everything on the board is public."""
        st = S.initial()
        for key in (
            "scenario",
            "victory",
            "config",
            "turns",
            "target",
            "phase",
            "sides",
            "turn",
            "active",
            "passes",
            "initiative",
            "areas",
            "track",
            "pool",
            "eliminated",
            "removed",
            "op",
            "result",
        ):
            st[key] = S.copy(view[key])
        st["bids"] = {k: (0 if v == "hidden" else v) for k, v in view["bids"].items()}
        if view.get("standing") is not None:
            st["standing"][seat] = S.copy(view["standing"])
        for side in B.SIDES:
            hand = view["hands"][side]
            discards = view["discards"][side]
            known = [d["card"] for d in discards if d["card"]] + list(view["removed"][side])
            known += list(hand or [])
            pool = _unseen(view, side, known)
            rng.shuffle(pool)
            if hand is None:
                hand = [pool.pop() for _ in range(view["hand_sizes"][side])]
            st["hands"][side] = list(hand)
            st["discards"][side] = [
                {"card": d["card"] if d["card"] else pool.pop(), "up": d["up"]} for d in discards
            ]
            st["decks"][side] = pool[: view["deck_sizes"][side]]
        return st

    @staticmethod
    def full_view(state: dict) -> dict[str, Any]:
        """Everything: the board (``areas``, ``track``, ``pool``, ``initiative``), each side's
        ``hands``, ``decks`` (in order), ``discards`` (faces included) and ``removed`` cards,
        the bids, the operation in progress (``op``) and the ``result``."""
        keys = (
            "scenario",
            "victory",
            "turn",
            "turns",
            "target",
            "sides",
            "areas",
            "track",
            "pool",
            "initiative",
            "hands",
            "decks",
            "discards",
            "removed",
            "bids",
            "op",
            "result",
        )
        return {k: S.copy(state[k]) for k in keys}


def card_names(cards: list[str]) -> list[str]:
    return [D.cards[kind_of(c)].name for c in cards]


KNOWLEDGE = Knowledge()
