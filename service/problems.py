"""Every error is a JSON problem document (RFC 9457) with the right status and a sentence
a person understands; the mapping from our exceptions lives here, once."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from events.codec import EventRejected
from events.commands import CommandRefused
from events.errors import Invalid, told
from events.store import ConcurrencyError, IdempotencyConflict, UnknownGame
from events.table import Refused
from events.writepath import Forbidden, NotFound
from games.base import RulesError
from games.i18n import Said, said
from service.errors import TooManyStreams, Unavailable


class Unauthorized(Exception):
    """A seat's token is needed for this."""


def N_(english: str) -> str:
    """Mark a title for the catalogs (the extractor's keyword ``N_``); ``problem`` says it
    in the reader's language when the document is made, not here (no request yet)."""
    return english


# exception class -> (status, problem type slug, title); the type is a stable identifier,
# the title (and the detail) are said in the request's language
MAPPING: list[tuple[type[BaseException], int, str, str]] = [
    (RulesError, 422, "rules", N_("The rules do not allow that")),
    (Refused, 422, "not-now", N_("Not allowed now")),
    (Invalid, 422, "invalid", N_("The request cannot be done")),
    (ConcurrencyError, 409, "conflict", N_("The game has moved on")),
    (IdempotencyConflict, 409, "idempotency-key-reused", N_("Idempotency key already used")),
    (NotFound, 404, "not-found", N_("Not found")),
    (UnknownGame, 404, "not-found", N_("Not found")),
    (Forbidden, 403, "forbidden", N_("Not yours")),
    (Unauthorized, 401, "unauthorized", N_("A seat token is needed")),
    (EventRejected, 422, "rejected", N_("Refused by the event store")),
    (TooManyStreams, 429, "too-many-streams", N_("Too many live streams")),
]


RETRY_AFTER_S = 3  # how long a client waits before asking again when the store is unreachable


def unreachable() -> tuple[type[BaseException], ...]:
    """The errors that mean the event store's Redis (or the broker) cannot be reached now:
    no answer, or too late. A script either ran whole in Redis or not at all, so the command
    is appended or not; its ``Idempotency-Key`` makes the retry safe either way."""
    import redis.exceptions

    found: list[type[BaseException]] = [redis.exceptions.ConnectionError,
                                        redis.exceptions.TimeoutError]  # fmt: skip
    try:  # the broker (Celery's kombu), when a task is sent from the request
        from kombu.exceptions import OperationalError
    except ImportError:  # pragma: no cover - kombu comes with celery
        pass
    else:
        found.append(OperationalError)
    return tuple(found)


def unavailable(detail: Any):
    """503 with ``Retry-After``: the request may simply be sent again shortly."""
    response = problem(503, "unavailable", N_("Not available right now"), detail)
    response.headers["Retry-After"] = str(RETRY_AFTER_S)
    return response


def _number(value: Any) -> str:
    """A number as the request's locale writes it (CLDR: 2,097,152 / 2.097.152 …)."""
    import flask_babel

    try:
        return flask_babel.format_decimal(value)
    except Exception:  # outside a request: English
        return f"{value:,}"


# werkzeug's own errors (no route, wrong method …): their English name and description,
# marked for the catalogs; a code not listed keeps werkzeug's English
HTTP_TITLES = {
    400: N_("Bad Request"),
    404: N_("Not Found"),
    405: N_("Method Not Allowed"),
    406: N_("Not Acceptable"),
    409: N_("Conflict"),
    410: N_("Gone"),
    415: N_("Unsupported Media Type"),
    429: N_("Too Many Requests"),
    500: N_("Internal Server Error"),
    503: N_("Service Unavailable"),
}
HTTP_DETAILS = {
    404: said("The requested URL was not found on the server. If you entered the URL "
              "manually please check your spelling and try again."),
    405: said("The method is not allowed for the requested URL."),
    500: said("The server encountered an internal error and was unable to complete your "
              "request. Either the server is overloaded or there is an error in the "
              "application."),
}  # fmt: skip


def _described(error: HTTPException) -> str:
    """werkzeug's description, said again when it is its default (a view's own stays)."""
    known = HTTP_DETAILS.get(error.code or 500)
    return known if known is not None and error.description == known else error.description or ""


def problem(status: int, slug: str, title: str, detail: str, **extra: Any):
    """The problem document: ``type`` stays the same in every language; ``title`` (an
    English title marked with ``N_``) and ``detail`` (a ``said`` sentence) are said in the
    request's language (``service.i18n``), English where the catalog has no entry."""
    from service import i18n  # Flask-Babel's request state; problems is imported early

    title = i18n.say(title) if isinstance(title, Said) else i18n.gettext(title)
    body = {"type": f"/problems/{slug}", "title": title, "status": status,
            "detail": i18n.say(detail)}  # fmt: skip
    body.update(extra)
    response = jsonify(body)
    response.status_code = status
    response.mimetype = "application/problem+json"
    return response


def problem_abort(status: int, detail: str) -> None:
    """Stop the request with a problem document."""
    from flask import abort

    abort(problem(status, "invalid-request", N_("The request is not valid"), detail))


def register(app: Flask) -> None:
    for exc, status, slug, title in MAPPING:
        app.register_error_handler(
            exc, lambda e, s=status, g=slug, t=title: problem(s, g, t, told(e))
        )
    app.register_error_handler(Unavailable, lambda e: unavailable(told(e)))

    def store_unreachable(error: BaseException):
        # logged for the operator; the reader gets a sentence, not the client's internals
        app.logger.warning("the store or broker cannot be reached: %r", error)
        return unavailable(said("the game store cannot be reached just now; try again in a "
                                "few seconds (nothing is done twice: a command sent again "
                                "with the same Idempotency-Key counts once)"))  # fmt: skip

    for exc in unreachable():
        app.register_error_handler(exc, store_unreachable)
    app.register_error_handler(
        CommandRefused,
        lambda e: problem(
            422, "invalid-command", N_("The command is not valid"), told(e), errors=e.errors
        ),
    )

    def http_error(error: HTTPException):
        if error.code == 413:  # the body is larger than this endpoint takes
            limit = request.max_content_length
            return problem(413, "too-large", N_("The request body is too large"),
                           said("this endpoint takes a body of at most {limit} bytes; nothing "
                                "was read or changed", limit=_number(limit)))  # fmt: skip
        data = getattr(error, "data", None) or {}
        messages = data.get("messages")
        # marshmallow validation errors from webargs, by location: the summary sentence is
        # said in the reader's language; each field's own messages in ``errors`` stay
        # marshmallow's English (machine-readable details, keyed by field name)
        if messages:
            fields: dict[str, Any] = {}
            for location, errors in messages.items():
                fields.update(errors if isinstance(errors, dict) else {location: errors})
            return problem(
                error.code or 400,
                "invalid-request",
                N_("The request is not valid"),
                said(
                    "Some fields are missing or wrong: {fields}",
                    fields=", ".join(sorted(map(str, fields))),
                ),
                errors=fields,
            )
        response = problem(
            error.code or 500,
            (error.name or "error").lower().replace(" ", "-"),
            HTTP_TITLES.get(error.code or 500, error.name or "Error"),
            _described(error),
        )
        for name, value in error.get_headers():  # e.g. a 405's Allow: the path's methods
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    app.register_error_handler(HTTPException, http_error)
