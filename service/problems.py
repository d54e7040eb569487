"""Every error is a JSON problem document (RFC 9457) with the right status and a sentence
a person understands; the mapping from our exceptions lives here, once."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from events.codec import EventRejected
from events.commands import CommandRefused
from events.errors import Invalid
from events.store import ConcurrencyError, IdempotencyConflict, UnknownGame
from events.table import Refused
from events.writepath import Forbidden, NotFound
from games.base import RulesError
from service.errors import TooManyStreams, Unavailable


class Unauthorized(Exception):
    """A seat's token is needed for this."""


# exception class -> (status, problem type slug, title)
MAPPING: list[tuple[type[BaseException], int, str, str]] = [
    (RulesError, 422, "rules", "The rules do not allow that"),
    (Refused, 422, "not-now", "Not allowed now"),
    (Invalid, 422, "invalid", "The request cannot be done"),
    (ConcurrencyError, 409, "conflict", "The game has moved on"),
    (IdempotencyConflict, 409, "idempotency-key-reused", "Idempotency key already used"),
    (NotFound, 404, "not-found", "Not found"),
    (UnknownGame, 404, "not-found", "Not found"),
    (Forbidden, 403, "forbidden", "Not yours"),
    (Unauthorized, 401, "unauthorized", "A seat token is needed"),
    (EventRejected, 422, "rejected", "Refused by the event store"),
    (TooManyStreams, 429, "too-many-streams", "Too many live streams"),
    (Unavailable, 503, "unavailable", "Not available right now"),
]


def problem(status: int, slug: str, title: str, detail: str, **extra: Any):
    body = {"type": f"/problems/{slug}", "title": title, "status": status, "detail": detail}
    body.update(extra)
    response = jsonify(body)
    response.status_code = status
    response.mimetype = "application/problem+json"
    return response


def problem_abort(status: int, detail: str) -> None:
    """Stop the request with a problem document."""
    from flask import abort

    abort(problem(status, "invalid-request", "The request is not valid", detail))


def register(app: Flask) -> None:
    for exc, status, slug, title in MAPPING:
        app.register_error_handler(
            exc, lambda e, s=status, g=slug, t=title: problem(s, g, t, str(e))
        )
    app.register_error_handler(
        CommandRefused,
        lambda e: problem(
            422, "invalid-command", "The command is not valid", str(e), errors=e.errors
        ),
    )

    def http_error(error: HTTPException):
        if error.code == 413:  # the body is larger than this endpoint takes
            limit = request.max_content_length
            return problem(413, "too-large", "The request body is too large",
                           f"this endpoint takes a body of at most {limit:,} bytes; "
                           "nothing was read or changed")  # fmt: skip
        data = getattr(error, "data", None) or {}
        messages = data.get("messages")
        if messages:  # marshmallow validation errors from webargs, by location
            fields: dict[str, Any] = {}
            for location, errors in messages.items():
                fields.update(errors if isinstance(errors, dict) else {location: errors})
            return problem(
                error.code or 400,
                "invalid-request",
                "The request is not valid",
                "Some fields are missing or wrong: " + ", ".join(sorted(map(str, fields))),
                errors=fields,
            )
        response = problem(
            error.code or 500,
            (error.name or "error").lower().replace(" ", "-"),
            error.name or "Error",
            error.description or "",
        )
        for name, value in error.get_headers():  # e.g. a 405's Allow: the path's methods
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    app.register_error_handler(HTTPException, http_error)
