"""Every word Warring States shows, by message id (``games.base.Text``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from games.warring_states.data import PATH, kind_of, load

D = load()
SIDE = {"lianheng": "Lianheng", "alliance": "the Alliance", None: "nobody"}

MESSAGES = {
    "seat.first": "First player",
    "seat.second": "Second player",
    "event.game_started": "A game of {scenario} begins ({turns} turns; Qin needs {target} RP).",
    "event.board_set": "The counters are set out; {side} holds the initiative.",
    "event.bid_made": "{who} made a sealed bid.",
    "event.die_rolled": "A die is rolled: {value}.",
    "event.bids_revealed": (
        "The bids are revealed: {bids}; {who} plays Lianheng, aiming at {target} RP."
    ),
    "event.deck_shuffled": "{side} shuffles the draw deck.",
    "event.turn_started": "Turn {turn} begins; {side} acts first.",
    "event.cards_drawn": "{side} draws {n} cards.",
    "event.card_played": "{side} plays {card} {face} for {action}.",
    "event.passed": "{side} passes.",
    "event.phase_ended": "{side}'s action phase begins.",
    "event.operation_started": "{side} directs a military operation.",
    "event.initiative_set": "The initiative token stands on {side}'s space{flipped}.",
    "event.diplomacy_moved": "{force}'s counter goes from {frm} to {to}, locked.",
    "event.reinforced": "{force} is reinforced in {area}.",
    "event.attacked_directly": "{force} attacks directly in {area} with {n} counters.",
    "event.moved": "{force} moves {n} counters from {frm} to {path}.",
    "event.target_chosen": "{force} attacks {target} in {area}.",
    "event.fight_started": "The fight in {area}: {force} against {target}{shift}.",
    "event.operation_step": "The card's next step.",
    "event.card_discarded": "{side} discards a card.",
    "event.deck_searched": "{side} shuffles the draw deck after searching it.",
    "event.card_cancelled": "{card} is cancelled{removed}.",
    "event.general_removed": "{general} is removed from {area}.",
    "event.general_placed": "{general} takes the field in {area}.",
    "event.mobilized": "Qin mobilizes in {areas}.",
    "event.bolstered": "{force} readies {n} counters in {area}.",
    "event.general_left": "{general} leaves the board.",
    "command.pick": "pick {card}",
    "prompt.pick": "Pick a card.",
    "event.window_opened": "{side} may answer with a Break card.",
    "event.window_skipped": "No response is possible.",
    "event.window_closed": "No more responses.",
    "event.response_resolved": "{side} responds with {card}.",
    "event.standing_set": "{who} set standing instructions for responses.",
    "event.decision_owed": "A decision is owed.",
    "event.chosen": "{side} chooses ({kind}).",
    "event.defence_fixed": "The defending counters are fixed.",
    "event.dice_rolled": "Dice in {area}: attacker {a}, defender {d}.",
    "event.second_strike": "The {who} strikes second: {hits} hits.",
    "event.losses_taken": "{force} loses {n} counters.",
    "event.fight_over": "The fight is over.",
    "event.fight_again": "The attacker fights again, against {target}.",
    "event.city_taken": "{force} takes the city of {area}.",
    "event.city_entered": "{force} moves into the city of {area}.",
    "event.stayed": "{force} stays in {area}.",
    "event.retreated": "{force} retreats from {frm} to {to}.",
    "event.area_settled": "{area} settles.",
    "event.force_eliminated": "{force} is eliminated.",
    "event.hand_discarded": "{side} discards the hand.",
    "event.turn_ended": "Turn {turn} ends.",
    "event.resigned": "{who} resigns.",
    "event.game_ended": "Game over: {head} {reason}",
    "command.bid": "bid {rp} RP",
    "command.play": "play {card} {face} for {action}",
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
    "end": "{head} {reason}",
    "end.won": "{winner} wins",
    "end.draw": "A draw",
    "end.reason.rp": "on resource points.",
    "end.reason.qin_eliminated": "Qin is eliminated.",
    "end.reason.resignation": "by resignation.",
    "end.reason.time": "on time.",
    "end.reason.agreement": "by agreement.",
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
    for cards in raw["decks"].values():
        for card in cards:
            out[f"card.{card['id']}"] = card["name"]
            out[f"card.{card['id']}.text"] = " / ".join(card.get("options") or [])
    return out


MESSAGES.update(_names())


def _card(card: Any) -> str:
    return "a card" if not card else D.cards[kind_of(card)].name


def _name(x: Any) -> str:
    if x in D.names:
        return D.names[x]
    return str(x).replace("_", " ").title() if x else "none"


class Text:
    messages = MESSAGES

    @staticmethod
    def event(ev: Mapping[str, Any], seat: str | None):
        t = ev["type"]
        g = ev.get
        side = SIDE.get(g("side"), str(g("side")))
        who = MESSAGES.get(f"seat.{g('seat')}", "A player")
        values: dict[str, Any] = {
            "game_started": {
                "scenario": _name(g("scenario")),
                "turns": g("turns"),
                "target": g("target"),
            },
            "board_set": {"side": SIDE.get((g("initiative") or {}).get("side"), "")},
            "bid_made": {"who": who},
            "die_rolled": {"value": g("value")},
            "bids_revealed": {
                "bids": ", ".join(
                    f"{MESSAGES.get('seat.' + k, k)} {v}" for k, v in (g("bids") or {}).items()
                ),
                "who": MESSAGES.get(
                    "seat."
                    + next((k for k, v in (g("sides") or {}).items() if v == "lianheng"), ""),
                    "",
                ),
                "target": g("target"),
            },
            "deck_shuffled": {"side": side},
            "turn_started": {"turn": g("turn"), "side": SIDE.get(g("first"), "")},
            "cards_drawn": {"side": side, "n": len(g("cards") or []) or g("count", 0)},
            "card_played": {
                "side": side,
                "card": _card(g("card")),
                "face": "face " + str(g("face")),
                "action": str(g("action")),
            },
            "passed": {"side": side},
            "phase_ended": {"side": SIDE.get(g("next"), "")},
            "operation_started": {"side": side},
            "initiative_set": {"side": side, "flipped": " (flipped)" if g("flipped") else ""},
            "diplomacy_moved": {
                "force": _name(g("force")),
                "frm": _name(g("from")),
                "to": _name(g("to")),
            },
            "reinforced": {"force": _name(g("force")), "area": _name(g("area"))},
            "attacked_directly": {
                "force": _name(g("force")),
                "area": _name(g("area")),
                "n": (g("armies") or 0) + len(g("generals") or []),
            },
            "moved": {
                "force": _name(g("force")),
                "n": (g("armies") or 0) + len(g("generals") or []),
                "frm": _name(g("from")),
                "path": " - ".join(_name(a) for a in g("path") or []),
            },
            "target_chosen": {
                "force": _name(g("force")),
                "target": _name(g("target")),
                "area": _name(g("area")),
            },
            "fight_started": {
                "area": _name(g("area")),
                "force": _name(g("force")),
                "target": _name(g("target")),
                "shift": f" ({_name(g('target'))} to {_name(g('shift')['to'])})"
                if g("shift")
                else "",
            },
            "window_opened": {"side": side},
            "response_resolved": {"side": side, "card": _card(g("card"))},
            "standing_set": {"who": who},
            "chosen": {"side": side, "kind": str(g("kind"))},
            "dice_rolled": {
                "area": _name(g("area")),
                "a": (g("dice") or {}).get("attacker"),
                "d": (g("dice") or {}).get("defender"),
            },
            "second_strike": {"who": str(g("side")), "hits": g("hits")},
            "losses_taken": {
                "force": _name(g("force")),
                "n": sum(v if isinstance(v, int) else len(v) for v in (g("lost") or {}).values()),
            },
            "fight_again": {"target": _name(g("target"))},
            "city_taken": {"force": _name(g("force")), "area": _name(g("area"))},
            "city_entered": {"force": _name(g("force")), "area": _name(g("area"))},
            "stayed": {"force": _name(g("force")), "area": _name(g("area"))},
            "retreated": {
                "force": _name(g("force")),
                "frm": _name(g("from")),
                "to": _name(g("to")),
            },
            "area_settled": {"area": _name(g("area"))},
            "force_eliminated": {"force": _name(g("force"))},
            "hand_discarded": {"side": side},
            "card_discarded": {"side": side},
            "deck_searched": {"side": side},
            "card_cancelled": {
                "card": _card(g("card")),
                "removed": " and removed from the game" if g("removed") else "",
            },
            "general_removed": {"general": _name(g("general")), "area": _name(g("area"))},
            "general_placed": {"general": _name(g("general")), "area": _name(g("area"))},
            "general_left": {"general": _name(g("general"))},
            "bolstered": {
                "force": _name(g("force")),
                "area": _name(g("area")),
                "n": (g("armies") or 0) + len(g("generals") or []),
            },
            "mobilized": {"areas": ", ".join(_name(a) for a in g("areas_placed") or [])},
            "turn_ended": {"turn": g("turn")},
            "resigned": {"who": who},
        }.get(t, {})
        if t == "game_ended":
            return "event.game_ended", Text.end(ev, seat)[1]
        if f"event.{t}" not in MESSAGES:
            return None
        return f"event.{t}", values

    @staticmethod
    def command(cmd: Mapping[str, Any], seat: str | None):
        t = cmd.get("type")
        if t == "bid":
            return "command.bid", {"rp": cmd.get("rp")}
        if t == "play":
            return "command.play", {
                "card": _card(cmd.get("card")),
                "face": "face " + str(cmd.get("face")),
                "action": str(cmd.get("action")),
            }
        if t == "operate":
            path = " - ".join(_name(a) for a in cmd.get("path") or []) or "attack in place"
            return "command.operate", {
                "force": _name(cmd.get("force")),
                "area": _name(cmd.get("area")),
                "path": path,
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
        winner = outcome.get("winner")
        head = (
            ("end.draw", {}) if winner is None else ("end.won", {"winner": (f"seat.{winner}", {})})
        )
        reason = outcome.get("reason")
        key = f"end.reason.{reason}" if f"end.reason.{reason}" in MESSAGES else "end.reason.rp"
        return "end", {"head": head, "reason": (key, {})}


TEXT = Text()
