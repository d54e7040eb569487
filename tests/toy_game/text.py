"""Every word Duel shows, by message id."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MESSAGES = {
    "seat.north": "North",
    "seat.south": "South",
    "event.dealt": "Each player is dealt {hand} cards.",
    "event.hand_dealt": "{who} {are} dealt {cards}.",
    "event.hand_dealt.hidden": "{who} {are} dealt {count} cards.",
    "event.card_played": "{who} {play} the {card}, face down.",
    "event.card_played.hidden": "{who} {play} a card face down.",
    "event.cards_shown": "The cards are shown: {cards}; {result}.",
    "event.cards_shown.tie": "a tie",
    "event.cards_shown.won": "{winner} wins the round",
    "event.resigned": "{who} resign{s}.",
    "event.game_over": "Game over: {head} {reason}",
    "command.play": "play the {card}",
    "command.resign": "resign",
    "prompt.play": "Play a card face down.",
    "end": "{head} {reason}",  # the pages show the two apart
    "end.won": "{winner} wins",
    "end.draw": "A draw",
    "end.reason.rounds": "on rounds.",
    "end.reason.resignation": "by resignation.",
    "end.reason.time": "on time.",
    "end.reason.agreement": "by agreement.",
}


def _who(seat: str, me: str | None) -> tuple[str, bool]:
    return ("You", True) if seat == me else (MESSAGES[f"seat.{seat}"], False)


class Text:
    messages = MESSAGES

    @staticmethod
    def event(event: Mapping[str, Any], seat: str | None):
        kind = event["type"]
        if kind == "dealt":
            return "event.dealt", {"hand": event["hand"]}
        if kind in ("hand_dealt", "card_played", "resigned"):
            who, you = _who(event["seat"], seat)
            if kind == "hand_dealt":
                are = "are" if you else "is"
                if "cards" in event:
                    cards = ", ".join(map(str, event["cards"]))
                    return "event.hand_dealt", {"who": who, "are": are, "cards": cards}
                count = event.get("count", "some")
                return "event.hand_dealt.hidden", {"who": who, "are": are, "count": count}
            if kind == "card_played":
                verb = "play" if you else "plays"
                if "card" in event:
                    return "event.card_played", {"who": who, "play": verb, "card": event["card"]}
                return "event.card_played.hidden", {"who": who, "play": verb}
            return "event.resigned", {"who": who, "s": "" if you else "s"}
        if kind == "cards_shown":
            cards = ", ".join(f"{MESSAGES['seat.' + s]} {c}" for s, c in event["cards"].items())
            winner = event["winner"]
            result = (MESSAGES["event.cards_shown.tie"] if winner is None else
                      MESSAGES["event.cards_shown.won"].format(
                          winner=MESSAGES[f"seat.{winner}"]))  # fmt: skip
            return "event.cards_shown", {"cards": cards, "result": result}
        if kind == "game_over":
            _, values = Text.end(event, seat)
            return "event.game_over", values
        return None

    @staticmethod
    def command(command: Mapping[str, Any], seat: str | None):
        if command.get("type") == "play":
            return "command.play", {"card": command.get("card")}
        return "command.resign", {}

    @staticmethod
    def prompt(kind: str, seat: str | None):
        return "prompt.play", {}

    @staticmethod
    def end(outcome: Mapping[str, Any], seat: str | None):
        winner = outcome.get("winner")  # head and reason are messages: the pages show each
        head = (
            ("end.draw", {}) if winner is None else ("end.won", {"winner": (f"seat.{winner}", {})})
        )
        return "end", {"head": head, "reason": (f"end.reason.{outcome['reason']}", {})}


TEXT = Text()
