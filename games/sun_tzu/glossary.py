"""What each thing on the board is, for the pages' tooltips: message id -> English text.

Kept apart from ``text.py`` (the narration) and merged into its ``MESSAGES``. Ids:
``tip.card.<card>``, ``tip.card.placed``, ``tip.warlord`` (the pages add the Warlord's own
text, ``warlord.<id>.text``), ``tip.event``, ``tip.marker.6``, ``tip.display``,
``tip.track``, ``tip.reserve``/``aside``/``privilege``, ``tip.border`` and, one per pair of
provinces that share a border (``rulings.ADJACENT_PAIRS``), ``tip.border.<A>.<B>``: the
pages draw the map's borders from these ids, so the map shows the rules' adjacency.
"""

from __future__ import annotations

from games.sun_tzu.components import STANDARD_DECK
from games.sun_tzu.rulings import ADJACENT_PAIRS

_FRAMED = "Framed: it comes back to your hand at the end of every round."
_CARDS = {
    "1": f"1. {_FRAMED} Playing it lets you draw 3 cards and keep 2 this round.",
    "2": f"2. {_FRAMED}",
    "3": f"3. {_FRAMED}",
    "4": f"4. {_FRAMED}",
    "5": f"5. {_FRAMED}",
    "6": f"6. {_FRAMED} When revealed, 1 of your armies goes to this province's 6-marker box "
    "for the rest of the game; you may not play your 6 there again.",
    "7": "7. Played once: it leaves the game after the round.",
    "8": "8. Played once: it leaves the game after the round.",
    "9": "9. Played once: it leaves the game after the round.",
    "10": "10. Played once: it leaves the game after the round.",
    "+1": "+1: counts as the other card plus 1, so it wins by 1 (beats a −1 by 1).",
    "-1": "−1: counts as the other card minus 1, so the other side wins by 1.",
    "+2": "+2: wins by 2 against a number; when revealed it sets 1 of your armies aside.",
    "+3": "+3: wins by 3 against a number; when revealed it sets 2 of your armies aside.",
    "plague": "Plague: no battle; the other card is cancelled and half the armies in the "
    "province (rounded down, never the last) go back to their reserve.",
}

GLOSSARY: dict[str, str] = {
    **{f"tip.card.{card}": _CARDS[card] for card in dict.fromkeys(STANDARD_DECK)},
    "tip.card.placed": "A card placed face down: it is revealed when this province's battle comes.",
    "tip.battle": "The two cards revealed here and what the battle did.",
    "tip.warlord": "A Warlord card: each one is played once, then it is gone.",
    "tip.warlord.hidden": "Warlords kept in secret: they stay hidden until played.",
    "tip.event": "The face-up event card: it triggers as soon as its condition holds, then the "
    "next one is turned up. If the last one triggers, the game ends at once.",
    "tip.marker.6": "6-marker: an army put here by a 6, out of play for the rest of the game. "
    "Its owner may not play their 6 in this province again.",
    "tip.display": "This province's score display: whoever holds it (at least 1 army) scores "
    "{points} points after rounds 3, 6 and 9.",
    "tip.display.now": "The next scoring counts the highlighted value.",
    "tip.track": "The score track: after each scoring the marker moves toward the higher "
    "scorer by the difference. At the end of either side after round 3 or 6, that side wins "
    "at once; after round 9 the side the marker is on wins.",
    "tip.reserve": "Armies in reserve: a battle's winner places armies from here first.",
    "tip.aside": "Set-aside armies: out of play until brought back by an exceptional "
    "reinforcement (discard a 7–10, ±, or Plague card).",
    "tip.privilege": "The player with fewer armies on the board holds the privilege and "
    "chooses the order of the battles.",
    "tip.province": "{province} borders {borders}.",
    "tip.border": "Bordering provinces supply each other: a winner's armies come from the "
    "reserve, then from provinces bordering the battle, then from anywhere.",
    **{f"tip.border.{a}.{b}": f"{a} and {b} share a border." for a, b in ADJACENT_PAIRS},
    "tip.six.blocked": "Your 6-marker stands in {province}: your 6 may not go there.",
    "tip.six.double": "Your 6-marker stands in {province}: placing your 6 there plays Double six.",
    "tip.sources.sum": "Take exactly {n} from the board.",
    "tip.sources.order": "Take every army you can from the provinces next to {province} first.",
}
