"""The printed components of Sun Tzu (2014 edition): board, cards, displays, Warlords, events.

Everything here is fixed by the game box; our rulings live in ``rulings.py``.
"""

from __future__ import annotations

SEATS = ("blue", "red")
BLUE, RED = 0, 1

# Board order, which is also the fixed reveal order of round 1.
PROVINCES = ("Qin", "Chu", "Jin-Yan", "Han-Qi", "Wu")
PROVINCE_INDEX = {name: i for i, name in enumerate(PROVINCES)}

ARMIES_PER_PLAYER = 21
MAX_ROUNDS = 9
SCORING_ROUNDS = (3, 6, 9)
SCORE_LIMIT = 9  # the "big box" at either end of the track

# Action cards. Framed cards come back to hand after every round.
FRAMED = ("1", "2", "3", "4", "5", "6")
NUMBERS = {str(n): n for n in range(1, 11)}
BONUS = {"+1": 1, "+2": 2, "+3": 3}
MINUS = "-1"
PLAGUE = "plague"
SET_ASIDE_COST = {"+2": 1, "+3": 2}  # armies moved to the set-aside pool when revealed
STANDARD_DECK = (
    *FRAMED,
    "7", "8", "9", "10",
    "+1", "+1", "+1",
    "-1", "-1", "-1",
    "+2", "+3",
    PLAGUE, PLAGUE,
)  # fmt: skip
BEGINNER_DECK = tuple(c for c in STANDARD_DECK if c not in ("+2", "+3"))
CARD_ORDER = {c: i for i, c in enumerate(dict.fromkeys(STANDARD_DECK))}
STARTING_HAND_DRAW = 4

# Score displays: points at the scorings after rounds 3 / 6 / 9.
DISPLAYS = (
    (1, 2, 4), (1, 3, 5), (1, 4, 3), (2, 3, 2), (2, 3, 4),
    (2, 5, 2), (3, 1, 5), (3, 2, 3), (4, 1, 4), (4, 3, 2),
)  # fmt: skip

BLUE_WARLORDS = ("reinforce", "head_start", "minus_recycle", "manoeuvre", "restraint")
RED_WARLORDS = ("remove", "counter_plague", "plague_recycle", "deadly_plague", "double_six")
WARLORDS_OF = (BLUE_WARLORDS, RED_WARLORDS)
# Warlords limited to rounds 1-6 by their text.
EARLY_WARLORDS = frozenset({"remove", "reinforce", "manoeuvre"})
# Played openly before (or after) the battles of a round, with targets.
ACTIVE_WARLORDS = frozenset({"remove", "reinforce", "manoeuvre", "deadly_plague", "double_six"})
# Armed with the placement; they fire by themselves.
REACTIVE_WARLORDS = frozenset({"counter_plague", "restraint", "plague_recycle", "minus_recycle"})

EVENT_CARDS = ("epidemic", "war_chariot", "champion_challenge", "hero_challenge", "light_infantry")

VARIANTS = ("standard", "beginner")


def other(seat: int) -> int:
    return 1 - seat
