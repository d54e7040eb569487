"""Matchmaking: the open seek list, posting, cancelling and accepting seeks, and rematches
of finished games. Views are thin: load, one ``service.matchmaking`` call, dump."""

from __future__ import annotations

from typing import Any

from flask import current_app
from marshmallow import Schema, fields, validate

import games
from events.errors import told
from events.schemas import StrictBoolean
from events.writepath import MAX_NONCE_LENGTH
from games.i18n import said
from service import kinds, schemas
from service.api.games import caller_seat, player_id
from service.bodies import Blueprint
from service.matchmaking import (
    RANDOM,
    Conflict,
    Matchmaking,
    RedisSeekStore,
    describe,
)
from service.problems import N_, Unauthorized, problem
from service.profiles import anonymous_label
from service.security import limit_writes

blp = Blueprint("seeks", __name__, url_prefix="/api", description="Seeks and rematches")


def matchmaking() -> Matchmaking:
    return current_app.extensions["matchmaking"]


@blp.record_once
def wire(state) -> None:
    """Seeks live beside the other stores (``workers.bootstrap``)."""
    app = state.app
    parts = app.extensions["parts"]
    app.extensions["matchmaking"] = Matchmaking(parts.write_path, RedisSeekStore(parts.redis))


@blp.app_errorhandler(Conflict)
def conflict(error):
    return problem(409, "conflict", N_("Someone got there first"), told(error))


# -- shapes --------------------------------------------------------------------------------
class SeekClock(Schema):
    per_move_seconds = fields.Integer(metadata={"example": 86400})
    bank_seconds = fields.Integer(metadata={"example": 259200})
    vacation_days = fields.Integer(metadata={"example": 7})
    on_timeout = fields.String(metadata={"description": '"forfeit" or "ai:<level>"'})


# every game's seats, or random (each seek is checked against its own game's seats)
COLOURS = (*dict.fromkeys(s.id for key in games.REGISTRY for s in kinds.catalogue(key).seats),
           RANDOM)  # fmt: skip


class SeekPost(Schema):
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
    clock = fields.Dict(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "a time control (see SeekClock), or null for none",
            "example": {"per_move_seconds": 86400},
        },
    )
    rated = StrictBoolean(load_default=False)
    match = StrictBoolean(
        load_default=False,
        metadata={"description": "a match of linked games (GET /api/kinds: a kind's "
                  "``match``); the accepted seek makes its first game; a kind without "
                  "matches is a 422"},
    )  # fmt: skip
    colour = fields.String(
        load_default=RANDOM,
        validate=validate.OneOf(COLOURS),
        metadata={"description": "the seat you want (one of the game's seats), or "
                  + RANDOM},
    )  # fmt: skip
    nonce = fields.String(
        load_default=None,
        validate=validate.Length(max=MAX_NONCE_LENGTH),
        metadata={"description": "your contribution to the game's chance"},
    )


class SeekOut(Schema):
    id = fields.String()
    player = fields.String(metadata={"description": "the seeker's (public) player id"})
    name = fields.String(metadata={"description": "the seeker's display name"})
    game = fields.String()
    options = fields.Dict()
    clock = fields.Nested(SeekClock, allow_none=True)
    rated = fields.Boolean()
    match = fields.Boolean(metadata={"description": "a match of linked games"})
    colour = fields.String(metadata={"description": "the seat the seeker wants"})
    created_at = fields.String()
    summary = fields.String(metadata={"example": "Standard, events, 1 day per move, rated"})
    status = fields.String(metadata={"description": "open, taken (being made), made"})
    game_id = fields.String(allow_none=True, metadata={"description": "the game it became"})
    seat = fields.String(allow_none=True, metadata={"description": "the seeker's seat in it"})


class SeekList(Schema):
    seeks = fields.List(fields.Nested(SeekOut))


class SeekPosted(Schema):
    seek = fields.Nested(SeekOut)
    token = fields.String(
        metadata={
            "description": "your seat's token in the game this seek "
            "becomes; shown once, keep it secret"
        }
    )


class SeekGame(Schema):
    game_id = fields.String()
    seat = fields.String(metadata={"description": "your seat"})
    token = fields.String(metadata={"description": "your seat's token, shown once"})
    invite = fields.String(metadata={"description": "your seat's page, with its token"})


class RematchAnswer(Schema):
    offered_by = fields.String(allow_none=True, metadata={"description": "the seat that asked"})
    game_id = fields.String(allow_none=True, metadata={"description": "the new game, once made"})
    seat = fields.String(allow_none=True, metadata={"description": "your seat in the new game"})
    token = fields.String(metadata={"description": "your new seat's token, shown once"})
    invite = fields.String(metadata={"description": "your new seat's page, with its token"})


# -- names ---------------------------------------------------------------------------------
def names_of(players: list[str]) -> dict[str, str]:
    """Each seeker's display name: the one chosen in their profile, else the profiles'
    anonymous label."""
    profiles = current_app.extensions.get("profiles")
    chosen = profiles.names_of(players) if profiles is not None and players else {}
    return {p: chosen.get(p) or anonymous_label(p) for p in players}


def shown(seeks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    names = names_of(sorted({s["player"] for s in seeks}))
    return [{**s, "name": names[s["player"]], "summary": describe(s)} for s in seeks]


# -- seeks ---------------------------------------------------------------------------------
@blp.route("/seeks")
@blp.response(200, SeekList)
def open_seeks():
    """Open seeks anyone may accept, newest first (a seek expires after a week)."""
    return {"seeks": shown(matchmaking().listing())}


@blp.route("/seeks", methods=["POST"])
@limit_writes
@blp.arguments(SeekPost(), required=False)  # every field has a default
@blp.response(201, SeekPosted)
def post_seek(body):
    """Look for a game. The answer's token is your seat's in the game the seek becomes."""
    seek, token = matchmaking().post(player_id(), **body)
    return {"seek": shown([seek])[0], "token": token}


@blp.route("/seeks/mine")
@blp.response(200, SeekList)
def my_seeks():
    """This browser's seeks, open or made into a game (with the game and your seat)."""
    return {"seeks": shown(matchmaking().mine(player_id()))}


@blp.route("/seeks/<seek:seek_id>", methods=["DELETE"])
@limit_writes
@blp.response(204)
def cancel_seek(seek_id):
    """Cancel one of your open seeks."""
    matchmaking().cancel(seek_id, player_id())


@blp.route("/seeks/<seek:seek_id>/accept", methods=["POST"])
@limit_writes
@blp.arguments(schemas.Join(), required=False)  # {nonce?}, as taking a seat
@blp.response(201, SeekGame)
def accept_seek(body, seek_id):
    """Accept a seek: the game is made and both seats taken; your token is in the answer.
    Of two accepting at once, one gets the game and the other a 409."""
    made = matchmaking().accept(seek_id, player_id(), nonce=body["nonce"])
    return {
        "game_id": made.game_id,
        "seat": made.seat,
        "token": made.token,
        "invite": f"/g/{made.game_id}/{made.seat}#token={made.token}",
    }


# -- rematch -------------------------------------------------------------------------------
def _answer(found) -> dict[str, Any]:
    body: dict[str, Any] = {
        "offered_by": found.offered_by,
        "game_id": found.game_id,
        "seat": found.seat,
    }
    if found.token is not None:
        body["token"] = found.token
        if found.game_id is not None:
            body["invite"] = f"/g/{found.game_id}/{found.seat}#token={found.token}"
    return body


@blp.route("/games/<id:game_id>/rematch", methods=["POST"])
@limit_writes
@blp.arguments(schemas.Join(), required=False)  # {nonce?}, as taking a seat
@blp.response(200, RematchAnswer)
def ask_rematch(body, game_id):
    """Ask for a rematch of a finished game you played (token or player id). When the
    other seat asks too (at once against the AI) the new game is made, colours swapped;
    asking again gives the same game. ``token`` is your new seat's, shown once."""
    seat = caller_seat(game_id)
    if seat is None:
        raise Unauthorized(
            said(
                "only the players of this game can ask for a rematch: Authorization: Bearer "
                "<your seat's token>"
            )
        )
    return _answer(matchmaking().rematch(game_id, seat, nonce=body["nonce"]))


@blp.route("/games/<id:game_id>/rematch")
@blp.response(200, RematchAnswer)
def rematch_state(game_id):
    """Who asked for a rematch of this game, and the new game once it exists."""
    return _answer(matchmaking().rematch_state(game_id, caller_seat(game_id)))
