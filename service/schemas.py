"""HTTP shapes of the API (marshmallow); the domain never sees them."""

from __future__ import annotations

from marshmallow import Schema, fields, validate


class CreateGame(Schema):
    game = fields.String(load_default="sun-tzu", metadata={"example": "sun-tzu"})
    options = fields.Dict(
        keys=fields.String(), load_default=dict, metadata={"example": {"events": True}}
    )
    seats = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        load_default=lambda: {"blue": "human", "red": "human"},
        metadata={"description": 'each seat: "human" or "ai:<level>"'},
    )
    rated = fields.Boolean(
        load_default=False, metadata={"description": "rated games give no hints"}
    )


class SeatLink(Schema):
    kind = fields.String()
    token = fields.String(metadata={"description": "shown once; keep it secret"})
    invite = fields.String(metadata={"description": "the link that gives this seat"})


class Created(Schema):
    game_id = fields.String()
    version = fields.Integer()
    seats = fields.Dict(keys=fields.String(), values=fields.Nested(SeatLink))


class Join(Schema):
    nonce = fields.String(
        load_default=None,
        validate=validate.Length(max=200),
        metadata={"description": "your own contribution to the game's chance"},
    )


class Version(Schema):
    version = fields.Integer()


class SubmitCommand(Schema):
    command = fields.Dict(required=True, metadata={"example": {"type": "resign"}})
    expected_version = fields.Integer(load_default=None, strict=True)


class Submitted(Schema):
    version = fields.Integer()
    duplicate = fields.Boolean()
    events = fields.List(fields.Dict())
    outcome = fields.Dict(
        allow_none=True, metadata={"description": "set once the game is over: events are whole"}
    )


class SeatState(Schema):
    kind = fields.String()
    joined = fields.Boolean()


class GameView(Schema):
    game_id = fields.String()
    game = fields.String()
    version = fields.Integer()
    seat = fields.String(allow_none=True, metadata={"description": "your seat, if any"})
    seats = fields.Dict(keys=fields.String(), values=fields.Nested(SeatState))
    pending = fields.Dict(keys=fields.String(), values=fields.String())
    outcome = fields.Dict(allow_none=True)
    view = fields.Dict(allow_none=True)
    rated = fields.Boolean(metadata={"description": "rated games give no hints"})


class EventsQuery(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0))


class EventList(Schema):
    version = fields.Integer()
    events = fields.List(fields.Dict())
    outcome = fields.Dict(
        allow_none=True, metadata={"description": "set once the game is over: events are whole"}
    )


class HandToAi(Schema):
    level = fields.String(required=True, metadata={"example": "medium"})


class Hint(Schema):
    version = fields.Integer(metadata={"description": "the position the hint is for"})
    command = fields.Dict(metadata={"description": "the command the AI would send"})
    level = fields.String()
