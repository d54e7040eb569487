"""The words of Warring States' own page parts (web/*.js), by message id (``page.*``).

The front end writes no English of its own: every sentence it shows is here, whole, with
its ``{placeholders}``, so the game's catalogs translate it (``t(id, values)`` in the JS).
Merged into ``text.MESSAGES``.
"""

from __future__ import annotations

PAGE: dict[str, str] = {
    # names the board uses for sides and factions
    "page.side.unknown": "side not yet known",
    "page.side.nobody": "nobody",
    "page.faction.neutral": "Neutral",
    "page.faction.none": "no side",
    # the status line
    "page.status.turn": "Turn {turn} of {turns}",
    "page.status.phase": "Phase: {phase}",
    # the phases a state is in (state.py: new | bid | play | over), as the status says them
    "page.phase.new": "setting up",
    "page.phase.bid": "bidding",
    "page.phase.play": "playing cards",
    "page.phase.over": "over",
    "page.status.acting": "Acting: {side}",
    "page.status.acting.pass": "Acting: {side} (1 pass)",
    "page.status.acting.passes": "Acting: {side} ({n} passes)",
    "page.status.initiative": "Initiative: {side}",
    "page.status.initiative.flipped": "Initiative: {side} (flipped)",
    "page.status.qin_rp.bid": "Qin holds {rp} RP; the bids set its target",
    "page.status.qin_rp": "Qin holds {rp} RP of {target}",
    "page.status.rp": "RP: Lianheng {lianheng}, the Alliance {alliance}",
    "page.legend.counters": (
        "▣ city holder, then field stacks; 3+1 = ready + exhausted; ★ generals "
        "(H: horse, S: sword, D: shield). "
    ),
    "page.legend.lines": (
        "Lines: solid 1 MP, dashed mountains 2 MP, blue waterways (arrow downstream). "
        "Border colour: who holds the city (red Lianheng, blue the Alliance, grey Neutral). "
        "(NR) on the track: Not Received, locked."
    ),
    # the map
    "page.map.label": "The map of the Warring States",
    "page.area.label.held": "{area}, {rp} RP, city held by {force}: {stacks}",
    "page.area.label.free": "{area}, {rp} RP, no city holder: {stacks}",
    "page.area.stack.city": "city {stack}",
    "page.area.stack.field": "field {stack}",
    "page.area.stack.generals": "{stack} ({generals})",
    "page.area.empty": "empty",
    "page.area.more": "+{n} more",
    "page.general.spent": "{general} (spent)",
    # the diplomacy track
    "page.track.label": "Diplomacy track",
    "page.track.title": "Diplomacy track: Serve Qin (Lianheng) ← Neutral → Alliance",
    "page.counter.label": "{force}: {box}",
    "page.counter.label.locked": "{force}: {box}, Not Received (locked)",
    "page.counter.eliminated": "{counter}, eliminated",
    "page.counter.locked": "{force} (NR)",
    # the dice
    "page.dice.none": "No dice rolled yet.",
    "page.dice.title": "Dice: ",
    # the players' panels
    "page.player.title": "{seat}: {side}",
    "page.player.title.you": "{seat}: {side} (you)",
    "page.player.rp.lianheng": "RP {rp}. Victory: Qin reaches {target} RP",
    "page.player.rp.alliance": "RP {rp}. Victory: Qin below {target} RP at the end",
    "page.player.no_side": "Sides are decided by the bid.",
    "page.player.hand": "Hand {n}",
    "page.player.deck": "Deck {n}",
    "page.player.discard": "Discard {n}",
    "page.player.removed": "Removed {n}",
    "page.player.face_up": "Face up discards: {cards}",
    "page.player.bid": "Bid: {rp}",
    "page.player.bid.sealed": "Bid: sealed",
    # the hands (the replay's)
    "page.hands.title": "Hands",
    "page.hands.of": "{seat}'s hand",
    "page.hands.title.side": "{seat} ({side}): hand ({n})",
    "page.hands.title.no_side": "{seat}: no side yet",
    "page.hands.empty": "empty",
    "page.hands.face_down": "Played face down: ",
    "page.hands.deck": "Deck, top first ({n}): ",
    "page.hands.spectator": ("A spectator sees no hand. Choose {seats} or Everything to see them."),
    # the seat's own hand
    "page.hand.title": "Your hand ({side}): {n} cards",
    "page.hand.none": "No cards in hand.",
    "page.hand.discards": "Your discards ({n})",
    "page.hand.discard.up": "{card} (face up)",
    "page.hand.discard.down": "{card} (face down)",
    # standing instructions
    "page.standing.ask": "Ask me each time",
    "page.standing.never": "Never respond",
    "page.standing.auto": "Play these when they apply:",
    "page.standing.now.ask": "Responses: ask",
    "page.standing.now.never": "Responses: never",
    "page.standing.now.auto": "Responses: auto ({cards})",
    "page.standing.set": "Set standing instructions",
    # an option in words
    "page.option.pass": "Let it pass (no response)",
    "page.option.play": "Play {card}: {text}",
    "page.option.play.route": "Play {card} (Wei Wuji enters in {area}): {text}",
    "page.option.play.route.path": (
        "Play {card} (Wei Wuji enters in {area}, moves {path}): {text}"
    ),
    "page.option.stop": "Stop here",
    "page.option.onward": "Go on to {path}",
    "page.option.attack": "Attack {force}",
    "page.option.join": "joined by {n} armies",
    "page.option.join.generals": "joined by {n} armies with {generals}",
    "page.option.in": "in {area}",
    "page.option.in.two": "in {area} and {other}",
    "page.option.to": "to {area}",
    "page.option.counters": "{ready} ready, {tired} exhausted",
    "page.option.counters.generals": "{ready} ready, {tired} exhausted with {generals}",
    "page.option.armies": "{n} armies",
    "page.option.armies.generals": "{n} armies with {generals}",
    "page.option.leads": "({general} leads)",
    "page.option.successor": "({force} takes the city)",
    "page.option.not_held": "{option} (not in your hand)",
    # the decision panel
    "page.decision.kind": "Decision: {kind}",
    "page.json.bad": "Not a command in JSON: {error}",
    "page.json.title": "Advanced: a command in JSON",
    "page.json.send": "Send",
    "page.bid.label": "RP Qin will reach if you play Lianheng: ",
    "page.bid.seal": "Seal the bid",
    # playing a card
    "page.param.action": "Action",
    "page.param.force": "Force",
    "page.param.area": "Area",
    "page.param.dir": "Direction",
    "page.param.move": "Initiative",
    "page.param.option": "Option",
    "page.param.general": "General",
    "page.action.military": "Military operation",
    "page.action.reinforcement": "Reinforcement",
    "page.action.diplomacy": "Diplomacy",
    "page.action.weather": "Weather (initiative)",
    "page.value.none": "none",
    "page.dir.serve": "toward Serve Qin (Lianheng)",
    "page.dir.alliance": "toward the Alliance",
    "page.move.yes": "move the initiative token",
    "page.move.no": "leave it",
    "page.choose": "choose…",
    "page.play.pass": "Pass",
    "page.play.pick": "Choose a card of your hand to play, or pass.",
    "page.play.down": "Face down: a generic action",
    "page.play.up": "Face up: the card's text",
    "page.play.not_now": " (not now: {why})",
    "page.play.send.down": "Play down",
    "page.play.send.up": "Play up",
    "page.play.another": "Another card",
    # picking a card
    "page.pick.deck": "Take a card from your draw deck:",
    "page.pick.drawn": "Click one of the cards just drawn, in your hand, to discard it.",
    "page.pick.hand": "Click a card of your hand to discard it.",
    # a military operation
    "page.op.from": "from area…",
    "page.op.step1": "1. Click an area on the map (or choose it) with the stack to operate: ",
    "page.op.activate": "Activated general ",
    "page.op.successor": "If the city is emptied, it goes to ",
    "page.op.successor.rules": "(as the rules give)",
    "page.op.ally": "Allied armies moving along ",
    "page.op.step2": "2. Armies (of {n} ready) ",
    "page.op.step3": "3. Path: {path}. Click a neighbouring area on the map, or: ",
    "page.op.undo": "Undo step",
    "page.op.move": "Move along the path",
    "page.op.attack": "Attack here (direct attack)",
    "page.op.again": "Start again",
}
