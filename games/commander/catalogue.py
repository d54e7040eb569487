"""What Commander is, as plain data: title, seats, options (the service's forms)."""

from __future__ import annotations

from games.base import Catalogue, Option, SeatInfo
from games.commander.board import SEATS

CATALOGUE = Catalogue(
    title="Commander",
    seats=(SeatInfo(SEATS[0], "Blue", "#1f5fbf"), SeatInfo(SEATS[1], "Red", "#b3261e")),
    options=(
        Option("setup", "choice", "Arrangement", "secret",
               (("secret", "Secret: each player arranges their side"),
                ("standard", "Standard: the pieces start in the standard order")),
               "both arrangements are shown together"),
        Option("soldier_takes_commander", "bool", "The soldier's dagger", True,
               help="a Soldier captures the Commander, and the Commander cannot capture a "
               "Soldier; off: rank alone decides"),
        Option("commander_goal", "choice", "Commander's goal", "back_rank",
               (("back_rank", "The enemy's back rank"), ("enemy_side", "Any space across "
                                                           "the river")),
               "where your Commander wins by arriving", summary=False),
    ),
    summary="A Commander, five Officers and ten Soldiers each on a board of two sides of "
    "sixteen spaces: capture the enemy Commander or bring yours to the far side.",
)  # fmt: skip
