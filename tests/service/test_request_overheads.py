"""What the per-request shortcuts keep as it was: JSON answers (orjson) read as the
standard library wrote them, the security and Vary headers added without overwriting a
view's own, and sessions signed with the current key (the signer is kept)."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime

import fakeredis
import pytest
from flask import Response, session

from events.store import InMemoryEventStore
from service.app import create_app


@pytest.fixture
def app():
    app = create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                      "TESTING": True})  # fmt: skip

    @dataclasses.dataclass
    class Point:
        x: int

    @app.get("/t/json")
    def some_json():
        return {"b": "兵法 \u00e9", "a": [1, 2.5, None, True], "point": Point(3),
                "when": datetime(2026, 1, 2, tzinfo=UTC), "big": 2**70,
                "nested": {"z": 1, "y": 2}}  # fmt: skip

    @app.get("/t/own-headers")
    def own_headers():
        response = Response("x")
        response.headers["X-Frame-Options"] = "SAMEORIGIN"
        response.headers["Vary"] = "Origin, cookie"
        return response

    @app.get("/t/session/<value>")
    def put(value):
        session["seen"] = value
        return {"ok": True}

    @app.get("/t/session")
    def get():
        return {"seen": session.get("seen")}

    return app


def test_a_json_answer_reads_as_the_standard_library_wrote_it(app):
    response = app.test_client().get("/t/json")
    with app.app_context():
        before = json.loads(app.json.dumps(json.loads(response.data)))  # same document
        standard = json.loads(json.dumps(some_value(app), default=app.json.default))
    assert response.mimetype == "application/json"
    assert response.data.endswith(b"}\n")
    assert json.loads(response.data) == standard == before
    keys = list(json.loads(response.data))
    assert keys == sorted(keys)


def some_value(app):
    with app.test_request_context():
        return app.view_functions["some_json"]()


def test_vary_and_the_security_headers_keep_what_a_view_set(app):
    client = app.test_client()
    plain = client.get("/t/json")
    assert plain.headers["Vary"] == "Accept-Language, X-Bingfa-Language, Cookie"
    assert plain.headers["X-Frame-Options"] == "DENY"
    own = client.get("/t/own-headers")
    assert own.headers.getlist("X-Frame-Options") == ["SAMEORIGIN"]
    assert own.headers["Vary"] == "Origin, cookie, Accept-Language, X-Bingfa-Language"
    assert own.headers["X-Content-Type-Options"] == "nosniff"


def test_a_session_is_signed_with_the_key_of_the_moment(app):
    client = app.test_client()
    client.get("/t/session/one")
    assert client.get("/t/session").json == {"seen": "one"}
    old = app.secret_key
    app.secret_key = "another key"  # a cookie signed with the old key is no longer read
    assert client.get("/t/session").json == {"seen": None}
    app.config["SECRET_KEY_FALLBACKS"] = [old]  # unless the old key is kept as a fallback
    client.get("/t/session/two")
    assert client.get("/t/session").json == {"seen": "two"}


@pytest.mark.parametrize(
    "make",
    [
        lambda: Response('{"a": 1}\n', mimetype="application/json"),
        lambda: Response("moved", status=303, headers={"Location": "/g/é?x=1"}),
        lambda: Response(status=204, headers={"Content-Length": "0"}),
        lambda: Response(iter([b"streamed"]), headers={"Content-Location": "/a b"}),
        lambda: Response(iter([b"data: x\n\n"]), mimetype="text/event-stream"),
        lambda: Response("x", headers={"Content-Length": "1", "X-Frame-Options": "DENY"}),
    ],
)
def test_an_answer_hands_the_server_the_headers_werkzeug_would(app, make):
    from service.answers import Answer

    plain = make()
    answer = Answer(plain.response, plain.status, plain.headers)
    environ = {"REQUEST_METHOD": "GET", "wsgi.url_scheme": "http", "SERVER_NAME": "localhost",
               "SERVER_PORT": "80", "PATH_INFO": "/here"}  # fmt: skip
    assert app.response_class is Answer
    ours, theirs = answer.get_wsgi_headers(environ), plain.get_wsgi_headers(environ)
    assert list(ours) == list(theirs)
    assert ours is not answer.headers and answer.headers == plain.headers  # a copy
