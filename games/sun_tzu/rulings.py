"""Our rulings where the printed rules are silent or unclear, each in exactly one place.

Every name here is referred to by the engine; change a ruling here and nowhere else.
The rules file (``shared/rules/sun_tzu.md``) marks the printed ones with "Ruling:".
"""

from __future__ import annotations

from games.sun_tzu.components import PROVINCE_INDEX

# Ruling (rules file): the printed map is not available; this is the geographic reading.
ADJACENT_PAIRS = (
    ("Qin", "Jin-Yan"),
    ("Qin", "Han-Qi"),
    ("Qin", "Chu"),
    ("Jin-Yan", "Han-Qi"),
    ("Han-Qi", "Chu"),
    ("Han-Qi", "Wu"),
    ("Chu", "Wu"),
)
ADJACENT: tuple[frozenset[int], ...] = tuple(
    frozenset(PROVINCE_INDEX[b if a == name else a] for a, b in ADJACENT_PAIRS if name in (a, b))
    for name in PROVINCE_INDEX
)

# Ruling (rules file): the privilege holder may name the whole remaining order of battle
# at once, or only the next province, each after seeing the previous battle.
ORDER_MAY_BE_NAMED_IN_ADVANCE = True


def bonus_against_minus(bonus: int) -> int:
    """Ruling (rules file): ``+k`` against ``-1`` wins by k (not k + 1)."""
    return bonus


def armies_placed(owed: int, available: int) -> int:
    """Ruling (rules file): when reserve and board together cannot supply what is owed (a
    winner's margin, a cost), the player places what exists."""
    return min(owed, available)


# Ruling: Head start is revealed as soon as both Warlords are chosen, not the moment Blue
# picks it, so the secret simultaneous choice stays secret.
HEAD_START_BONUS = 1

# Ruling: a Warlord play whose target is no longer valid when it takes effect (an earlier
# play changed the board) has no effect; the card is shown but stays in its owner's hand.
FIZZLED_WARLORD_STAYS_IN_HAND = True

# Ruling: the armies a revealed card costs (6-marker, +2/+3 set-aside) and the armies an
# event sets aside come from the reserve first, then from any province of the owner's,
# the province being fought over included.
SIDE_EFFECT_SOURCES_INCLUDE_BATTLE_PROVINCE = True

# Ruling: Epidemic's "all 4 Plagues have been played" counts Plague reveals by both
# players; a recycled Plague counts again each time it is revealed.
EPIDEMIC_PLAGUE_REVEALS = 4

# Ruling: event cards are checked after each battle, once its armies are all placed; a card
# turned up then is checked against the same battle. A condition about the state of the
# game (Epidemic, War chariot) can be met already when its card turns up.
# Ruling: when both players meet War chariot's condition at the same moment, both choose.
WAR_CHARIOT_MARKER_PROVINCES = 3

# Ruling: Head start acts only at the start of the game, so it cannot be taken as the
# extra Warlord War chariot gives.
NOT_AN_EXTRA_WARLORD = frozenset({"head_start"})

# Ruling: when the last event card triggers, the game ends at once, before its effect.
LAST_EVENT_ENDS_BEFORE_EFFECT = True

# Ruling: a 7-10 restrained to a 6 no longer counts as a 9 or 10 for the challenges.
RESTRAINED_CARD_MEETS_CHALLENGES = False

# Ruling: recycling a card onto an empty deck discards nothing (the recycled card itself
# would otherwise be its deck's top card).
RECYCLE_DISCARDS_FROM_PREVIOUS_DECK_ONLY = True

# Ruling: Deadly plague applies to a province where both players played a Plague.
DEADLY_PLAGUE_REMOVES_ALL_BUT = 1

# Ruling: the after-battles window (rounds 3 and 6) is offered to every player who still
# holds an unplayed Warlord, whatever it is, so that being asked reveals nothing.
AFTER_BATTLES_ROUNDS = (3, 6)

# Ruling: a player who draws more cards than they keep is always asked, even when the
# drawn cards are alike, so that being asked reveals nothing about them.
ALWAYS_ASK_TO_KEEP = True

# Ruling: Double six is played with the placement that puts the 6 on its own 6-marker.
DOUBLE_SIX_NEEDS_SIX_ON_MARKER = True

# Ruling: a player who must supply armies beyond their reserve while holding set-aside
# armies and cards in hand is asked (for the source and an exceptional reinforcement),
# unless their placement gave a standing choice.
OFFER_REINFORCEMENT_WHEN_SHORT = True


def plague_losses(armies: int, deadly: bool) -> int:
    """Armies a Plague removes from a province holding ``armies``; never empties it."""
    if armies <= 1:
        return 0
    if deadly:
        return armies - DEADLY_PLAGUE_REMOVES_ALL_BUT
    return armies // 2
