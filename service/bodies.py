"""What a request body may be: its size, and JSON that reads back exactly.

Every body is limited (``MAX_CONTENT_LENGTH``, 16 KiB; a command 4 KiB, a replay import
2 MiB: ``body_limit``), and a larger one is refused with 413 before it is read. JSON is
read with the event store's own codec (orjson): ``NaN``, ``Infinity``, lone surrogates and
numbers no double holds are refused with a 400 that says so, as is nesting deeper than
``MAX_DEPTH``; whole numbers beyond 64 bits arrive as fractions, which every integer field
refuses. So a value that gets past the door is one the store writes and reads back as it
came (``events.envelope.fast_canonical``).
"""

from __future__ import annotations

import functools
from typing import Any

import orjson
from flask import request
from flask_smorest import Blueprint as SmorestBlueprint
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

from events.schemas import MAX_DEPTH, depth_of
from games.i18n import said
from service.api import error_docs
from service.problems import problem_abort

DEFAULT_BODY_BYTES = 16 * 1024  # any request (Flask's MAX_CONTENT_LENGTH)
COMMAND_BODY_BYTES = 4 * 1024  # a command: the longest real one is well under 1 KiB
IMPORT_BODY_BYTES = 2 * 1024 * 1024  # a replay record: a long game's is about 200 kB


def loads(data: bytes) -> Any:
    """A JSON body, or a 400 problem saying what is wrong with it."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        problem_abort(
            400, said("the body is not JSON this server reads exactly: {error}", error=error)
        )
    if depth_of(value) > MAX_DEPTH:
        problem_abort(
            400,
            said(
                "the body nests lists and objects more than {MAX_DEPTH} deep", MAX_DEPTH=MAX_DEPTH
            ),
        )
    return value


class StrictParser(FlaskParser):
    """webargs' Flask parser, reading JSON bodies with ``loads``."""

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)
        return loads(data) if data.strip() else core.missing


class Blueprint(SmorestBlueprint):
    """The API's blueprints: flask-smorest's, with the strict JSON parser, and every error
    status of their operations documented (``service.api.error_docs``)."""

    ARGUMENTS_PARSER = StrictParser()

    def register_views_in_doc(self, api, app, spec, **kwargs):
        error_docs.install(spec, app)
        super().register_views_in_doc(api, app, spec, **kwargs)


def body_limit(limit: int):
    """Decorator (put it right under ``route``): this endpoint takes bodies of at most
    ``limit`` bytes; a larger one is refused with 413 before it is read."""

    def decorate(view):
        @functools.wraps(view)
        def limited(*args, **kwargs):
            request.max_content_length = limit
            return view(*args, **kwargs)

        limited.body_limit = limit  # for the API documentation
        return limited

    return decorate
