"""How JSON answers are written: through orjson, as the event store writes (its codec).

Flask's own provider writes every answer with the standard library's ``json`` (sorted
keys, no spaces): on a command's answer that was a good part of the request's time.
``OrjsonProvider`` writes the same JSON document (sorted keys, no spaces, a newline at
the end), UTF-8 where the standard library escaped non-ASCII characters as ``\\uXXXX``,
which any JSON reader reads alike. What orjson cannot write (an integer beyond 64 bits)
goes the standard library's way, as does an indented answer (debug mode) and every
``dumps`` (the templates' ``tojson``).

``Answer`` is the app's response class: werkzeug's, handing its headers to the server
without checking each of them again (see there).
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider
from werkzeug.datastructures import Headers

# dates and dataclasses go to Flask's ``default`` (an HTTP date, a dict), as they did
OPTIONS = (
    orjson.OPT_NON_STR_KEYS
    | orjson.OPT_APPEND_NEWLINE
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
)


class OrjsonProvider(DefaultJSONProvider):
    def response(self, *args: Any, **kwargs: Any) -> Response:
        if (self.compact is None and self._app.debug) or self.compact is False:
            return super().response(*args, **kwargs)  # indented: for people reading it
        obj = self._prepare_response_obj(args, kwargs)
        option = OPTIONS | (orjson.OPT_SORT_KEYS if self.sort_keys else 0)
        try:
            body = orjson.dumps(obj, default=self.default, option=option)
        except (TypeError, orjson.JSONEncodeError):
            return super().response(*args, **kwargs)
        return self._app.response_class(body, mimetype=self.mimetype)


class Answer(Response):
    """Flask's response. Werkzeug copies its headers for the server (``get_wsgi_headers``)
    through ``Headers.add``, which looks at every value again for a newline: each was
    looked at when it was set, and a dozen headers (the security ones) are on every
    answer, so the copy here takes the checked list as it is. An answer with a
    ``Location`` or a ``Content-Location`` (made absolute, quoted), or with a status that
    has no body (its length removed), goes werkzeug's own way."""

    def get_wsgi_headers(self, environ: Any) -> Headers:
        status = self.status_code
        if status < 200 or status in (204, 304):
            return super().get_wsgi_headers(environ)
        length = None
        for key, value in self.headers:  # one look, as werkzeug's
            name = key.lower()
            if name == "location" or name == "content-location":
                return super().get_wsgi_headers(environ)
            if name == "content-length":
                length = value
        headers = Headers()
        headers._list = list(self.headers._list)  # checked when each was set
        if self.automatically_set_content_length and self.is_sequence and length is None:
            headers["Content-Length"] = str(sum(len(x) for x in self.iter_encoded()))
        return headers
