"""Every error status an operation can answer, in the OpenAPI document, by rule.

flask-smorest gives every operation a ``default`` response with its own ``Error`` schema
(``code``, ``status`` as a name, ``message``) as ``application/json``. That is not what
this API sends: errors are RFC 9457 problem documents (``service.problems``), as
``application/problem+json``, whose ``status`` is a number. And a ``default`` response
documents every status at once, so neither a client nor a checker such as schemathesis
could tell which errors an operation really gives (its status check passes anything). So
the ``default`` is dropped, and each operation lists the statuses that apply to it, each
with the ``Problem`` schema and a sentence saying when:

- 400 every operation (a ``Host`` this server does not answer for, a value it cannot
  read); with a JSON body, a body that is not JSON it reads exactly;
- 401 the path names a game: a bearer token that is not a seat of it, or none where a
  seat is needed;
- 403 every write (another origin); a seat's endpoints (a seat that is not the caller's,
  or may not do this); a seek's writes (not yours to cancel, or yours to accept);
- 404 every path parameter names something that may not be there;
- 409 a seat's writes (the game moved on; an ``Idempotency-Key`` used for another
  command) and writes to a seek;
- 413 an operation that takes a body (the limit ``service.bodies.body_limit`` set, else
  ``MAX_CONTENT_LENGTH``);
- 422 an operation with arguments (fields missing or wrong), a seat's endpoints (the
  rules do not allow it);
- 429 the endpoints ``service.security.limit_writes`` counts (with ``Retry-After``);
- 503 every operation: the event store or the broker cannot be reached (with
  ``Retry-After``; ``service.problems.unreachable``);
- and the few statuses particular to one endpoint, in ``PARTICULAR``.

A seat's endpoints are those on a game that ``limit_writes`` counts (they act for a seat:
join, commands, the AI, draws, vacation, hints, rematches). A 405 is no operation's
answer: it names the path's methods in ``Allow`` (``service.problems``).

``install(spec, app)`` adds the ``ErrorDocs`` apispec plugin to the spec once; the API's
blueprint class (``service.bodies.Blueprint``) calls it before its views are documented.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from http import HTTPStatus
from typing import Any

from apispec import APISpec, BasePlugin
from flask import Flask

PROBLEM = "Problem"
PROBLEM_TYPE = "application/problem+json"
PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "An RFC 9457 problem document; some carry more members (a replay "
    "import's ``divergence`` and ``report``)",
    "required": ["type", "title", "status", "detail"],
    "properties": {
        "type": {"type": "string", "description": "the kind of problem: /problems/<name>",
                 "example": "/problems/not-found"},
        "title": {"type": "string", "description": "the kind of problem, in words"},
        "status": {"type": "integer", "description": "the HTTP status"},
        "detail": {"type": "string", "description": "what went wrong, for a person"},
        "errors": {"type": "object", "description": "what is wrong with each field"},
    },
}  # fmt: skip
WRITES = frozenset({"post", "put", "patch", "delete"})
METHODS = frozenset({"get", "head", *WRITES})

# Statuses particular to one endpoint (blueprint.view), beyond the rules.
PARTICULAR: dict[str, dict[int, str]] = {
    "games.create_game": {404: "there is no game called that"},
    "replays.continue_game": {404: "there is no game called that"},
    "players.board": {404: "there is no game called that"},
    "players.player": {404: "there is no game called that"},
    "players.set_name": {409: "the name is taken"},
    "players.recover": {403: "a wrong recovery code",
                        429: "too many wrong recovery codes from this address"},
    "seeks.post_seek": {409: "you have as many open seeks as a player may"},
    "notifications.get_webhook": {404: "you have no webhook"},
    "notifications.delete_webhook": {404: "you have no webhook"},
    "notifications.test_webhook": {404: "you have no webhook"},
    "games.stream": {429: "as many live streams open from this client as it may have"},
    "notifications.notification_stream": {429: "as many live streams open from this client "
                                               "as it may have"},
    "games.hint": {503: "the hint cannot be queued now (the broker is down)"},
    "replays.request_analysis": {503: "this server cannot analyse games now (no workers, or "
                                      "the analysis could not be queued)"},
}  # fmt: skip


def install(spec: APISpec, app: Flask) -> None:
    """Document the errors of every operation ``spec`` gets from now on (once per spec)."""
    if not any(isinstance(plugin, ErrorDocs) for plugin in spec.plugins):
        plugin = ErrorDocs(app)
        plugin.init_spec(spec)
        spec.plugins.append(plugin)


class ErrorDocs(BasePlugin):
    """The apispec plugin: runs on each path as it is added, after flask-smorest's and
    marshmallow's own helpers (it is the last plugin)."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def init_spec(self, spec: APISpec) -> None:
        super().init_spec(spec)
        spec.components.schema(PROBLEM, PROBLEM_SCHEMA)

    def operation_helper(self, path: str | None = None, operations: dict | None = None,
                         **kwargs: Any) -> None:  # fmt: skip
        rule = kwargs.get("rule")
        if rule is None or not operations:
            return
        view = self.app.view_functions.get(rule.endpoint)
        params = tuple(sorted(rule.arguments))
        for method, operation in operations.items():
            if method not in METHODS:
                continue
            ours = {str(k): v for k, v in operation.get("responses", {}).items()
                    if not smorests_own(k, v)}  # fmt: skip
            facts = Facts(method, rule.endpoint, params, operation, view, self.app)
            for status, reasons in sorted(statuses(facts).items()):
                ours.setdefault(str(status), response(status, reasons))
            operation["responses"] = ours


class Facts:
    """What the rules look at: the operation's method, endpoint, path parameters, its
    documented arguments and its view's marks."""

    def __init__(
        self,
        method: str,
        endpoint: str,
        params: tuple[str, ...],
        operation: Mapping[str, Any],
        view: Callable | None,
        app: Flask,
    ) -> None:
        self.method, self.endpoint, self.params = method, endpoint, params
        self.write = method in WRITES
        self.json_body = "requestBody" in operation
        self.body_limit = getattr(view, "body_limit", None)
        self.takes_body = self.json_body or self.body_limit is not None
        self.limit = self.body_limit or app.config.get("MAX_CONTENT_LENGTH")
        self.arguments = self.json_body or any(
            p.get("in") == "query" for p in operation.get("parameters", []) if isinstance(p, dict)
        )
        self.counted = bool(getattr(view, "write_limited", False))
        self.on_game = "game_id" in params
        self.seat = self.on_game and self.counted  # acts for a seat of the game


def statuses(op: Facts) -> dict[int, list[str]]:
    """Each error status ``op`` can answer, with the reasons."""
    found: dict[int, list[str]] = defaultdict(list)
    found[400].append("a Host this server does not answer for, or a value it cannot read")
    if op.json_body:
        found[400].append("a body that is not JSON this server reads exactly (NaN, Infinity, "
                          "lone surrogates, nesting over 32 deep)")  # fmt: skip
    if op.on_game:
        found[401].append("a bearer token that is not a seat of this game"
                          + (", or none" if op.seat else ""))  # fmt: skip
    if op.write:
        found[403].append("a write from another origin")
    if op.seat:
        found[403].append("the seat is not the caller's, or may not do this (a seat already "
                          "taken; a hint or the AI in a rated game)")  # fmt: skip
    if op.write and "seek_id" in op.params:
        found[403].append("not your seek to cancel, or your own to accept")
    for name in op.params:
        found[404].append(f"no such {noun(name)}")
    if op.seat and op.write:
        found[409].append("the game has moved on (a stale version, or an Idempotency-Key "
                          "used for another command)")  # fmt: skip
    if op.write and "seek_id" in op.params:
        found[409].append("someone else got to the seek first")
    if op.takes_body:
        found[413].append(f"a body over {op.limit:,} bytes")
    if op.arguments:
        found[422].append("fields missing or wrong (errors names them)")
    if op.seat:
        found[422].append("the rules do not allow it now")
    if op.counted:
        found[429].append("past the write limit; Retry-After says when to try again")
    for status, reason in PARTICULAR.get(op.endpoint, {}).items():
        found[status].append(reason)
    found[503].append("the event store or the broker cannot be reached now; Retry-After says "
                      "when to try again")  # fmt: skip
    return found


def smorests_own(status: int | str, response: Any) -> bool:
    """flask-smorest's own error responses: the default, and its references by name (the
    422 of any arguments). An error response a view documented itself is kept."""
    error = str(status)[:1] in ("4", "5")
    return str(status) == "default" or (error and isinstance(response, str))


def noun(param: str) -> str:
    return {"n": "step"}.get(param, param.removesuffix("_id"))


def response(status: int, reasons: list[str]) -> dict[str, Any]:
    """The documented response: the problem document, and when it comes."""
    body: dict[str, Any] = {
        "description": f"{HTTPStatus(status).phrase}: " + "; ".join(reasons),
        "content": {PROBLEM_TYPE: {"schema": {"$ref": f"#/components/schemas/{PROBLEM}"}}},
    }
    if status in (429, 503):
        body["headers"] = {"Retry-After": {"description": "seconds to wait",
                                           "schema": {"type": "integer"}}}  # fmt: skip
    return body
