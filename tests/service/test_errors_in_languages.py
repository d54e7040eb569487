"""Problem documents in the reader's language: ``title`` and ``detail`` said in the
request's locale (``?lang=``, ``X-Bingfa-Language``, ``Accept-Language``), ``type`` the same
identifier in every language; and no client-facing error written outside the catalogs (an
AST check of every raise of a mapped exception class)."""

from __future__ import annotations

import ast
import importlib
import inspect
import io
import textwrap
from pathlib import Path

import fakeredis
import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import NullTranslations, Translations

import events.i18n
from events.store import InMemoryEventStore
from service import create_app, problems
from service.catalogs import PLATFORM

ROOT = Path(__file__).resolve().parents[2]

# a tiny Korean catalog of the platform: the sentences these tests meet
KOREAN = {
    "Not found": "찾을 수 없음",
    "there is no game {game_id!r}": "게임 {game_id!r}이(가) 없습니다",
    "The request is not valid": "요청이 올바르지 않습니다",
    "Some fields are missing or wrong: {fields}": "빠졌거나 틀린 필드: {fields}",
    "Method Not Allowed": "허용되지 않는 메서드",
    "The method is not allowed for the requested URL.": "이 URL에는 허용되지 않는 메서드입니다.",
    "The request body is too large": "요청 본문이 너무 큽니다",
    "this endpoint takes a body of at most {limit} bytes; nothing was read or changed": (
        "이 엔드포인트는 최대 {limit}바이트의 본문을 받습니다. 아무것도 읽거나 바꾸지 않았습니다"
    ),
}


def compiled(entries: dict[str, str], locale: str) -> Translations:
    catalog = Catalog(locale=locale)
    for english, translated in entries.items():
        catalog.add(english, translated)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(fp=buffer)


@pytest.fixture
def korean(monkeypatch):
    found = compiled(KOREAN, "ko")

    def translations(folder: str, locale: str):
        if locale == "ko" and folder == str(PLATFORM):
            return found
        return NullTranslations()

    monkeypatch.setattr(events.i18n, "translations", translations)


@pytest.fixture
def client(korean):
    app = create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                      "TESTING": True, "SECRET_KEY": "k", "MAX_CONTENT_LENGTH": 2048,
                      "RATELIMIT_WRITES": "1000 per second"})  # fmt: skip
    return app.test_client()


ASKED_KOREAN = [
    {"headers": {"X-Bingfa-Language": "ko"}},
    {"query_string": {"lang": "ko"}},
    {"headers": {"Accept-Language": "ko-KR,ko;q=0.9"}},
]


@pytest.mark.parametrize("asked", ASKED_KOREAN, ids=["header", "query", "accept-language"])
def test_a_mapped_error_is_said_in_the_request_language_with_the_same_type(client, asked):
    english = client.get("/api/games/nope")
    korean = client.get("/api/games/nope", **asked)
    assert english.status_code == korean.status_code == 404
    assert korean.mimetype == "application/problem+json"
    assert english.json["title"] == "Not found"
    assert english.json["detail"] == "there is no game 'nope'"
    assert korean.json["title"] == "찾을 수 없음"
    assert korean.json["detail"] == "게임 'nope'이(가) 없습니다"
    assert korean.json["type"] == english.json["type"] == "/problems/not-found"


def test_field_errors_say_their_summary_in_the_request_language(client):
    english = client.post("/api/games", json={"seats": 5})
    korean = client.post("/api/games", json={"seats": 5}, headers={"X-Bingfa-Language": "ko"})
    assert english.status_code == korean.status_code == 422
    assert english.json["detail"] == "Some fields are missing or wrong: seats"
    assert korean.json["detail"] == "빠졌거나 틀린 필드: seats"
    assert korean.json["title"] == "요청이 올바르지 않습니다"
    assert korean.json["type"] == english.json["type"] == "/problems/invalid-request"
    # each field's own message stays marshmallow's (a machine-readable detail)
    assert korean.json["errors"] == english.json["errors"]


def test_werkzeug_errors_are_said_in_the_request_language(client):
    english = client.delete("/api/games")
    korean = client.delete("/api/games", query_string={"lang": "ko"})
    assert english.status_code == korean.status_code == 405
    assert english.json["title"] == "Method Not Allowed"
    assert korean.json["title"] == "허용되지 않는 메서드"
    assert korean.json["detail"] == "이 URL에는 허용되지 않는 메서드입니다."
    assert korean.json["type"] == english.json["type"] == "/problems/method-not-allowed"
    assert korean.headers.get("Allow") == english.headers.get("Allow")


def test_a_body_too_large_is_said_in_the_request_language(client):
    body = b'{"x": "' + b"a" * 4096 + b'"}'
    english = client.post("/api/games", data=body, content_type="application/json")
    korean = client.post("/api/games", data=body, content_type="application/json",
                         headers={"X-Bingfa-Language": "ko"})  # fmt: skip
    assert english.status_code == korean.status_code == 413
    assert english.json["detail"] == (
        "this endpoint takes a body of at most 2,048 bytes; nothing was read or changed"
    )
    assert korean.json["title"] == "요청 본문이 너무 큽니다"
    assert korean.json["detail"].startswith("이 엔드포인트는 최대 2,048바이트")
    assert korean.json["type"] == english.json["type"] == "/problems/too-large"


def test_a_sentence_the_catalog_lacks_stays_english(client):
    korean = client.get("/api/kinds/nope", headers={"X-Bingfa-Language": "ko"})
    assert korean.status_code == 404
    assert korean.json["title"] == "찾을 수 없음"  # the title is in the catalog
    assert korean.json["detail"].isascii()  # the detail is not: English, never empty
    assert korean.json["detail"]


# -- no client-facing error escapes the catalogs ------------------------------------------
PACKAGES = ("service", "events", "workers", "replays")
# modules that define subclasses of the mapped classes, imported so they are found
DEFINING = ("service.app", "events.commands", "events.table", "events.writepath",
            "replays.record", "replays.replay", "replays.importer", "replays.store",
            "workers.notify", "service.matchmaking", "service.profiles")  # fmt: skip


# what a view turns into a problem document besides the mapping (its own handler, or a
# ``told(error)`` passed on)
RENDERED = (("replays.record", "RecordError"), ("replays.replay", "BadStep"),
            ("service.profiles", "NameRefused"), ("service.profiles", "NameTaken"),
            ("service.profiles", "MalformedCode"), ("service.profiles", "WrongCode"),
            ("service.matchmaking", "Conflict"), ("workers.notify", "BadWebhook"),
            ("replays.importer", "ImportRefused"))  # fmt: skip


def mapped_classes() -> set[type]:
    for name in DEFINING:
        importlib.import_module(name)
    roots = [exc for exc, *_ in problems.MAPPING] + [problems.CommandRefused]
    roots += [getattr(importlib.import_module(module), name) for module, name in RENDERED]
    found: set[type] = set()
    todo = list(roots)
    while todo:
        cls = todo.pop()
        if cls not in found:
            found.add(cls)
            todo.extend(cls.__subclasses__())
    return {cls for cls in found if cls.__module__.split(".")[0] in (*PACKAGES, "games")}


def said_or_carried(node: ast.expr) -> bool:
    """A ``said(...)`` call, or a value that carries one along (a name, an attribute, a
    call of a helper that answers one: ``told(error)``, ``over_text(game)``); never a
    literal, an f-string, a concatenation or ``str(...)`` / ``.format(...)``."""
    if isinstance(node, ast.Constant | ast.JoinedStr | ast.BinOp):
        return False
    if isinstance(node, ast.BoolOp):
        return all(said_or_carried(v) for v in node.values)
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name) and func.id == "str":
            return False
        return not (isinstance(func, ast.Attribute) and func.attr in ("format", "join"))
    return isinstance(node, ast.Name | ast.Attribute | ast.Subscript | ast.IfExp)


def sources() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def test_every_raise_of_a_mapped_exception_says_a_catalog_sentence():
    names = {cls.__name__ for cls in mapped_classes()}
    assert {"NotFound", "Refused", "Invalid", "RecordError"} <= names  # the check sees them
    bad = []
    for path in sources():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            call, where = None, 0
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                func = node.exc.func
                name = getattr(func, "id", None) or getattr(func, "attr", None)
                if name in names and node.exc.args:
                    call = node.exc
            elif (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "problem_abort"
                  and len(node.args) > 1):  # fmt: skip
                call, where = node, 1
            if call is not None and not said_or_carried(call.args[where]):
                bad.append(f"{path.relative_to(ROOT)}:{call.lineno}: "
                           f"{ast.get_source_segment(path.read_text(), call)[:80]}")  # fmt: skip
    assert not bad, "client-facing errors outside the catalogs (use said()):\n" + "\n".join(bad)


def test_a_mapped_exception_that_words_its_own_sentence_says_it_with_said():
    own = []
    for cls in mapped_classes():
        for method in ("__init__", "__str__"):
            if method in vars(cls):
                code = textwrap.dedent(inspect.getsource(vars(cls)[method]))
                if "said(" not in code and ('f"' in code or '"' in code):
                    own.append(f"{cls.__module__}.{cls.__name__}.{method}")
    assert not own, own


def test_the_check_catches_a_literal_and_lets_a_said_through():
    literal = ast.parse('raise NotFound(f"there is no game {x}")').body[0].exc.args[0]
    joined = ast.parse('raise NotFound("a " + b)').body[0].exc.args[0]
    marked = ast.parse('raise NotFound(said("there is no game {x}", x=x))').body[0].exc.args[0]
    assert not said_or_carried(literal) and not said_or_carried(joined)
    assert said_or_carried(marked)
