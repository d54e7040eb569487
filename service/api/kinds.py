"""The kinds of game offered here: each registered game's catalogue (title, seats with
their labels and colours, options) and its words (message id -> template), for the pages
and any other client. Everything comes from the game packages (``service.kinds``), its
words in the request's language (``service.i18n``: ``?lang=``, ``X-Bingfa-Language``,
the profile, the picker, ``Accept-Language``); every ``/api/`` answer is ``no-store``
and says it varies by those headers, so no cache hands one language's words to another."""

from __future__ import annotations

from marshmallow import Schema, fields

import games
from events.writepath import NotFound
from games.i18n import said
from service import kinds, narration
from service.bodies import Blueprint

blp = Blueprint("kinds", __name__, url_prefix="/api/kinds",
                description="The kinds of game: catalogues and words")  # fmt: skip


class SeatOut(Schema):
    id = fields.String(metadata={"description": "as stored in games and paths"})
    label = fields.String(metadata={"description": "as players read it"})
    colour = fields.String(metadata={"description": "a CSS colour the pages draw it in"})


class Choice(Schema):
    value = fields.Raw()
    label = fields.String()


class OptionOut(Schema):
    name = fields.String()
    kind = fields.String(metadata={"description": '"choice" (one of choices) or "bool"'})
    label = fields.String()
    default = fields.Raw()
    choices = fields.List(fields.Nested(Choice))
    help = fields.String()


class Kind(Schema):
    key = fields.String(metadata={"description": "the game's key (POST /api/games game)"})
    title = fields.String()
    summary = fields.String()
    seats = fields.List(fields.Nested(SeatOut))
    options = fields.List(fields.Nested(OptionOut))
    match = fields.Dict(allow_none=True, metadata={"description": "none: no matches; else "
                        "games_in_match and label (POST /api/games match)"})  # fmt: skip


class KindList(Schema):
    kinds = fields.List(fields.Nested(Kind))
    default = fields.String(metadata={"description": "the game a request naming none is"})


class KindText(Schema):
    key = fields.String()
    messages = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "message id -> template with {placeholders}, in the request's "
                       "language"})  # fmt: skip


def _known(key: str) -> None:
    if key not in games.REGISTRY:
        raise NotFound(
            said(
                "there is no game called {key!r}; the games are {games}",
                key=key,
                games=", ".join(sorted(games.REGISTRY)),
            )
        )


@blp.route("")
@blp.response(200, KindList)
def every_kind():
    """Every game offered here, the default first."""
    return {"kinds": kinds.kinds_json(), "default": kinds.default_key()}


@blp.route("/<id:key>")
@blp.response(200, Kind)
def one_kind(key):
    """One game's catalogue: title, seats (labels, colours), options, its words in the
    request's language."""
    _known(key)
    return kinds.kind_json(key)


@blp.route("/<id:key>/text")
@blp.response(200, KindText)
def text(key):
    """One game's words: the names and texts of its components and its sentences, by
    message id (the pages render them with the values the API gives), with the
    platform's own (ids starting ``table.``: what the service says of every game)."""
    _known(key)
    return {"key": key, "messages": dict(narration.messages(games.get(key)))}
