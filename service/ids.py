"""Ids in paths: games, replays, seeks and players are named by short URL-safe tokens
(``secrets.token_hex`` / ``token_urlsafe``). Any other text in an id's place is not an id:
the route does not match and the answer is a 404, before anything is looked up."""

from __future__ import annotations

from werkzeug.routing import BaseConverter

from events.store import VALID_ID

ID_PATTERN = VALID_ID.pattern


class IdConverter(BaseConverter):
    """``<id:game_id>``: letters, digits, ``-`` and ``_``, 1 to 64 of them."""

    regex = ID_PATTERN


def id_schema(_converter: IdConverter) -> dict:
    """The id's OpenAPI parameter schema (flask-smorest's converter hook)."""
    return {"type": "string", "pattern": f"^{ID_PATTERN}$", "minLength": 1, "maxLength": 64}
