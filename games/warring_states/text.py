"""Every word Warring States shows, by message id (``games.base.Text``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from games.messages import Join, Message, msg
from games.warring_states.data import PATH, kind_of, load
from games.warring_states.glossary import GLOSSARY  # the board's tooltips (glossary.py)
from games.warring_states.page import PAGE  # the page parts' words (web/*.js)

D = load()
SEATS = ("first", "second")

# The log speaks to its reader: their own side is "You" (``….you`` ids), the other side and
# every side for a spectator by name. Actions are told in the past ("You played…").
MESSAGES = {
    "seat.first": "First player",
    "seat.second": "Second player",
    "you": "You",
    "side.lianheng": "Lianheng",
    "side.alliance": "The Alliance",
    "side.lianheng.mid": "Lianheng",
    "side.alliance.mid": "the Alliance",
    "side.lianheng.whose": "Lianheng's",
    "side.alliance.whose": "the Alliance's",
    "side.lianheng.whose.start": "Lianheng's",
    "side.alliance.whose.start": "The Alliance's",
    "side.unknown": "A side",
    "whose.you": "your",
    "force.yours": "Your {force}",
    "force.yours.mid": "your {force}",
    "role.attacker": "attacker",
    "role.defender": "defender",
    "card.hidden": "a card",
    "action.military": "a military operation",
    "action.reinforcement": "a reinforcement operation",
    "action.diplomacy": "a diplomacy action",
    "action.weather": "a weather action",
    "action.other": "an action",
    "choice.after": "what to do after the fight",
    "choice.bolster": "the counters to ready",
    "choice.city": "who holds the city",
    "choice.defend": "the defending counters",
    "choice.engage": "the target and who joins the attack",
    "choice.general": "a general",
    "choice.losses": "the casualties",
    "choice.mobilize": "where to mobilize",
    "choice.onward": "whether to fight on",
    "choice.operate": "the operation",
    "choice.reinforce": "where to reinforce",
    "choice.respond": "a response",
    "choice.retreat": "where to retreat",
    "choice.successor": "who holds the emptied city",
    "choice.other": "an option",
    "event.game_started": "A game of {scenario} begins ({turns} turns; Qin needs {target} RP).",
    "event.board_set": "The counters are set out; {side} holds the initiative.",
    "event.board_set.you": "The counters are set out; you hold the initiative.",
    "event.bid_made": "{who} made a sealed bid.",
    "event.bid_made.you": "You made a sealed bid.",
    "event.die_rolled": (
        "The bids were tied, so a die chose who plays Lianheng: it rolled {value} "
        "(1–3: {first}, 4–6: {second}). Rolled from the game's committed seed; the "
        "replay's Verification checks it."
    ),
    "event.die_rolled.other": (
        "A die rolled {value}. Rolled from the game's committed seed; the replay's "
        "Verification checks it."
    ),
    "event.bid": "{who} {rp}",
    "event.bid.you": "you {rp}",
    "event.bids_revealed": (
        "The bids are revealed: {bids}; {who} plays Lianheng, aiming at {target} RP."
    ),
    "event.bids_revealed.you": (
        "The bids are revealed: {bids}; you play Lianheng, aiming at {target} RP."
    ),
    "event.deck_shuffled": "{side} shuffled the draw deck.",
    "event.deck_shuffled.you": "You shuffled your draw deck.",
    "event.deck_shuffled.unknown": "A draw deck was shuffled.",
    "event.turn_started": "Turn {turn} begins; {side} acts first.",
    "event.turn_started.you": "Turn {turn} begins; you act first.",
    "event.cards_drawn": "{side} drew {n} cards.",
    "event.cards_drawn.one": "{side} drew 1 card.",
    "event.cards_drawn.you": "You drew {cards}.",
    "event.cards_drawn.you.none": "You drew no cards.",
    "event.card_played": "{side} played a card face down for {action}.",
    "event.card_played.you": "You played {card} face down for {action}.",
    "event.card_played.up": "{side} played {card} face up.",
    "event.card_played.up.you": "You played {card} face up.",
    "event.card_played.response": "{side} played {card} in response.",
    "event.card_played.response.you": "You played {card} in response.",
    "event.passed": "{side} passed.",
    "event.passed.you": "You passed.",
    "event.phase_ended": "{whose} action phase begins.",
    "event.phase_ended.you": "Your action phase begins.",
    "event.operation_started": "{side} directs an operation.",
    "event.operation_started.you": "You direct an operation.",
    # the card's next step asks its side a question (not a new operation)
    "event.operation_started.owed": "{side} decides the card's next step.",
    "event.operation_started.owed.you": "You decide the card's next step.",
    "event.initiative_set": "The initiative token now stands on {whose} space.",
    "event.initiative_set.flipped": (
        "The initiative token now stands on {whose} space, flipped: nobody may move it again "
        "this turn."
    ),
    "event.diplomacy_moved": "{side} moved {force}'s diplomacy counter from {frm} to {to}, locked.",
    "event.diplomacy_moved.you": (
        "You moved {force}'s diplomacy counter from {frm} to {to}, locked."
    ),
    "event.reinforced": "{side} reinforced {force} in {area}.",
    "event.reinforced.you": "You reinforced {force} in {area}.",
    "event.attacked_directly": "{force} attacked directly in {area} with {n} counters.",
    "event.attacked_directly.one": "{force} attacked directly in {area} with 1 counter.",
    "event.moved": "{force} moved {n} counters from {frm} to {to}.",
    "event.moved.one": "{force} moved 1 counter from {frm} to {to}.",
    "event.moved.via": "{force} moved {n} counters from {frm} via {via} to {to}.",
    "event.moved.via.one": "{force} moved 1 counter from {frm} via {via} to {to}.",
    "event.target_chosen": "{force} attacks {target} in {area}.",
    "event.fight_started": "The fight in {area}: {force} against {target}.",
    "event.fight_started.shift": (
        "The fight in {area}: {force} against {target}; the attack moves {shifted}'s diplomacy "
        "counter to {to}."
    ),
    "event.operation_step": "The card's next step.",
    "event.card_discarded": "{side} discarded a card.",
    "event.card_discarded.you": "You discarded {card}.",
    "event.deck_searched": "{side} searched the draw deck and shuffled it.",
    "event.deck_searched.you": "You searched your draw deck and shuffled it.",
    "event.deck_searched.unknown": "A draw deck was searched and shuffled.",
    "event.card_cancelled": "{card} is cancelled.",
    "event.card_cancelled.removed": "{card} is cancelled and removed from the game.",
    "event.general_removed": "{general} is removed from {area}.",
    "event.general_placed": "{general} takes the field in {area}.",
    "event.mobilized": "Qin mobilizes in {areas}.",
    "event.bolstered": "{force} readied {n} counters in {area}.",
    "event.bolstered.one": "{force} readied 1 counter in {area}.",
    "event.general_left": "{general} leaves the board.",
    "command.pick": "pick {card}",
    "prompt.pick": "Pick a card.",
    "event.window_opened": "{side} may answer with a Break card.",
    "event.window_opened.you": "You may answer with a Break card.",
    "event.window_skipped": "No response is possible.",
    "event.window_closed": "No more responses.",
    "event.response_resolved": "{side} responded with {card}.",
    "event.response_resolved.you": "You responded with {card}.",
    "event.standing_set": "{who} set standing instructions for responses.",
    "event.standing_set.you": "You set standing instructions for responses.",
    "event.decision_owed": "A decision is owed.",
    "event.chosen": "{side} chose {kind}.",
    "event.chosen.you": "You chose {kind}.",
    "event.defence_fixed": "The defending counters are fixed.",
    "event.dice_rolled": (
        "Dice in {area}: {force} rolled {a} (counts {am}, hits {ah}); {target} rolled {d} "
        "(counts {dm}, hits {dh}). Rolled from the game's committed seed; the replay's "
        "Verification checks them."
    ),
    "event.second_strike": "The {who} strikes second: {hits} hits.",
    "event.losses_taken": "{force} lost {n} counters.",
    "event.losses_taken.one": "{force} lost 1 counter.",
    "event.losses_taken.in": "{force} lost {n} counters in {area}.",
    "event.losses_taken.in.one": "{force} lost 1 counter in {area}.",
    "event.fight_over": "The fight is over.",
    "event.fight_again": "The attacker fights again, against {target}.",
    "event.city_taken": "{force} took the city of {area}.",
    "event.city_entered": "{force} moved into the city of {area}.",
    "event.stayed": "{force} stayed in {area}.",
    "event.retreated": "{force} retreated from {frm} to {to}.",
    "event.area_settled": "{area} settles.",
    "event.force_eliminated": "{force} is eliminated.",
    "event.hand_discarded": "{side} discarded the hand.",
    "event.hand_discarded.you": "You discarded your hand.",
    "event.turn_ended": "Turn {turn} ends.",
    "event.resigned": "{who} resigned.",
    "event.resigned.you": "You resigned.",
    "event.game_ended": "Game over: {head} {reason}",
    "command.bid": "bid {rp} RP",
    "command.play": "play {card} {face} for {action}",
    "command.face.up": "face up",
    "command.face.down": "face down",
    "command.action.military": "military",
    "command.action.reinforcement": "reinforcement",
    "command.action.diplomacy": "diplomacy",
    "command.action.weather": "weather",
    "command.action.text": "text",
    "command.path.none": "attack in place",
    "command.pass": "pass",
    "command.operate": "operate with {force} from {area} to {path}",
    "command.choose": "choose option {option}",
    "command.standing": "set standing instructions: {mode}",
    "command.resign": "resign",
    # the decision owed, inside the page's banner ("Your turn: …." / "Waiting for … to ….")
    "turn.bid": "bid for Lianheng",
    "turn.action": "play a card face up or face down, or pass",
    "turn.operate": "carry out a military operation",
    "turn.choose": "choose one of the options",
    "turn.respond": "play a Break card or let the moment pass",
    "turn.pick": "pick a card",
    "prompt.bid": "Bid the RP Qin will reach if you play Lianheng.",
    "prompt.action": "Play a card face up or face down, or pass.",
    "prompt.operate": "Choose the counters and their path (or a direct attack).",
    "prompt.choose": "Choose one of the options.",
    "prompt.respond": "Play a Break card, or let the moment pass.",
    # why a card of the hand cannot be played face up now (the view's decision.plays.why)
    "play.up.response": "only played in answer to the opponent",
    "play.up.eliminated": "its force is eliminated",
    "play.up.condition": "its condition does not hold now",
    "play.down.none": "no generic action is open now",
    "end": "{head}. {reason}",
    "end.won": "{winner} wins",
    "end.won.you": "You win",
    "end.lost.you": "You lose",
    "end.draw": "A draw",
    "end.reason.rp": "On resource points: Qin holds {qin_rp} RP of the {target} it needed.",
    "end.reason.rp.reached": "On resource points: Qin holds {qin_rp} RP, its target was {target}.",
    "end.reason.rp.plain": "On resource points.",  # where the figures are not at hand
    "end.reason.qin_eliminated": "Qin is eliminated.",
    "end.reason.resignation": "By resignation.",
    "end.reason.resignation.you": "You resigned.",
    "end.reason.resignation.other": "{loser} resigned.",
    "end.reason.time": "On time.",
    "end.reason.time.you": "You ran out of time.",
    "end.reason.time.other": "{loser} ran out of time.",
    "end.reason.agreement": "By agreement.",
    # the two-games match (match.py): what the new-game form says of it, and its result
    "match.label": "Victory: two games (each player Lianheng once; more Qin RP wins)",
    "match.basic_only": (
        "a two-game match decides the winner by the two games' Qin RP: play it with the "
        "basic victory rule, not the competitive bid"
    ),
    "match.drawn": "The match is drawn: {why}.",
    "match.won.first": "The match goes to the first player of the first game: {why}.",
    "match.won.second": "The match goes to the second player of the first game: {why}.",
    "match.won.you": "You won the match: {why}.",
    "match.lost.you": "You lost the match: {why}.",
    "match.why.rp": "{why} ({rp} to {other} RP)",
    "match.why.more_rp": "more Qin RP as Lianheng",
    "match.why.equal_rp": "equal Qin RP as Lianheng",
    "match.why.resignation": "a resignation",
    "match.why.time": "a player's time ran out",
    "match.why.agreement": "a draw agreed",
    "match.why.other": "{reason}",
}


def _names() -> dict[str, str]:
    """The names and card texts the board shows (web/), from the data file."""
    raw = json.loads(PATH.read_text(encoding="utf-8"))
    out = {f"area.{a['id']}": a["en"] for a in raw["areas"]}
    out |= {f"area.{a['id']}.rp": str(a["rp"]) for a in raw["areas"]}
    for b in raw["borders"]:  # the map's borders: type, and the downstream end of a waterway
        out[f"border.{b['a']}.{b['b']}"] = b["type"] + (
            f":{b['downstream']}" if b["downstream"] else ""
        )
    for force in raw["forces"]:
        out[f"force.{force['id']}"] = force["en"]
        out |= {f"general.{g['id']}": g["en"] for g in force.get("generals", [])}
        out |= {f"general.{g['id']}.icons": " ".join(g["icons"]) for g in force.get("generals", [])}
    for column in raw["diplomacy_track"]["columns"]:
        out |= {f"box.{b['id']}": b["en"] for b in column["boxes"]}
    for scenario in raw["scenarios"]:  # named as the data's id reads: "Five Kingdoms"
        out[f"scenario.{scenario['id']}"] = scenario["id"].replace("_", " ").title()
    for cards in raw["decks"].values():
        for card in cards:
            out[f"card.{card['id']}"] = card["name"]
            out[f"card.{card['id']}.text"] = " / ".join(card.get("options") or [])
    return out


MESSAGES.update(_names())
MESSAGES.update(GLOSSARY)
MESSAGES.update(PAGE)


def _card(card: Any) -> Message:
    return msg(f"card.{kind_of(card)}") if card else msg("card.hidden")


def _known(prefix: str, x: Any) -> Any:
    """The message ``<prefix>.<x>`` when there is one, else the raw value as it is."""
    return msg(f"{prefix}.{x}") if f"{prefix}.{x}" in MESSAGES else str(x)


def _name(x: Any) -> str:
    if x in D.names:
        return D.names[x]
    return str(x).replace("_", " ").title() if x else "none"


# -- the log, per reader ------------------------------------------------------------------
# Each event says who acted by side; ``rules.readers`` stamps the public seat -> side map
# (``sides``) and the factions of the forces it names (``factions``), so one event tells
# whether the reader (a seat, None for a spectator) is the actor. Without them (an event
# stored before they were stamped, a redacted stub, a spectator) every side is named.
def _reader_side(ev: Mapping[str, Any], seat: str | None) -> str | None:
    return (ev.get("sides") or {}).get(seat) if seat is not None else None


def _side(side: Any, mid: bool = False) -> Message:
    if side not in ("lianheng", "alliance"):
        return msg("side.unknown")
    return msg(f"side.{side}.mid" if mid else f"side.{side}")


def _force(ev: Mapping[str, Any], force: Any, mine: str | None, mid: bool = False) -> Any:
    """A force's name; "Your Wei" when the force fought for the reader's side."""
    name = msg(f"force.{force}") if f"force.{force}" in MESSAGES else _name(force)
    if mine is not None and (ev.get("factions") or {}).get(force) == mine:
        return msg("force.yours.mid" if mid else "force.yours", force=name)
    return name


def _seen_card(card: Any) -> Message:
    """A card the reader may see by name (never called for one they may not)."""
    if not card:
        return msg("card.hidden")
    key = f"card.{kind_of(card)}"
    return msg(key) if key in MESSAGES else msg("card.hidden")


def _area(a: Any) -> Any:
    return msg(f"area.{a}") if f"area.{a}" in MESSAGES else _name(a)


def _counters(ev: Mapping[str, Any]) -> int:
    return (ev.get("armies") or 0) + len(ev.get("generals") or [])


def _by_side(ev: Mapping[str, Any], key: str, side: Any, mine: str | None, **values: Any):
    """``key`` told by ``side``: ``key.you`` when it is the reader's, else ``key`` with the
    side named (as ``{side}``)."""
    if mine is not None and side == mine and f"{key}.you" in MESSAGES:
        return msg(f"{key}.you", **values)
    return msg(key, side=_side(side), **values)


def _by_seat(key: str, who: Any, seat: str | None, **values: Any):
    if who is not None and who == seat:
        return msg(f"{key}.you", **values)
    return msg(key, who=msg(f"seat.{who}") if f"seat.{who}" in MESSAGES else "A player", **values)


def _lost(ev: Mapping[str, Any]) -> int:
    return sum(v if isinstance(v, int) else len(v) for v in (ev.get("lost") or {}).values())


def _event(ev: Mapping[str, Any], seat: str | None):
    t, g = ev["type"], ev.get
    mine = _reader_side(ev, seat)
    side = g("side")
    if t == "game_started":
        return msg(
            "event.game_started",
            scenario=_known("scenario", g("scenario")),
            turns=g("turns"),
            target=g("target"),
        )
    if t == "board_set":
        return _by_side(ev, "event.board_set", (g("initiative") or {}).get("side"), mine)
    if t in ("bid_made", "standing_set", "resigned"):
        return _by_seat(f"event.{t}", g("seat"), seat)
    if t == "die_rolled":
        if g("why") == "bid_tie":
            return msg(
                "event.die_rolled",
                value=g("value"),
                first=msg("seat.first"),
                second=msg("seat.second"),
            )
        return msg("event.die_rolled.other", value=g("value"))
    if t == "bids_revealed":
        bids = [_by_seat("event.bid", k, seat, rp=v) for k, v in (g("bids") or {}).items()]
        high = next((k for k, v in (g("sides") or {}).items() if v == "lianheng"), None)
        return _by_seat("event.bids_revealed", high, seat, bids=bids, target=g("target"))
    if t in ("deck_shuffled", "deck_searched"):
        if side is None:  # the whole event is the server's: nobody is told whose
            return msg(f"event.{t}.unknown")
        return _by_side(ev, f"event.{t}", side, mine)
    if t == "turn_started":
        return _by_side(ev, "event.turn_started", g("first"), mine, turn=g("turn"))
    if t == "cards_drawn":
        if mine is not None and side == mine and "cards" in ev:
            cards = [_seen_card(c) for c in g("cards") or []]
            return (
                msg("event.cards_drawn.you", cards=cards)
                if cards
                else msg("event.cards_drawn.you.none")
            )
        n = len(g("cards") or []) or g("count") or 0
        return msg(
            "event.cards_drawn.one" if n == 1 else "event.cards_drawn", side=_side(side), n=n
        )
    if t == "card_played":
        own = mine is not None and side == mine
        if g("face") == "up":
            key = (
                "event.card_played.response"
                if g("action") == "response"
                else "event.card_played.up"
            )
            return _by_side(ev, key, side, mine, card=_seen_card(g("card")))
        action = msg(
            f"action.{g('action')}" if f"action.{g('action')}" in MESSAGES else "action.other"
        )
        # a face-down card is named to its owner only (never to the other side, even after
        # the game, nor to a spectator: §7.3)
        card = _seen_card(g("card")) if own else msg("card.hidden")
        return _by_side(ev, "event.card_played", side, mine, card=card, action=action)
    if t in ("card_discarded", "hand_discarded"):
        own = mine is not None and side == mine
        return _by_side(ev, f"event.{t}", side, mine, card=_seen_card(g("card")) if own else "")
    if t == "operation_started" and (g("op") or {}).get("owed"):
        return _by_side(ev, "event.operation_started.owed", side, mine)
    if t in ("passed", "operation_started", "window_opened"):
        return _by_side(ev, f"event.{t}", side, mine)
    if t == "phase_ended":
        nxt = g("next")
        if mine is not None and nxt == mine:
            return msg("event.phase_ended.you")
        return msg("event.phase_ended", whose=_whose(nxt, None, start=True))
    if t == "initiative_set":
        key = "event.initiative_set.flipped" if g("flipped") else "event.initiative_set"
        return msg(key, whose=_whose(side, mine))
    if t == "diplomacy_moved":
        return _by_side(
            ev,
            "event.diplomacy_moved",
            g("by"),
            mine,
            force=_force(ev, g("force"), None),
            frm=_box(g("from")),
            to=_box(g("to")),
        )
    if t == "reinforced":
        return _by_side(
            ev,
            "event.reinforced",
            g("by"),
            mine,
            force=_force(ev, g("force"), None),
            area=_area(g("area")),
        )
    if t == "response_resolved":
        return _by_side(ev, "event.response_resolved", side, mine, card=_seen_card(g("card")))
    if t == "chosen":
        kind = f"choice.{g('kind')}" if f"choice.{g('kind')}" in MESSAGES else "choice.other"
        return _by_side(ev, "event.chosen", side, mine, kind=msg(kind))
    force = _force(ev, g("force"), mine)
    if t == "attacked_directly":
        n = _counters(ev)
        key = "event.attacked_directly" + (".one" if n == 1 else "")
        return msg(key, force=force, area=_area(g("area")), n=n)
    if t == "moved":
        path, n = [_area(a) for a in g("path") or []], _counters(ev)
        key = "event.moved" + (".via" if len(path) > 1 else "") + (".one" if n == 1 else "")
        via = Join(tuple(path[:-1]), ", ")
        to = path[-1] if path else _area(g("from"))
        return msg(key, force=force, n=n, frm=_area(g("from")), via=via, to=to)
    if t == "target_chosen":
        target = _force(ev, g("target"), mine, mid=True)
        return msg("event.target_chosen", force=force, target=target, area=_area(g("area")))
    if t == "fight_started":
        target = _force(ev, g("target"), mine, mid=True)
        if g("shift"):
            return msg(
                "event.fight_started.shift",
                area=_area(g("area")),
                force=_force(ev, g("force"), mine, mid=True),
                target=target,
                shifted=_force(ev, g("target"), None),
                to=_box(g("shift").get("to")),
            )
        return msg(
            "event.fight_started",
            area=_area(g("area")),
            force=_force(ev, g("force"), mine, mid=True),
            target=target,
        )
    if t == "dice_rolled":
        dice, res = g("dice") or {}, g("results") or {}
        a, d = res.get("attacker") or {}, res.get("defender") or {}
        return msg(
            "event.dice_rolled",
            area=_area(g("area")),
            force=_force(ev, g("force"), mine, mid=True),
            target=_force(ev, g("target"), mine, mid=True),
            a=dice.get("attacker"),
            d=dice.get("defender"),
            am=a.get("modified", dice.get("attacker")),
            ah=a.get("hits", 0),
            dm=d.get("modified", dice.get("defender")),
            dh=d.get("hits", 0),
        )
    if t == "second_strike":
        return msg(
            "event.second_strike",
            who=msg(f"role.{side}") if side in ("attacker", "defender") else str(side),
            hits=g("hits"),
        )
    if t == "losses_taken":
        n = _lost(ev)
        where = list(g("areas") or {})  # the board it changed: the fight's area
        key = "event.losses_taken" + (".in" if len(where) == 1 else "") + (".one" if n == 1 else "")
        return msg(key, force=force, n=n, area=_area(where[0]) if len(where) == 1 else "")
    if t in ("city_taken", "city_entered", "stayed"):
        return msg(f"event.{t}", force=force, area=_area(g("area")))
    if t == "retreated":
        return msg("event.retreated", force=force, frm=_area(g("from")), to=_area(g("to")))
    if t == "force_eliminated":
        return msg("event.force_eliminated", force=force)
    if t == "bolstered":
        n = _counters(ev)
        key = "event.bolstered" + (".one" if n == 1 else "")
        return msg(key, force=force, area=_area(g("area")), n=n)
    if t == "fight_again":
        return msg("event.fight_again", target=_force(ev, g("target"), mine, mid=True))
    if t == "area_settled":
        return msg("event.area_settled", area=_area(g("area")))
    if t == "card_cancelled":
        key = "event.card_cancelled.removed" if g("removed") else "event.card_cancelled"
        return msg(key, card=_seen_card(g("card")))
    if t in ("general_removed", "general_placed"):
        return msg(f"event.{t}", general=_general(g("general")), area=_area(g("area")))
    if t == "general_left":
        return msg("event.general_left", general=_general(g("general")))
    if t == "mobilized":
        return msg("event.mobilized", areas=[_area(a) for a in g("areas_placed") or []])
    if t in ("turn_ended",):
        return msg("event.turn_ended", turn=g("turn"))
    if f"event.{t}" in MESSAGES:
        return msg(f"event.{t}")
    return None


def _whose(side: Any, mine: str | None, start: bool = False) -> Message:
    if mine is not None and side == mine:
        return msg("whose.you")
    if side in ("lianheng", "alliance"):
        return msg(f"side.{side}.whose" + (".start" if start else ""))
    return msg("side.unknown")


def _box(box: Any) -> Any:
    return msg(f"box.{box}") if f"box.{box}" in MESSAGES else _name(box)


def _general(gen: Any) -> Any:
    return msg(f"general.{gen}") if f"general.{gen}" in MESSAGES else _name(gen)


class Text:
    messages = MESSAGES

    @staticmethod
    def event(ev: Mapping[str, Any], seat: str | None):
        if ev["type"] == "game_ended":
            return "event.game_ended", Text.end(ev, seat)[1]
        return _event(ev, seat)

    @staticmethod
    def command(cmd: Mapping[str, Any], seat: str | None):
        t = cmd.get("type")
        if t == "bid":
            return "command.bid", {"rp": cmd.get("rp")}
        if t == "play":
            return "command.play", {
                "card": _card(cmd.get("card")),
                "face": _known("command.face", cmd.get("face")),
                "action": _known("command.action", cmd.get("action")),
            }
        if t == "operate":
            path = [_area(a) for a in cmd.get("path") or []]
            return "command.operate", {
                "force": _known("force", cmd.get("force")),
                "area": _area(cmd.get("area")),
                "path": Join(tuple(path), " - ") if path else msg("command.path.none"),
            }
        if t == "choose":
            return "command.choose", {"option": cmd.get("option")}
        if t == "pick":
            return "command.pick", {"card": _card(cmd.get("card"))}
        if t == "standing":
            return "command.standing", {"mode": cmd.get("mode")}
        return f"command.{t}" if f"command.{t}" in MESSAGES else "command.pass", {}

    @staticmethod
    def prompt(kind: str, seat: str | None):
        # a phrase, not the decision panel's sentence: the banner adds its own full stop
        return (f"turn.{kind}" if f"turn.{kind}" in MESSAGES else "turn.choose"), {}

    @staticmethod
    def end(outcome: Mapping[str, Any], seat: str | None):
        """How the game ended, from ``seat``'s side ("You win", "You resigned.") or, for a
        spectator, naming the sides (their seats before the sides are known)."""
        winner = outcome.get("winner")
        sides = outcome.get("sides") or {}
        loser = next((s for s in SEATS if s != winner), None) if winner else None

        def who(s: str) -> Message:
            return msg(f"side.{sides[s]}") if s in sides else msg(f"seat.{s}")

        if winner is None:
            head = msg("end.draw")
        elif winner == seat:
            head = msg("end.won.you")
        elif seat in SEATS:
            head = msg("end.lost.you")
        else:
            head = msg("end.won", winner=who(winner))
        reason = outcome.get("reason")
        if reason in ("resignation", "time") and loser:
            mine = seat == loser
            reason_msg = msg(
                f"end.reason.{reason}.{'you' if mine else 'other'}",
                **({} if mine else {"loser": who(loser)}),
            )
        elif reason == "rp" and "qin_rp" in outcome:
            reached = outcome["qin_rp"] >= outcome.get("target", 0)
            reason_msg = msg(
                "end.reason.rp.reached" if reached else "end.reason.rp",
                qin_rp=outcome["qin_rp"],
                target=outcome.get("target"),
            )
        else:
            key = "end.reason.rp.plain" if reason == "rp" else f"end.reason.{reason}"
            reason_msg = msg(key if key in MESSAGES else "end.reason.agreement")
        return "end", {"head": head, "reason": reason_msg}


TEXT = Text()
