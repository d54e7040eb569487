"""What the pages print, said once, on the server: each event's sentence from a
perspective, the decision a game waits for, how it ended, a command in words.

The game's own events, commands, prompts and endings are its package's ``text``
(``games.base.Text``); the events the service writes into every game (``SYSTEM_FIELDS``:
seats taken, handed to the computer, clocks, draws, …) are said here in generic words,
with the seats' labels from the game's catalogue. Messages of both are rendered with
``games.messages.render``; this module's own ids start with ``table.``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events import i18n
from events.notifications import NOTICES
from events.schemas import SYSTEM_FIELDS
from games.messages import SEPARATORS, Join, Message, msg, render

TABLE: dict[str, str] = {
    # how a list's items are joined (games.messages.SEPARATORS), in the reader's language
    **{key: sep for sep, key in SEPARATORS.items()},
    "table.you": "You",
    "table.game_created": "The game was created.",
    "table.game_created.from": "The game was created. It continues replay {replay} from "
    "step {step}, as {seat}.",
    "table.seat_joined": "{who} took the {seat} seat.",
    "table.seat_joined.ai": "{who} took the {seat} seat (the computer, {level}).",
    # the computer's levels (service/pages.py LEVEL_LABELS), as the sentences above say them
    "table.level.random": "random",
    "table.level.easy": "easy",
    "table.level.medium": "medium",
    "table.level.hard": "hard",
    "table.position_set": "The game goes on from a position of a finished game; what could "
    "not be known there is dealt afresh.",
    "table.seat_handed_to_ai": "{who} handed the {seat} seat to the computer ({level}).",
    "table.seat_taken_back": "{who} took the {seat} seat back from the computer.",
    "table.command_given": "{who} decides: {command}",
    "table.command_given.you": "You decide: {command}",
    "table.command_given.ai": "{who} (the computer, {level}) decides: {command}",
    "table.command_given.hidden": "{who} decides.",
    "table.seed_revealed": "The game's secret seed is revealed: every shuffle can now be checked.",
    "table.vacation_taken": "{who} took {days} vacation days: that clock stops meanwhile.",
    "table.vacation_taken.one": "{who} took 1 vacation day: that clock stops meanwhile.",
    "table.clock_expired": "{who} ran out of time.",
    "table.clock_expired.ai": "{who} ran out of time: the computer ({level}) makes this decision.",
    "table.draw_offered": "{who} offered a draw.",
    "table.draw_declined": "{who} declined the draw.",
    "table.draw_accepted": "{who} accepted the draw.",
    "table.game_decided": "Game over: {end}",
    "table.over": "The game is over.",
    "table.open": "Waiting for {seats} to take their seat.",
    "table.your_turn": "Your turn: {prompt}.",
    "table.waiting": "Waiting for {waits}.",
    "table.waits": "{seat} to {prompt}",
    "table.goes_on": "The game goes on…",
    # a game of a match of linked games (events.matches); the page and the seek list say it
    "table.match.game": "Game {game} of {of} of a match.",
    "table.match.next": "Play game {game}",
    "table.match.seek": "a match of {of} games",
    # what notifications, webhooks and digests say (kept in events.notifications)
    **NOTICES,
}


_tables: dict[tuple[int, str], tuple[Any, dict[str, str]]] = {}


def messages(rules: Any, locale: str | None = None) -> dict[str, str]:
    """The table the sentences about ``rules``' games are rendered with, in ``locale``
    (default: the request's, see ``service.i18n``): the game's messages translated by its
    package's catalog, this module's by the platform's (made once per locale)."""
    if locale is None:
        from service.i18n import locale as current

        locale = current()
    key = (id(rules), locale)
    found = _tables.get(key)
    if found is None or found[0] is not rules:
        words = i18n.translations(str(i18n.folder_of(rules)), i18n.locale_of(locale))
        # the seats' labels: the catalogue's words, as the forms say them
        seats = {f"{SEAT_LABEL}{info.id}": words.pgettext("catalogue", info.label)
                 for info in rules.catalogue.seats}  # fmt: skip
        table = {**i18n.table(rules.text.messages, i18n.folder_of(rules), locale),
                 **i18n.table(TABLE, i18n.PLATFORM, locale), **seats}  # fmt: skip
        found = _tables[key] = (rules, table)
    return found[1]


SEAT_LABEL = "catalogue.seat."  # + a seat's id: its label in the table (``messages``)


def label(rules: Any, seat: Any) -> Message:
    """A seat as players read it: its catalogue label, in the reader's language."""
    for info in rules.catalogue.seats:
        if info.id == seat:
            return msg("table.seat", label=msg(f"{SEAT_LABEL}{info.id}"))
    return msg("table.seat", label=str(seat))


def _who(rules: Any, seat: Any, me: str | None) -> Message:
    return msg("table.you") if seat is not None and seat == me else label(rules, seat)


def _level(kind: Any) -> Message | str:
    """A computer level ("ai:easy" or "easy") in the reader's language; one the table does
    not know, as it is."""
    level = str(kind)[3:] if str(kind).startswith("ai:") else str(kind)
    key = f"table.level.{level}"
    return msg(key) if key in TABLE else level


def _table_event(rules: Any, kind: str, p: Mapping[str, Any], me: str | None) -> Message | None:
    seat = p.get("seat")
    who = _who(rules, seat, me)
    if kind == "game_created":
        source = p.get("from")
        if isinstance(source, Mapping):
            return msg("table.game_created.from", replay=source.get("replay"),
                       step=source.get("step"), seat=label(rules, source.get("seat")))  # fmt: skip
        return msg("table.game_created")
    if kind == "seat_joined":
        player = str(p.get("player") or "")
        if player.startswith("ai:"):
            return msg("table.seat_joined.ai", who=who, seat=label(rules, seat),
                       level=_level(player))  # fmt: skip
        return msg("table.seat_joined", who=who, seat=label(rules, seat))
    if kind == "position_set":
        return msg("table.position_set")
    if kind == "seat_handed_to_ai":
        return msg("table.seat_handed_to_ai", who=who, seat=label(rules, seat),
                   level=_level(p.get("level")))  # fmt: skip
    if kind == "seat_taken_back":
        return msg("table.seat_taken_back", who=who, seat=label(rules, seat))
    if kind == "command_given":
        if not isinstance(p.get("command"), Mapping):
            return msg("table.command_given.hidden", who=who)
        said = rules.text.command(p["command"], seat)
        by = str(p.get("by") or "")
        if by.startswith("ai:"):
            return msg("table.command_given.ai", who=label(rules, seat), level=_level(by),
                       command=said)  # fmt: skip
        if seat == me:
            return msg("table.command_given.you", command=said)
        return msg("table.command_given", who=who, command=said)
    if kind == "seed_revealed":
        return msg("table.seed_revealed")
    if kind == "vacation_taken":
        days = p.get("days")
        key = "table.vacation_taken.one" if days == 1 else "table.vacation_taken"
        return msg(key, who=who, days=days)
    if kind == "clock_expired":
        action = str(p.get("action") or "")
        if action.startswith("ai:"):
            return msg("table.clock_expired.ai", who=who, level=_level(action))
        return msg("table.clock_expired", who=who)
    if kind in ("draw_offered", "draw_declined", "draw_accepted"):
        return msg(f"table.{kind}", who=who)
    if kind == "game_decided":
        return msg("table.game_decided", end=rules.text.end(p, me))
    return None


def event_text(rules: Any, event: Mapping[str, Any], me: str | None,
               table: Mapping[str, str] | None = None) -> str | None:  # fmt: skip
    """The sentence that tells ``event`` (an envelope as the caller may see it: its
    ``type`` and ``payload``) to ``me`` (a seat, or None); None: nothing worth telling.
    ``table``: ``messages(rules)``, when the caller tells several events (finding the
    request's locale costs more than telling an event)."""
    kind = str(event.get("type"))
    payload = event.get("payload") or {}
    if kind in SYSTEM_FIELDS:
        said = _table_event(rules, kind, payload, me)
    else:
        said = rules.text.event({**payload, "type": kind}, me)
    return None if said is None else render(messages(rules) if table is None else table, said)


def with_text(rules: Any, event: dict[str, Any], me: str | None,
              table: Mapping[str, str] | None = None) -> dict[str, Any]:  # fmt: skip
    """The envelope dict with its sentence added as ``text``."""
    event["text"] = event_text(rules, event, me, table)
    return event


def command_text(rules: Any, command: Mapping[str, Any], seat: str | None) -> str:
    return render(messages(rules), rules.text.command(command, seat))


def outcome_text(rules: Any, outcome: Mapping[str, Any] | None,
                 me: str | None) -> dict[str, str] | None:  # fmt: skip
    """How the game ended for ``me``: ``head`` ("You win"), ``reason`` ("On points after
    round 9.") and both as one ``text``."""
    if outcome is None:
        return None
    said = rules.text.end(outcome, me)
    table = messages(rules)
    parts = said[1]
    head = render(table, parts["head"]) if "head" in parts else ""
    reason = render(table, parts["reason"]) if "reason" in parts else ""
    return {"head": head, "reason": reason, "text": render(table, said)}


def turn_text(rules: Any, game: Any, me: str | None) -> str:
    """Whose turn it is and for what, for ``me`` (None: a spectator, or a seat the
    computer plays now)."""
    if game.outcome is not None:
        said = msg("table.over")
    elif game.open_seats:
        said = msg("table.open", seats=Join(tuple(label(rules, s) for s in game.open_seats),
                                            " and "))  # fmt: skip
    elif me is not None and me in game.pending:
        said = msg("table.your_turn", prompt=rules.text.prompt(game.pending[me], me))
    elif game.pending:
        waits = tuple(msg("table.waits", seat=label(rules, s),
                          prompt=rules.text.prompt(kind, None))
                      for s, kind in game.pending.items())  # fmt: skip
        said = msg("table.waiting", waits=Join(waits, " and "))
    else:
        said = msg("table.goes_on")
    return render(messages(rules), said)


def pending_text(rules: Any, pending: Mapping[str, str]) -> str:
    """What a position waits for, for anyone ("Waiting for <seat> to <prompt>.")."""
    if not pending:
        return ""
    waits = tuple(msg("table.waits", seat=label(rules, s), prompt=rules.text.prompt(k, None))
                  for s, k in pending.items())  # fmt: skip
    return render(messages(rules), msg("table.waiting", waits=Join(waits, " and ")))
