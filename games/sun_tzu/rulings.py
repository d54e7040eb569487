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
# False: one province at a time, in the placement's ``order`` as in ``next_province``.
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

# Epidemic triggers when all 4 Plagues (both decks) have been played: it counts Plague
# cards, each once, not Plague reveals. Ruling: a Plague put back by Plague recycle has been
# played; revealed again it is not a new one. The two Plagues of a deck are alike, so the
# count follows only what both players can see: the recycled Plague lies where it was put
# (the bottom of the deck) until the draws reach it; from then on the next Plague its
# player reveals is taken to be that one (the count does not rise), even if it was put
# back under the deck when drawn. A Plague discarded for an exceptional reinforcement was
# never played (nor counts as the recycled one).
EPIDEMIC_PLAGUES = 4

# Ruling: event cards are checked after each battle, once its armies are all placed; a card
# turned up then is checked against the same battle. A condition about the state of the
# game (Epidemic, War chariot) can be met already when its card turns up.
# Ruling: when both players meet War chariot's condition at the same moment, both choose.
WAR_CHARIOT_MARKER_PROVINCES = 3

# Ruling: Head start acts only at the start of the game, so it cannot be taken as the
# extra Warlord War chariot gives.
NOT_AN_EXTRA_WARLORD = frozenset({"head_start"})

# Ruling: when the last event card triggers, the game ends at once, before its effect.
# False: its effect is applied first (armies owed are settled, asking if need be; War
# chariot's extra Warlord is not chosen, as it could change nothing), then the game ends.
# Either way the end's reason is the last event, also when the marker is at 0 and the
# reserves decide (the rules' tie-break).
LAST_EVENT_ENDS_BEFORE_EFFECT = True

# Ruling: a 7-10 restrained to a 6 no longer counts as a 9 or 10 for the challenges.
RESTRAINED_CARD_MEETS_CHALLENGES = False

# Ruling: recycling a card onto an empty deck discards nothing (the recycled card itself
# would otherwise be its deck's top card). False: the card is put under the deck, then the
# deck's top card, the recycled card itself when the deck was empty, is discarded.
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

# Ruling (rules file: exceptional reinforcement "is offered whenever the player must supply
# armies and has set-aside armies and a card to discard"): a player who owes armies beyond
# their reserve (a winning margin, a 6-marker, a +2/+3, an event's cost) while holding
# set-aside armies and cards in hand is asked (for the source and an exceptional
# reinforcement), unless their placement gave a standing choice. Any card in hand, framed
# or not: asking only those holding a card they could discard would tell the opponent
# whether the hand holds one. False: asked only when the board sources are a real choice.
OFFER_REINFORCEMENT_WHEN_SHORT = True

# Ruling: Counter-plague fires on an opponent's Plague only where Red did not play a Plague
# too: there Red's own Plague still cancels the battle, so countering would do nothing.
# The armed card waits for the opponent's next Plague this round, else stays in hand.
# False: it fires on the first opponent Plague revealed and is spent, whatever Red played.
COUNTER_PLAGUE_WAITS_WHEN_BOTH_PLAY_A_PLAGUE = True


def plague_losses(armies: int, deadly: bool) -> int:
    """Armies a Plague removes from a province holding ``armies``; never empties it."""
    if armies <= 1:
        return 0
    if deadly:
        return armies - DEADLY_PLAGUE_REMOVES_ALL_BUT
    return armies // 2
