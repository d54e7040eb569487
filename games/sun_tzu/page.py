"""The words of Sun Tzu's own page parts (web/*.js), by message id (``page.*``).

The front end writes no English of its own: every sentence it shows is here, whole, with
its ``{placeholders}``, so the game's catalogs translate it (``t(id, values)`` in the JS).
Merged into ``text.MESSAGES``.
"""

from __future__ import annotations

PAGE: dict[str, str] = {
    "page.list": "{items} and {last}",  # "A, B and C"
    "page.extras.title": "exceptional reinforcement",
    "page.card.down": "face down",
    # a seat's name with who plays it
    "page.seat.you": "{seat} (you)",
    "page.seat.you.ai": "{seat} (you, played by the computer: {level})",
    "page.seat.ai": "{seat} (computer, {level})",
    # the status line
    "page.status.label": "Game status",
    "page.status.round": "Round {round} of 9",
    "page.status.next_scoring": "Next scoring after round {round}",
    "page.status.privilege": "Privilege: {seat}",
    "page.status.variant": "{variant} game",
    "page.status.variant.events": "{variant} game, with event cards",
    "page.status.ai": "{seat}: the computer, {level} level",
    # the score track
    "page.track.title": "Score track",
    "page.track.cell": "{n} toward {seat}",
    "page.track.centre": "centre",
    "page.track.marker": "Marker {n} toward {seat}.",
    "page.track.marker.centre": "Marker at the centre.",
    # the event card
    "page.event.label": "Face-up event card",
    "page.event.title": "Event card",
    "page.event.left": "{n} more in the event deck.",
    "page.event.none": "No event card is face up.",
    # the provinces
    "page.map.label": "Map of the provinces",
    "page.map.legend": (
        "The map: each province shows its points at the scorings after rounds 3, 6 and 9 "
        "(the next one highlighted); gold gates mark the borders, and supply runs across them."
    ),
    "page.points": "{points} points after round {round}",
    "page.points.next": "{points} points after round {round} (next scoring)",
    "page.marker.one": "{seat}'s 6-marker: 1 army",
    "page.marker.many": "{seat}'s 6-marker: {n} armies",
    "page.province.held": "Held by {seat}",
    "page.province.empty": "Empty",
    # the players' panels
    "page.field.reserve": "Reserve",
    "page.field.aside": "Set aside",
    "page.field.board": "On the board",
    "page.field.hand": "Hand",
    "page.field.deck": "Deck",
    "page.field.warlords": "Warlords",
    "page.field.played": "Played",
    "page.field.yours": "Yours",
    "page.field.kept": "Kept",
    "page.cards.one": "1 card",
    "page.cards.many": "{n} cards",
    "page.warlords.in_hand": "{n} in hand",
    "page.warlords.none_left": "none left in hand",
    "page.warlords.none_yet": "none yet",
    "page.warlords.none": "none",
    "page.player.final_hand": "Hand at the end: ",
    "page.player.gone": "Out of the game: ",
    # the hands (the replay's)
    "page.hands.title": "Hands",
    "page.hands.of": "{seat}'s hand",
    "page.hands.title.seat": "{seat}'s hand ({n})",
    "page.hands.empty": "empty",
    "page.hands.drawn": "Drawn, still to keep: ",
    "page.hands.deck": "Deck order ({n}): ",
    "page.hands.spectator": ("A spectator sees no hand. Choose {seats} or Everything to see them."),
    "page.outcome.centre": "Final marker at the centre; reserves: {reserves}.",
    "page.outcome.toward": "Final marker {n} toward {seat}; reserves: {reserves}.",
    "page.continue.battle": (
        "This step is in the middle of a battle: choose a step before or after it."
    ),
    # placing the five cards
    "page.place.pick_first": "Pick a card from your hand first.",
    "page.place.no_six": "No 6 here",
    "page.place.no_six.why": " (your 6-marker)",
    "page.place.slot.why": "{province}: {why}",
    "page.place.slot": "Place here ({n})",
    "page.place.slot.label": "Place the picked card in {province}",
    "page.place.slot.filled": "{card} — take back",
    "page.place.slot.filled.label": "{province}: {card}, take it back",
    "page.hand.title": "Your hand",
    "page.hand.label": "Your cards",
    "page.hand.placed": "{card}, placed in {province}",
    "page.place.title": "Place your five cards",
    "page.place.help": (
        "Pick a card in your hand, then a province. Keys: arrows move between cards, Enter "
        "picks, 1–5 places it (1 Qin, 2 Chu, 3 Jin-Yan, 4 Han-Qi, 5 Wu), Escape drops the pick."
    ),
    "page.place.summary": "{province}: ",
    "page.place.warlord": "Play a Warlord before the battles",
    "page.place.warlord.no": "No",
    "page.place.supply": "If your winning armies must come from the board",
    "page.supply.ask": "ask me each time",
    "page.supply.largest": "take from my largest stack first",
    "page.supply.smallest": "take from my smallest stack first",
    "page.place.send": "Place these cards",
    "page.place.send.count": "Place these cards ({n} of 5 chosen)",
    "page.place.clear": "Clear",
    "page.arm.in": "Arm {warlord} in",
    "page.arm.none": "no province",
    "page.arm": " Arm {warlord}",
    # the other decisions
    "page.warlord.extra": "War chariot: choose one more Warlord",
    "page.warlord.choose": "Choose your Warlord",
    "page.warlord.secret": "Your choice stays secret until you play it.",
    "page.next.title": "You hold the privilege: where is the next battle?",
    "page.next.all": "All in board order: {provinces}",
    "page.keep.title": "Keep {n} of the cards you drew",
    "page.keep.rest": "The others go to the bottom of your deck.",
    "page.keep.send": "Keep {cards}",
    "page.keep.count": "Keep ({n} of {keep} chosen)",
    "page.why.margin": "You won the battle",
    "page.why.six": "Your 6 takes 1 army to its 6-marker",
    "page.why.+2": "Your +2 sets an army aside",
    "page.why.+3": "Your +3 sets 2 armies aside",
    "page.why.light_infantry": "Light infantry",
    "page.sources.to.marker": "the 6-marker in {province}",
    "page.sources.to.aside": "the set-aside pool",
    "page.sources.tier.near": "Provinces next to {province}",
    "page.sources.tier.other": "Other provinces",
    "page.sources.tier.yours": "Your provinces",
    "page.sources.title": "Where do your armies come from?",
    "page.sources.need.one": "{why}: 1 army goes to {to}. ",
    "page.sources.need.many": "{why}: {n} armies go to {to}. ",
    "page.sources.take": "{reserve} come from your reserve; take {board} from the board.",
    "page.sources.take.near": (
        "{reserve} come from your reserve; take {board} from the board, from the provinces "
        "next to {province} first."
    ),
    "page.sources.have": "{province} (you have {n}) ",
    "page.sources.reinforce": "First discard a card to bring 1 set-aside army to your reserve: ",
    "page.sources.reinforce.no": "no",
    "page.sources.send": "Send these armies",
    "page.after.title": "After the battles: play a Warlord?",
    "page.after.help": "Everyone who still holds a Warlord is asked, so passing tells nothing.",
    "page.after.pass": "Pass",
    "page.decision.kind": "Decision: {kind}",
    # the exceptional reinforcement
    "page.extras.none": (
        "Exceptional reinforcement needs a set-aside army and a 7–10, ±, or Plague card in hand."
    ),
    "page.extras.help": (
        "Discard a card (shown to your opponent) to move 1 army from your set-aside pool to "
        "your reserve."
    ),
    "page.extras.card": "Card ",
    "page.extras.send": "Discard it",
}
