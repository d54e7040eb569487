"""Marshmallow schemas for every event type, derived from each game's declaration.

A game declares ``event_fields`` (in its package); the service adds its
own system events (``SYSTEM_FIELDS``). Nothing here is written by hand per event type, so
a new game plugs in by declaring its events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

# Events the service itself writes into every game's stream.
SYSTEM_FIELDS: dict[str, dict[str, str]] = {
    # The first event: the game, its options, its seats, and the commitment to the seed.
    "game_created": {
        "game": "str",
        "rules_version": "str",
        "options": "dict",
        "seats": "dict",
        "seed_sha256": "str",
        "~rated": "bool",  # absent in games made before ratings: unrated
        # a game continued from a replay: {"replay": id, "step": n, "seat": seat}
        "~from": "dict",
        # a time control (``events.clocks.parse``): per move, bank, vacation, on timeout
        "~clock": "dict",
        # a rematch of this game, or a game made from an accepted seek
        "~rematch_of": "str",
        "~seek": "str",
        # a game of a match of linked games (events.matches): its number, the games and
        # outcomes before it, each game's seats by the first game's
        "~match": "dict",
        # the random generator its chance comes from (docs/rng.md); absent: "cpython-random"
        "~rng": "str",
    },
    # A seat's command, as it was given, before the events it caused: the audit re-runs
    # the rules over these with the revealed seed. Visible to its seat until the end.
    # ``by``: "player" or "ai:<level>", who gave it (events.table; absent in older games).
    "command_given": {"seat": "str", "command": "dict", "~by": "str"},
    # A player hands their seat to the AI for the rest of the game, or until they take it
    # back (seat_taken_back).
    "seat_handed_to_ai": {"seat": "str", "level": "str"},
    "seat_taken_back": {"seat": "str"},
    # A seat is taken; ``nonce_sha256`` commits to the seat's own nonce, revealed at the end.
    "seat_joined": {"seat": "str", "player": "str?", "nonce_sha256": "str?"},
    # A continued game's opening, instead of the deal: the whole position (``rules.dump_state``
    # text), the hidden cards re-dealt from the game's own chance. Visible to the server only.
    "position_set": {"state": "str"},
    # The last event: the seed and the nonces, so anyone can re-derive every shuffle.
    "seed_revealed": {"seed": "str", "nonces": "dict"},
    # A seat's player takes ``days`` of vacation: its clock stops for that long.
    "vacation_taken": {"seat": "str", "days": "int"},
    # A seat's time ran out (written by the deadline sweep, actor ``system``): ``action``
    # is "forfeit" (a game_decided follows) or "ai:<level>" (that AI plays this decision).
    "clock_expired": {"seat": "str", "action": "str"},
    # A draw offered, declined, or accepted (a game_decided follows); an offer lapses when
    # the next command is given.
    "draw_offered": {"seat": "str"},
    "draw_declined": {"seat": "str"},
    "draw_accepted": {"seat": "str"},
    # The game ends off the board: "time" (the loser's clock ran out) or "agreement" (a
    # draw both seats agreed); ``winner`` is a seat or null for a draw.
    "game_decided": {"winner": "str?", "reason": "str"},
}
SYSTEM_VERSIONS: dict[str, int] = {}

# Whole numbers any JSON reader (JavaScript's too) holds exactly; the store refuses others.
JSON_INT_MAX = 2**53 - 1
# Lists and objects inside each other in what a client sends (a body, a record's line);
# ours nest 4 deep at most. Deeper is refused before anything walks it recursively.
MAX_DEPTH = 32


def depth_of(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deep lists and objects nest in ``value`` (0 for a plain value), counted without
    recursion (a hostile body must not exhaust the stack); stops once past ``limit``."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        level += 1
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        stack.extend((inner, level) for inner in item)
    return deepest


def plain(value: object) -> bool:
    """Whether ``value`` is JSON the store writes and reads back exactly, with one spelling:
    objects with text names, lists, texts, whole numbers within ±``JSON_INT_MAX``, true,
    false and null. No fractions: ``canonical`` and other JSON writers spell them
    differently, and no event needs one. (The store runs this on every event it writes:
    the leaves of a list or an object are looked at in the loop, not by a call each.)"""
    kind = type(value)
    if kind is dict:
        if not all(type(k) is str for k in value):  # type: ignore[attr-defined]
            return False
        items = value.values()  # type: ignore[attr-defined]
    elif kind is list or kind is tuple:
        items = value
    else:
        return _leaf(value)
    for item in items:  # type: ignore[attr-defined]
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is int:
            if not -JSON_INT_MAX <= item <= JSON_INT_MAX:
                return False
        elif not plain(item):
            return False
    return True


def _leaf(value: object) -> bool:
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    return kind is int and -JSON_INT_MAX <= value <= JSON_INT_MAX  # type: ignore[operator]


class StrictBoolean(fields.Boolean):
    """true or false, nothing that merely looks like one."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class StrictInteger(fields.Integer):
    """A whole number, and not a boolean (which Python counts as one)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class Plain(fields.Raw):
    """Any value ``plain`` accepts: what the store writes and reads back exactly."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not plain(value):
            raise ValidationError(
                f"holds a value the store cannot keep exactly (fractions, whole numbers "
                f"beyond ±{JSON_INT_MAX}, or not JSON)"
            )
        return value


class StrictList(fields.List):
    """A JSON array (a list or tuple), not any iterable."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list | tuple):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


_WHOLE = validate.Range(-JSON_INT_MAX, JSON_INT_MAX)
_KINDS = {
    "str": lambda **kw: fields.String(**kw),
    "int": lambda **kw: StrictInteger(strict=True, validate=_WHOLE, **kw),
    "bool": lambda **kw: StrictBoolean(**kw),
    "list": lambda **kw: StrictList(Plain(allow_none=True), **kw),
    "dict": lambda **kw: fields.Dict(keys=fields.String(), values=Plain(allow_none=True), **kw),
    "any": lambda **kw: Plain(**kw),
}

# The same kinds as plain type tests, for the fast path (see ``fast_check``).
_TESTS = {
    "str": lambda v: isinstance(v, str),
    "int": lambda v: type(v) is int and -JSON_INT_MAX <= v <= JSON_INT_MAX,
    "bool": lambda v: isinstance(v, bool),
    "list": lambda v: isinstance(v, list | tuple) and all(map(plain, v)),
    "dict": lambda v: type(v) is dict and plain(v),
    "any": plain,
}


def fast_check(declared: Mapping[str, str]):
    """A plain-Python test that accepts exactly what ``schema_for(declared)`` accepts.

    The store runs it on every event it writes (a marshmallow load costs 20-50 µs per
    event, this about 1 µs) and asks the marshmallow schema only when it fails, for the
    message. ``tests/events`` checks that the two agree.
    """
    rules = []
    for name, spec in declared.items():
        key = name.lstrip("~")
        optional = name.startswith("~") or spec.startswith("~")
        rules.append((key, optional, spec.endswith("?"), _TESTS[spec.strip("~?")]))
    allowed = frozenset(r[0] for r in rules)

    def check(payload: Mapping[str, object]) -> bool:
        if not allowed.issuperset(payload):
            return False
        for key, optional, nullable, test in rules:
            if key not in payload:
                if not optional:
                    return False
                continue
            value = payload[key]
            if value is None:
                if not nullable:
                    return False
            elif not test(value):
                return False
        return True

    return check


def field_for(spec: str) -> fields.Field:
    optional = spec.startswith("~")
    nullable = spec.endswith("?")
    kind = spec.strip("~?")
    if kind not in _KINDS:
        raise ValueError(f"unknown field kind {spec!r}")
    return _KINDS[kind](required=not optional, allow_none=nullable)


def schema_for(event_type: str, declared: Mapping[str, str]) -> Schema:
    attrs = {name.lstrip("~"): field_for(("~" if name.startswith("~") else "") + spec)
             for name, spec in declared.items()}  # fmt: skip
    cls = Schema.from_dict(attrs, name=f"{event_type}_payload")
    return cls(unknown=RAISE)


def flatten(messages: Any, path: str = "") -> dict[str, str]:
    """marshmallow's nested messages as ``{"plays.0.target": "Not a valid string."}``."""
    if isinstance(messages, dict):
        out: dict[str, str] = {}
        for key, inner in messages.items():
            if key == "value" and path:  # an object's value (marshmallow's Dict): its name
                out.update(flatten(inner, path))
                continue
            key = "(its name)" if key == "key" and path else key
            out.update(flatten(inner, f"{path}.{key}" if path else str(key)))
        return out
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return {path: " ".join(messages)}
    if isinstance(messages, list):
        return {k: v for m in messages for k, v in flatten(m, path).items()}
    return {path: str(messages)}


def describe(error: ValidationError) -> str:
    """One sentence from a marshmallow error dict."""
    return ", ".join(f"{name}: {text}" for name, text in sorted(flatten(error.messages).items()))
