"""What Sun Tzu is, as plain data: its title, its seats and the options a game is made
with. The service derives its API schema and its forms from this (``games.base.Catalogue``).
"""

from __future__ import annotations

from games.base import Catalogue, Option, SeatInfo
from games.sun_tzu.components import SEATS, VARIANTS

_LABELS = {"standard": "Standard (with Warlords)", "beginner": "Beginner (no Warlords, no +2/+3)"}

CATALOGUE = Catalogue(
    title="Sun Tzu",
    seats=(
        SeatInfo(SEATS[0], "Blue", "#1f5fbf"),
        SeatInfo(SEATS[1], "Red", "#b3261e"),
    ),
    options=(
        Option(
            name="variant",
            kind="choice",
            label="Variant",
            default="standard",
            choices=tuple((v, _LABELS[v]) for v in VARIANTS),
        ),
        Option(
            name="events",
            kind="bool",
            label="Event cards",
            default=False,
            help="five event cards that change the rules while they are face up",
        ),
    ),
    summary="Sun Tzu commands Blue and the King of Chu Red: each round both place five "
    "cards face down on the five provinces of ancient China, then fight for them.",
)
