"""What Duel is, as plain data: title, seats, options."""

from __future__ import annotations

from games.base import Catalogue, Option, SeatInfo

CATALOGUE = Catalogue(
    title="Duel",
    seats=(SeatInfo("north", "North", "#2f6f4f"), SeatInfo("south", "South", "#8a4b8f")),
    options=(
        Option(
            "hand",
            "choice",
            "Cards in hand",
            3,
            ((3, "Three"), (4, "Four")),
            "as many rounds as cards",
        ),
    ),
    summary="Both players play a card face down at once; the higher card wins the round.",
)
