"""The record of a finished game, which is also the export format (``docs/replay-format.md``).

A record is JSON Lines: line 1 the header (what the game was, who played it, how it ended,
the revealed seed, the chain's head), then one line per event, the whole envelope as it
was stored (``Envelope.to_dict()``, salt included: the game is over, nothing is hidden any
more, and the hash of a hidden event cannot be checked without its salt). Every line is
canonical JSON (sorted keys, no spaces), so the same game always gives the same bytes.

    record_of(store, game_id) -> Record     the record of a finished game (NotFinished else)
    header_of(events, game_id) -> dict      the header the events imply (verify compares)
    dumps(record) -> str                    the JSONL text
    loads(text) -> Record                   parse; RecordError names the line and the fault

The header is not covered by the hash chain: ``replays.verify`` checks every field of it
against the events. ``Record.events`` are the envelopes as stored (an event written under
an older schema version keeps it: that is what its hash covers); ``replays.replay`` and
``replays.verify`` upcast them when they fold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

import games
from events.envelope import ENVELOPE_FIELDS, Envelope, canonical
from events.projector import LoadedGame, apply
from events.schemas import MAX_DEPTH, depth_of
from events.store import EventStore, UnknownGame
from games.i18n import said

FORMAT = "bingfa-replay"
FORMAT_VERSION = 1
DRAW = "draw"

# header field -> the JSON types it may hold ("null" for None)
HEADER_FIELDS: dict[str, tuple[str, ...]] = {
    "format": ("str",),
    "format_version": ("int",),
    "id": ("str",),
    "game_id": ("str",),
    "game": ("str",),
    "rules_version": ("str",),
    "options": ("dict",),
    "rated": ("bool",),
    "seats": ("dict",),
    "handed_to_ai": ("dict",),
    "players": ("dict",),
    "result": ("str",),
    "reason": ("str",),
    "outcome": ("dict",),
    "started_at": ("str",),
    "ended_at": ("str",),
    "seed_sha256": ("str",),
    "seed": ("str",),
    "nonces": ("dict",),
    "head": ("str",),
    "events": ("int",),
    "imported": ("bool",),
}
# the header fields that say what the events say (the others name the record itself)
DERIVED_FIELDS = tuple(
    f for f in HEADER_FIELDS if f not in ("format", "format_version", "id", "game_id", "imported")
)
EVENT_FIELD_TYPES: dict[str, str] = {
    "seq": "int",
    "type": "str",
    "v": "int",
    "at": "str",
    "actor": "str",
    "visible_to": "str",
    "payload": "dict",
    "prev": "str",
    "hash": "str",
    "salt": "str",
}
_TYPES = {"str": str, "int": int, "bool": bool, "dict": dict, "list": list}


class RecordError(ValueError):
    """A record that cannot be read: the message names the line and what is wrong."""


class NotFinished(LookupError):
    """The game is still being played: it becomes a replay when it ends."""

    def __init__(self, game_id: str) -> None:
        super().__init__(said("game {game_id!r} is still being played: its replay is made "
                              "when it ends", game_id=game_id))  # fmt: skip
        self.game_id = game_id


@dataclass(frozen=True)
class Record:
    """A finished game: its ``header`` (a dict, see ``HEADER_FIELDS``) and every event
    (``Envelope``s as stored, seq 1, 2, 3 …). Treat both as read-only."""

    header: Mapping[str, Any]
    events: tuple[Envelope, ...] = field(default=())

    @property
    def id(self) -> str:
        return self.header["id"]

    @property
    def head(self) -> str:
        return self.header["head"]

    def with_header(self, **changes: Any) -> Record:
        """The same record with some header fields replaced."""
        return Record({**self.header, **changes}, self.events)

    def summary(self) -> dict[str, Any]:
        """The header without the seed and nonces: what a list of replays shows."""
        return {k: v for k, v in self.header.items() if k not in ("seed", "nonces")}


# -- making a record ---------------------------------------------------------------------
def fold(events: Sequence[Envelope], registry: Mapping[str, Any] | None = None) -> LoadedGame:
    """The game the events make (the projector's fold; events are upcast first)."""
    from replays.codec import upcast_all

    if not events or events[0].type != "game_created":
        raise RecordError(said("a game's first event is game_created"))
    key = events[0].payload.get("game")
    rules = (registry or games.REGISTRY).get(key)
    if rules is None:
        raise RecordError(said("there is no game called {key!r}", key=key))
    game = LoadedGame(str(key), rules, state=rules.initial())
    return apply(game, upcast_all(key, events))


def result_of(outcome: Mapping[str, Any]) -> str:
    """``outcome["winner"]`` (a seat) or ``"draw"``."""
    return outcome.get("winner") or DRAW


def declared_of(events: Sequence[Envelope]) -> dict[str, Any]:
    """The header fields that the service's own events state outright (everything but
    the result, which takes a fold of the game): what ``verify`` compares the header with.
    Tolerant of odd events (a forged record): it takes what is there."""
    created = events[0].payload if events and events[0].type == "game_created" else {}
    seats = created.get("seats") if isinstance(created.get("seats"), dict) else {}
    players: dict[str, Any] = {seat: None for seat in seats}
    handed: dict[str, Any] = {}
    revealed: Mapping[str, Any] = {}
    for env in events:
        if env.type == "seat_joined":
            players[str(env.payload.get("seat"))] = env.payload.get("player")
        elif env.type == "seat_handed_to_ai":
            handed[str(env.payload.get("seat"))] = {"level": env.payload.get("level"),
                                                    "seq": env.seq}  # fmt: skip
        elif env.type == "seat_taken_back":  # its player's again: handed no more
            handed.pop(str(env.payload.get("seat")), None)
        elif env.type == "seed_revealed":
            revealed = env.payload
    nonces = revealed.get("nonces")
    return {
        "game": created.get("game"),
        "rules_version": created.get("rules_version"),
        "options": dict(created.get("options") or {}),
        "rated": bool(created.get("rated", False)),
        "seats": dict(seats),
        "handed_to_ai": handed,
        "players": players,
        "started_at": events[0].at if events else None,
        "ended_at": events[-1].at if events else None,
        "seed_sha256": created.get("seed_sha256"),
        "seed": revealed.get("seed"),
        "nonces": dict(nonces) if isinstance(nonces, dict) else {},
        "head": events[-1].hash if events else None,
        "events": len(events),
    }


def header_of(
    events: Sequence[Envelope],
    game_id: str,
    *,
    imported: bool = False,
    registry: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The header the events of a finished game imply. Raises ``RecordError`` if they do
    not make a finished game (no outcome, or no revealed seed)."""
    game = fold(events, registry)
    outcome = game.outcome
    if outcome is None or game.revealed is None:
        raise RecordError(
            said("game {game_id!r} has not ended: there is no replay of it yet", game_id=game_id)
        )
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "id": game_id,
        "game_id": game_id,
        **declared_of(events),
        "result": result_of(outcome),
        "reason": outcome.get("reason"),
        "outcome": dict(outcome),
        "imported": imported,
    }


def record_of(store: EventStore, game_id: str, registry: Mapping[str, Any] | None = None) -> Record:
    """The record of a finished game in ``store``. ``UnknownGame`` if there is no such game,
    ``NotFinished`` while it is being played. Events are taken as stored (not upcast)."""
    if store.game_of(game_id) is None:
        raise UnknownGame(game_id)
    events = tuple(e.stored or e for e in store.read(game_id))
    if not events or events[-1].type != "seed_revealed":
        raise NotFinished(game_id)
    return Record(header_of(events, game_id, registry=registry), events)


# -- text --------------------------------------------------------------------------------
def dumps(record: Record) -> str:
    """The record as JSON Lines: the header, then one event per line; ends with a newline."""
    lines = [canonical(dict(record.header)).decode()]
    lines += [canonical(e.to_dict()).decode() for e in record.events]
    return "\n".join(lines) + "\n"


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    for name, cls in _TYPES.items():
        if isinstance(value, cls):
            return name
    return type(value).__name__


def _object(line: str, number: int, what: str) -> dict[str, Any]:
    try:  # the store's codec: no NaN, no lone surrogates, nothing it would not write back
        value = orjson.loads(line)
    except orjson.JSONDecodeError as error:
        raise RecordError(
            said(
                "line {number}: the {what} is not valid JSON ({error})",
                number=number,
                what=what,
                error=error,
            )
        ) from None
    if depth_of(value) > MAX_DEPTH:
        raise RecordError(
            said(
                "line {number}: the {what} nests more than {MAX_DEPTH} deep",
                number=number,
                what=what,
                MAX_DEPTH=MAX_DEPTH,
            )
        )
    if not isinstance(value, dict):
        raise RecordError(
            said(
                "line {number}: the {what} is a JSON {value}, not an object",
                number=number,
                what=what,
                value=_kind(value),
            )
        )
    return value


def _header(line: str) -> dict[str, Any]:
    header = _object(line, 1, "header")
    if header.get("format") != FORMAT:
        raise RecordError(
            said(
                "line 1: this is not a Bingfa replay (the header's format is "
                "{value!r}, not {FORMAT!r})",
                value=header.get("format"),
                FORMAT=FORMAT,
            )
        )
    if header.get("format_version") != FORMAT_VERSION:
        raise RecordError(
            said(
                "line 1: format version {value!r} is not one this server "
                "reads (it reads {FORMAT_VERSION})",
                value=header.get("format_version"),
                FORMAT_VERSION=FORMAT_VERSION,
            )
        )
    for name, kinds in HEADER_FIELDS.items():
        if name not in header:
            raise RecordError(said("line 1: the header has no {name!r}", name=name))
        if _kind(header[name]) not in kinds:
            raise RecordError(
                said(
                    "line 1: the header's {name!r} is a {header}, not a {kinds}",
                    name=name,
                    header=_kind(header[name]),
                    kinds=" or ".join(kinds),
                )
            )
    extra = sorted(set(header) - set(HEADER_FIELDS))
    if extra:
        raise RecordError(said("line 1: the header has an unknown field {extra!r}", extra=extra[0]))
    return header


def _event(line: str, number: int) -> Envelope:
    data = _object(line, number, "event")
    for name in ENVELOPE_FIELDS:
        if name not in data:
            raise RecordError(
                said("line {number}: the event has no {name!r}", number=number, name=name)
            )
    for name, kind in EVENT_FIELD_TYPES.items():
        if name in data and _kind(data[name]) != kind:
            raise RecordError(
                said(
                    "line {number}: the event's {name!r} is a {data}, not a {kind}",
                    number=number,
                    name=name,
                    data=_kind(data[name]),
                    kind=kind,
                )
            )
    extra = sorted(set(data) - set(EVENT_FIELD_TYPES))
    if extra:
        raise RecordError(
            said(
                "line {number}: the event has an unknown field {extra!r}",
                number=number,
                extra=extra[0],
            )
        )
    return Envelope.from_dict(data)


def loads(text: str | bytes) -> Record:
    """Parse JSON Lines into a ``Record``. Only the shape is checked here (``RecordError``
    names the line and the fault); whether the record holds is ``replays.verify``'s job."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError(said("the record is not UTF-8 text ({error})", error=error)) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the final newline
    if not lines or not lines[0].strip():
        raise RecordError(said("line 1: the record is empty; it starts with a header line"))
    header = _header(lines[0])
    events = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            raise RecordError(
                said("line {number}: an empty line; every line is one event", number=number)
            )
        events.append(_event(line, number))
    if not events:
        raise RecordError(said("line 2: the record has a header but no events"))
    return Record(header, tuple(events))
