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


class SeekIdConverter(BaseConverter):
    """``<seek:seek_id>``: a seek's id, lower-case hex (so ``/seeks/mine`` is no seek)."""

    regex = r"[0-9a-f]{1,64}"


def id_schema(converter: BaseConverter) -> dict:
    """The id's OpenAPI parameter schema (flask-smorest's converter hook)."""
    return {"type": "string", "pattern": f"^{converter.regex}$", "minLength": 1,
            "maxLength": 64}  # fmt: skip
