"""Every word Commander shows, by message id (``games.messages``): names, what each event
and command says from a seat's side, the decisions owed, how a game ends. The page parts'
own words (``web/*.js``) are the ``page.*`` messages of ``page.py``, merged here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.commander.board import SEATS
from games.commander.page import PAGE
from games.messages import Message, msg

MESSAGES: dict[str, str] = {
    "seat.blue": "Blue",
    "seat.red": "Red",
    "piece.C": "Commander",
    "piece.O": "Officer",
    "piece.S": "Soldier",
    "piece.C.letter": "C",
    "piece.O.letter": "O",
    "piece.S.letter": "S",
    "you": "You",
    # events, from a seat's side ("you") or naming the seat
    "event.game_set.standard": "The pieces stand in the standard arrangement; Blue moves first.",
    "event.game_set.secret": "Each player arranges their sixteen pieces on their side, in secret.",
    "event.arranged.you": "You arranged your pieces.",
    "event.arranged": "{who} has arranged their pieces.",
    "event.revealed": "Both arrangements are revealed; Blue moves first.",
    "event.moved": "{who} moved the {piece} from {start} to {to}.",
    "event.moved.capture": "{who} moved the {piece} from {start} to {to} and captured the "
    "{captured}.",
    "event.game_ended": "Game over: {head}. {reason}",
    # commands
    "command.move": "move {start} to {to}",
    "command.arrange": "arrange the pieces: {pieces}",
    "command.resign": "resign",
    # the decisions owed (a phrase: the banner adds its own full stop), said to the seat
    # that owes it ("Your turn: …"), and with ".they" to the others ("Waiting for Red to …")
    "turn.move": "move a piece",
    "turn.arrange": "arrange your pieces",
    "turn.arrange.they": "arrange their pieces",
    # endings: the head, then the reason
    "end": "{head}. {reason}",
    "end.won": "{winner} wins",
    "end.won.you": "You win",
    "end.lost.you": "You lose",
    "end.draw": "A draw",
    "end.reason.commander_captured": "The {loser} Commander was captured.",
    "end.reason.commander_arrived": "The {winner} Commander reached the far side.",
    "end.reason.no_moves": "{loser} had no legal move.",
    "end.reason.no_captures": "Forty moves each without a capture.",
    "end.reason.repetition": "The same position came a third time.",
    "end.reason.resignation": "By resignation.",
    "end.reason.resignation.you": "You resigned.",
    "end.reason.resignation.other": "{loser} resigned.",
    "end.reason.time": "On time.",
    "end.reason.time.you": "You ran out of time.",
    "end.reason.time.other": "{loser} ran out of time.",
    "end.reason.agreement": "By agreement.",
    **PAGE,
}


def _who(seat: Any, me: str | None) -> Message:
    if seat == me:
        return msg("you")
    return msg(f"seat.{seat}") if seat in SEATS else ("raw", {"text": str(seat)})


def _piece(letter: Any) -> Message:
    key = f"piece.{letter}"
    return msg(key) if key in MESSAGES else ("raw", {"text": str(letter)})


class Text:
    messages = MESSAGES

    @staticmethod
    def event(ev: Mapping[str, Any], seat: str | None) -> Message | None:
        kind = ev.get("type")
        if kind == "game_set":
            return msg("event.game_set.standard" if ev.get("board") else "event.game_set.secret")
        if kind == "arranged":
            if ev.get("seat") == seat:
                return msg("event.arranged.you")
            return msg("event.arranged", who=_who(ev.get("seat"), seat))
        if kind == "revealed":
            return msg("event.revealed")
        if kind == "moved":
            values = {"who": _who(ev.get("seat"), seat), "piece": _piece(ev.get("piece")),
                      "start": ev.get("from"), "to": ev.get("to")}  # fmt: skip
            if ev.get("captured"):
                return msg("event.moved.capture", captured=_piece(ev["captured"]), **values)
            return msg("event.moved", **values)
        if kind == "game_ended":
            _, values = Text.end(ev, seat)
            return msg("event.game_ended", **values)
        return None

    @staticmethod
    def command(cmd: Mapping[str, Any], seat: str | None) -> Message:
        if cmd.get("type") == "arrange":
            return msg("command.arrange", pieces=str(cmd.get("pieces")))
        if cmd.get("type") == "resign":
            return msg("command.resign")
        return msg("command.move", start=str(cmd.get("from")), to=str(cmd.get("to")))

    @staticmethod
    def prompt(kind: str, seat: str | None) -> Message:
        key = f"turn.{kind}" if f"turn.{kind}" in MESSAGES else "turn.move"
        return msg(f"{key}.they" if seat is None and f"{key}.they" in MESSAGES else key)

    @staticmethod
    def end(outcome: Mapping[str, Any], seat: str | None) -> Message:
        """How the game ended, from ``seat``'s side ("You win") or naming the seats."""
        winner = outcome.get("winner")
        loser = next((s for s in SEATS if s != winner), None) if winner in SEATS else None
        if winner is None:
            head = msg("end.draw")
        elif winner == seat:
            head = msg("end.won.you")
        elif seat in SEATS:
            head = msg("end.lost.you")
        else:
            head = msg("end.won", winner=msg(f"seat.{winner}"))
        reason = outcome.get("reason")
        if reason in ("resignation", "time") and loser:
            mine = seat == loser
            why = msg(f"end.reason.{reason}.{'you' if mine else 'other'}",
                      **({} if mine else {"loser": msg(f"seat.{loser}")}))  # fmt: skip
        elif reason in ("commander_captured", "no_moves") and loser:
            why = msg(f"end.reason.{reason}", loser=msg(f"seat.{loser}"))
        elif reason == "commander_arrived" and winner in SEATS:
            why = msg("end.reason.commander_arrived", winner=msg(f"seat.{winner}"))
        else:
            key = f"end.reason.{reason}"
            why = msg(key if key in MESSAGES else "end.reason.agreement")
        return msg("end", head=head, reason=why)


TEXT = Text()
