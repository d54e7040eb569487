"""Marshmallow schemas for every event type, derived from each game's declaration.

A game declares ``event_fields`` (see ``games/sun_tzu/schema.py``); the service adds its
own system events (``SYSTEM_FIELDS``). Nothing here is written by hand per event type, so
a new game plugs in by declaring its events.
"""

from __future__ import annotations

from collections.abc import Mapping

from marshmallow import RAISE, Schema, ValidationError, fields

# Events the service itself writes into every game's stream.
SYSTEM_FIELDS: dict[str, dict[str, str]] = {
    # The first event: the game, its options, its seats, and the commitment to the seed.
    "game_created": {
        "game": "str",
        "rules_version": "str",
        "options": "dict",
        "seats": "dict",
        "seed_sha256": "str",
    },
    # A seat is taken; ``nonce_sha256`` commits to the seat's own nonce, revealed at the end.
    "seat_joined": {"seat": "str", "player": "str?", "nonce_sha256": "str?"},
    # The last event: the seed and the nonces, so anyone can re-derive every shuffle.
    "seed_revealed": {"seed": "str", "nonces": "dict"},
}
SYSTEM_VERSIONS: dict[str, int] = {}


class StrictBoolean(fields.Boolean):
    """true or false, nothing that merely looks like one."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class StrictDict(fields.Dict):
    pass


_KINDS = {
    "str": lambda **kw: fields.String(**kw),
    "int": lambda **kw: fields.Integer(strict=True, **kw),
    "bool": lambda **kw: StrictBoolean(**kw),
    "list": lambda **kw: fields.List(fields.Raw(allow_none=True), **kw),
    "dict": lambda **kw: StrictDict(keys=fields.String(), **kw),
    "any": lambda **kw: fields.Raw(**kw),
}


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


def describe(error: ValidationError) -> str:
    """One sentence from a marshmallow error dict."""
    parts = []
    for name, problems in sorted(error.normalized_messages().items()):
        text = problems if isinstance(problems, str) else "; ".join(map(str, problems))
        parts.append(f"{name}: {text}")
    return ", ".join(parts)
