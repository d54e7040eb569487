"""HTTP shapes of the API (marshmallow); the domain never sees them."""

from __future__ import annotations

from marshmallow import Schema, fields, post_load, validate

from events.schemas import JSON_INT_MAX, StrictBoolean
from service import kinds

SEQ = validate.Range(min=0, max=JSON_INT_MAX)  # a position in a stream


class CreateGame(Schema):
    game = fields.String(
        load_default=kinds.default_key,
        metadata={"description": "the kind of game (GET /api/kinds); the first by default",
                  "example": kinds.default_key()},
    )  # fmt: skip
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": kinds.options_description()},
    )
    seats = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        load_default=None,
        metadata={"description": 'each seat of the game: "human" or "ai:<level>"; by '
                  "default a person in every seat"},
    )  # fmt: skip
    rated = StrictBoolean(load_default=False, metadata={"description": "rated games give no hints"})
    match = StrictBoolean(
        load_default=False,
        metadata={"description": "play a match of linked games (GET /api/kinds: a kind's "
                  "``match``): the next game is made when one ends, the same players in "
                  "swapped seats, one result over them; a kind without matches is a 422"},
    )  # fmt: skip
    clock = fields.Dict(
        keys=fields.String(),
        load_default=None,
        allow_none=True,
        metadata={
            "description": "a time control, or none: per_move_seconds (60 s to 30 days), "
            "bank_seconds (a time bank that never refills), vacation_days (days each "
            'player may stop their clock), on_timeout ("forfeit", or "ai:<level>": the '
            "computer plays that decision)",
            "example": {"per_move_seconds": 86400, "bank_seconds": 172800,
                        "vacation_days": 7, "on_timeout": "forfeit"},
        },
    )  # fmt: skip

    @post_load
    def every_seat_human(self, data, **kwargs):
        """No seats given: a person in each of the game's seats (an unknown game is the
        write path's 404)."""
        if data["seats"] is None:
            known = data["game"] in kinds.games.REGISTRY
            data["seats"] = kinds.human_seats(data["game"]) if known else {}
        return data


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
    expected_version = fields.Integer(load_default=None, strict=True, validate=SEQ)


OUTCOME_TEXT = {"description": "how the game ended, for the caller: head (\"You win\"), "
                "reason and both as one text"}  # fmt: skip
EVENTS = {"description": "envelopes as the caller may see them, each with its sentence "
          "for the caller as text (null: nothing worth telling)"}  # fmt: skip


class Submitted(Schema):
    version = fields.Integer()
    duplicate = fields.Boolean()
    events = fields.List(fields.Dict(), metadata=EVENTS)
    outcome = fields.Dict(
        allow_none=True, metadata={"description": "set once the game is over: events are whole"}
    )
    outcome_text = fields.Dict(keys=fields.String(), values=fields.String(), allow_none=True,
                               metadata=OUTCOME_TEXT)  # fmt: skip


class SeatState(Schema):
    kind = fields.String()
    joined = fields.Boolean()
    player = fields.String(allow_none=True, metadata={"description": "who took it (public id)"})
    name = fields.String(metadata={"description": "that player's name, or an anonymous label"})


class SeatClock(Schema):
    running = fields.Boolean(metadata={"description": "the seat owes a decision"})
    deadline = fields.String(allow_none=True, metadata={"description": "UTC; when it runs out"})
    turn_started = fields.String(metadata={"description": "UTC; when the decision began"})
    bank_ms = fields.Integer(metadata={"description": "time bank left"})
    vacation_days_left = fields.Integer()
    vacation_ms_left = fields.Integer()
    away_until = fields.String(allow_none=True, metadata={"description": "latest vacation end"})
    timeouts = fields.Integer(metadata={"description": "times this seat ran out of time"})
    standing_in = fields.String(
        allow_none=True, metadata={"description": "the AI playing this decision after a timeout"}
    )


class Clock(Schema):
    control = fields.Dict(metadata={"description": "the time control the game was made with"})
    seats = fields.Dict(keys=fields.String(), values=fields.Nested(SeatClock))
    now = fields.String(metadata={"description": "the server's time, to count down from"})


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
    clock = fields.Nested(Clock, allow_none=True, metadata={"description": "none: no clock"})
    draw_offer = fields.String(allow_none=True, metadata={"description": "who offered a draw"})
    created = fields.Dict(metadata={"description": "options, rematch_of, seek"})
    prompt = fields.String(metadata={"description": "whose turn it is and for what, in words"})
    outcome_text = fields.Dict(keys=fields.String(), values=fields.String(), allow_none=True,
                               metadata=OUTCOME_TEXT)  # fmt: skip
    match = fields.Dict(
        allow_none=True,
        metadata={"description": "none: a single game; else the match it is part of: id "
                  "(its first game's), game (this one's number), of, games (their ids so "
                  "far), seat_in_first (your seat in its first game), result (once decided: "
                  "winner, a first-game seat or none, reason) and result_text"},
    )  # fmt: skip


class Draw(Schema):
    action = fields.String(
        required=True,
        validate=validate.OneOf(["offer", "accept", "decline"]),
        metadata={"description": "offer a draw, or answer the one offered to you"},
    )


class Vacation(Schema):
    days = fields.Integer(
        required=True, strict=True, validate=validate.Range(min=1, max=60),
        metadata={"description": "whole days; your clock in this game stops for that long"},
    )  # fmt: skip


class EventsQuery(Schema):
    after = fields.Integer(load_default=0, validate=SEQ)


class EventList(Schema):
    version = fields.Integer()
    events = fields.List(fields.Dict(), metadata=EVENTS)
    outcome = fields.Dict(
        allow_none=True, metadata={"description": "set once the game is over: events are whole"}
    )
    outcome_text = fields.Dict(keys=fields.String(), values=fields.String(), allow_none=True,
                               metadata=OUTCOME_TEXT)  # fmt: skip


class HandToAi(Schema):
    level = fields.String(required=True, metadata={"example": "medium"})


class Hint(Schema):
    status = fields.String(metadata={"description": '"ready", or "thinking" (202): ask again'})
    version = fields.Integer(metadata={"description": "the position the hint is for"})
    command = fields.Dict(metadata={"description": "the command the AI would send"})
    level = fields.String()
    text = fields.String(allow_none=True, metadata={"description": "the command, in words"})
