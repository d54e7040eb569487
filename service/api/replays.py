"""Replays of finished games: list, read, export, step through, verify, import.

The replay store lives beside the other stores (``workers.bootstrap``). A finished game that is not
archived yet (its archive task has not run) is archived here on first read, so nothing
depends on the task; a game still being played is not a replay (404 saying so).
"""

from __future__ import annotations

import contextlib
from typing import Any

from flask import Response, abort, current_app, request
from marshmallow import Schema, fields, validate

import games
from events.errors import told
from events.projector import Lru
from events.store import UnknownGame
from events.writepath import NotFound
from games.i18n import said
from replays.archive import archive
from replays.continuation import continue_from
from replays.importer import ImportRefused, import_record
from replays.record import NotFinished, Record, RecordError
from replays.replay import BadStep, replay_of
from replays.store import BadCursor, ReplayStore, UnknownReplay
from replays.verify import verify
from service import access, i18n, narration, schemas
from service.bodies import IMPORT_BODY_BYTES, Blueprint, body_limit
from service.problems import N_, problem, problem_abort
from service.profiles import anonymous_label
from service.security import limit_writes

blp = Blueprint("replays", __name__, url_prefix="/api/replays",
                description="Replays of finished games: list, step through, verify, "
                            "export and import")  # fmt: skip

RECORDS_KEPT = 64  # parsed records kept per process (a replay never changes)


# -- schemas --------------------------------------------------------------------------------
class ListQuery(Schema):
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    cursor = fields.String(load_default=None)
    player = fields.String(load_default=None, validate=validate.Length(min=1, max=200))
    result = fields.String(load_default=None, validate=validate.Length(min=1, max=40),
                           metadata={"description": "a winning seat, or draw"})  # fmt: skip
    imported = fields.Boolean(load_default=None)


class ReplayList(Schema):
    replays = fields.List(fields.Dict(), metadata={
        "description": "headers, newest first, each with how the game ended in words "
                       "(outcome_text: head, reason, text)"})  # fmt: skip
    total = fields.Integer()
    next = fields.String(allow_none=True, metadata={"description": "cursor of the next page"})


class ReplayBody(Schema):
    header = fields.Dict(metadata={
        "description": "the record's header, with names (the name each person's seat is "
                       "shown with: their chosen name, else their anonymous label) and "
                       "outcome_text (how the game ended, as anyone reads it)"})  # fmt: skip
    events = fields.List(
        fields.Dict(),
        metadata={
            "description": "every event, each with its sentence as text (null: nothing to tell)"
        },
    )


class StateQuery(Schema):
    perspective = fields.String(data_key="as", load_default="spectator",
                                metadata={"description": "a seat, spectator or full"})  # fmt: skip


class StateBody(Schema):
    id = fields.String()
    step = fields.Integer()
    steps = fields.Integer(metadata={"description": "the last step (the number of events)"})
    perspective = fields.String()
    event = fields.Dict(allow_none=True, metadata={"description": "the event at this step"})
    view = fields.Dict()
    prompt = fields.String(metadata={"description": "what the position waits for, in words"})
    outcome = fields.Dict(
        allow_none=True,
        metadata={
            "description": "how the game had ended by this step (the game's outcome), or null"
        },
    )
    outcome_text = fields.Dict(keys=fields.String(), values=fields.String(), allow_none=True,
                               metadata=schemas.OUTCOME_TEXT)  # fmt: skip


class VerifyBody(Schema):
    id = fields.String()
    ok = fields.Boolean()
    sentence = fields.String()
    checks = fields.List(fields.String())
    divergence = fields.Dict(allow_none=True)
    notes = fields.List(fields.String())
    events = fields.Integer()


class ContinueBody(Schema):
    step = fields.Integer(required=True, strict=True,
                          metadata={"description": "the step to continue from"})  # fmt: skip
    seat = fields.String(required=True, metadata={"description": "the seat you play"})
    level = fields.String(load_default="medium",
                          metadata={"description": "the AI level of the other seat"})  # fmt: skip


class ImportedBody(Schema):
    id = fields.String()
    renamed = fields.Boolean()
    duplicate = fields.Boolean()
    sentence = fields.String()
    report = fields.Dict()


# -- helpers --------------------------------------------------------------------------------
def replay_store() -> ReplayStore:
    return current_app.extensions["parts"].replays


def _records() -> Lru:
    return current_app.extensions.setdefault("replay_records", Lru(RECORDS_KEPT))


def record(replay_id: str) -> Record:
    """The replay, archived now if the game has ended but is not archived yet."""
    cache = _records()
    found = cache.get(replay_id)
    if found is not None:
        return found
    store = replay_store()
    try:
        found = store.get(replay_id)
    except UnknownReplay:
        try:
            archive(current_app.extensions["bingfa"].store, store, replay_id)
        except UnknownGame:
            raise NotFound(said("there is no replay {replay_id!r}", replay_id=replay_id)) from None
        except NotFinished as error:
            raise NotFound(told(error)) from None
        found = store.get(replay_id)
    cache.put(replay_id, found)
    return found


# -- views ----------------------------------------------------------------------------------
@blp.route("")
@blp.arguments(ListQuery(), location="query")
@blp.response(200, ReplayList)
def list_replays(query):
    """Archived replays, newest finish first; filter by player id, result (a winning seat
    or ``draw``) and imported; page with ``next`` as ``cursor``."""
    try:
        page = replay_store().list(**query)
    except BadCursor as error:
        problem_abort(400, told(error))
    return {"replays": [_told_header(h) for h in page.items], "total": page.total,
            "next": page.next}  # fmt: skip


def _told_header(header: dict[str, Any]) -> dict[str, Any]:
    """A listed header with its players' names and how its game ended in words, as
    anyone reads it."""
    header = {**header, "names": names_of(header)}
    rules = games.REGISTRY.get(header.get("game"))
    outcome = header.get("outcome")
    if rules is None or not isinstance(outcome, dict):
        return header
    return {**header, "outcome_text": narration.outcome_text(rules, outcome, None)}


def names_of(header: dict[str, Any]) -> dict[str, str]:
    """seat -> the name a person's seat is shown with, as on the game page: their chosen
    name now, else their anonymous label (never the raw player id). The computer's seats
    are not named (the header says its level)."""
    players = header.get("players")
    if not isinstance(players, dict):
        return {}
    people = {seat: str(p) for seat, p in players.items() if p and not str(p).startswith("ai:")}
    if not people:
        return {}
    chosen = current_app.extensions["profiles"].names_of(list(people.values()))
    return {seat: chosen.get(p) or anonymous_label(p) for seat, p in people.items()}


@blp.route("/<id:replay_id>")
@blp.response(200, ReplayBody)
def get_replay(replay_id):
    """The whole record: its header and every event (everything is public now)."""
    found = record(replay_id)
    rules = games.REGISTRY.get(found.header.get("game"))
    events = [e.to_dict() for e in found.events]
    if rules is not None:  # everything is public now: told as to anyone
        table = narration.messages(rules)
        events = [narration.with_text(rules, e, None, table) for e in events]
    return {"header": _told_header(dict(found.header)), "events": events}


@blp.route("/<id:replay_id>/export")
@blp.response(200, content_type="application/x-ndjson")
def export(replay_id):
    """The record as JSON Lines (docs/replay-format.md), as a download."""
    record(replay_id)  # archives a finished game not archived yet
    text = replay_store().text(replay_id)
    return Response(text, mimetype="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="bingfa-{replay_id}.jsonl"'})  # fmt: skip


@blp.route("/<id:replay_id>/states/<int:n>")
@blp.arguments(StateQuery(), location="query")
@blp.response(200, StateBody)
def state(query, replay_id, n):
    """The position after ``n`` events as a seat saw it then (``as=<seat>``), as a
    spectator saw it, or ``full``: everything, hidden parts included."""
    found = record(replay_id)
    replay = replay_of(found)
    perspective = query["perspective"]
    if perspective not in replay.perspectives:
        problem_abort(
            400,
            said(
                "as= is one of {perspectives}, not {perspective!r}",
                perspectives=", ".join(replay.perspectives),
                perspective=perspective,
            ),
        )
    try:
        view = replay.view_at(n, perspective)
    except BadStep as error:
        raise NotFound(told(error)) from None
    rules = replay.rules
    event = narration.with_text(rules, found.events[n - 1].to_dict(), None) if n else None
    at = replay.state_at(n)
    reader = perspective if perspective in rules.seats else None  # how the end reads to it
    outcome = rules.outcome(at)  # every game's, whatever its view calls it
    return {"id": replay_id, "step": n, "steps": replay.length, "perspective": perspective,
            "event": event, "view": view,
            "prompt": narration.pending_text(rules, rules.pending(at)), "outcome": outcome,
            "outcome_text": narration.outcome_text(rules, outcome, reader)}  # fmt: skip


@blp.route("/<id:replay_id>/verify")
@blp.response(200, VerifyBody)
def verify_replay(replay_id):
    """Audit the record: hash chain, seed and nonce commitments, a re-run of the rules."""
    report = verify(record(replay_id))
    return {"id": replay_id, **_said_report(report.to_dict())}


@blp.route("", methods=["POST"])
@body_limit(IMPORT_BODY_BYTES)
@limit_writes
@blp.response(201, ImportedBody)
@blp.alt_response(200, schema=ImportedBody, description="This history is here already")
@blp.doc(requestBody={"required": True, "description": "the record (docs/replay-format.md)",
                      "content": {"application/x-ndjson": {"schema": {"type": "string"}},
                                  "multipart/form-data": {"schema": {
                                      "type": "object", "properties": {"record": {
                                          "type": "string", "format": "binary"}}}}}})  # fmt: skip
def import_replay():
    """Import a record exported from a Bingfa server: the JSON Lines as the body, or as a
    multipart file (any field name), at most 2 MiB. It is verified first; a record that
    does not hold is refused (422, with the first divergence) and nothing is stored. One
    history is one replay: importing a game that is here already (under any id, this
    server's own games included) answers 200 with its replay's id."""
    text = _upload()
    bingfa = current_app.extensions["bingfa"]
    try:
        done = import_record(text, replay_store(), archive=_archive_if_ended,
                             taken=lambda i: bingfa.store.game_of(i) is not None)  # fmt: skip
    except RecordError as error:
        problem_abort(400, said("this is not a replay record: {error}", error=told(error)))
    except ImportRefused as refused:
        report = refused.report
        said_ = _said_report(_jsonable(report))
        abort(problem(422, "replay-does-not-verify", N_("The record does not verify"),
                      report.sentence, divergence=said_["divergence"],
                      report=said_))  # fmt: skip
    body = {"id": done.id, "renamed": done.renamed, "duplicate": done.duplicate,
            "sentence": i18n.say(done.sentence),
            "report": _said_report(done.report.to_dict())}  # fmt: skip
    return body, 200 if done.duplicate else 201


@blp.route("/<id:replay_id>/continue", methods=["POST"])
@limit_writes
@blp.arguments(ContinueBody())
@blp.response(201, schemas.Created)
def continue_game(body, replay_id):
    """A new game against the AI from step ``step`` of this replay, you playing ``seat``:
    what that seat saw then, the cards it could not know re-dealt at random (from the new
    game's own verifiable chance). The seat's token is shown only in this answer; open
    its invite link to take the seat (the position is set when you do)."""
    found = record(replay_id)
    token = access.new_token()
    bingfa = current_app.extensions["bingfa"]
    game_id = continue_from(bingfa, found, body["step"], body["seat"], body["level"],
                                   access={body["seat"]: access.token_hash(token)})  # fmt: skip
    seats = {}
    for seat, kind in bingfa.load(game_id).seats.items():
        seats[seat] = {"kind": kind}
        if seat == body["seat"]:
            seats[seat].update(token=token, invite=f"/g/{game_id}/{seat}#token={token}")
    return {"game_id": game_id, "version": bingfa.store.version(game_id), "seats": seats}


def _archive_if_ended(game_id: str) -> None:
    """Make this server's game ``game_id`` a replay if it has ended (else nothing)."""
    with contextlib.suppress(NotFound):
        record(game_id)


def _jsonable(value: Any) -> Any:
    return value.to_dict()


def _said_report(report: dict[str, Any]) -> dict[str, Any]:
    """A verification report's sentences (its own, its notes, its divergence's) in the
    request's language; its fields and values as they are."""
    out = {**report, "sentence": i18n.say(report["sentence"]),
           "notes": [i18n.say(note) for note in report.get("notes") or []]}  # fmt: skip
    if isinstance(report.get("divergence"), dict):
        divergence = report["divergence"]
        out["divergence"] = {**divergence, "sentence": i18n.say(divergence["sentence"])}
    return out


def _upload() -> bytes:
    """The record sent (a body larger than the endpoint's limit is refused with 413 as
    it is read)."""
    if request.mimetype == "multipart/form-data":
        files = list(request.files.values())
        if len(files) != 1:
            problem_abort(400, said("send one file: the record as JSON Lines"))
        data = files[0].read()
    else:
        data = request.get_data(cache=False)
    if not data.strip():
        problem_abort(400, said("the body is empty: send the record as JSON Lines"))
    return data


# -- analysis -------------------------------------------------------------------------------
# The analysis runs on a worker (Celery task ``bingfa.analyse_replay``, queue ``analysis``).
# The app config ``ANALYSE`` may be a callable ``ANALYSE(replay_id)`` that queues (or runs)
# it instead: tests and tools with an in-memory store pass
# ``workers.analysis.job.inline(store)``, which runs it at once in the request. Without it,
# an app on Redis sends the Celery task; an in-memory app without it answers 503.
class AnalysisBody(Schema):
    id = fields.String()
    status = fields.String(metadata={"description": "none, queued, running, done or failed"})
    done = fields.Integer(metadata={"description": "decisions analysed so far"})
    total = fields.Integer(metadata={"description": "decisions to analyse (0 until known)"})
    error = fields.String(allow_none=True, metadata={"description": "why it failed"})
    result = fields.Dict(allow_none=True, metadata={
        "description": "when done: every decision judged from what its seat knew, the "
                       "per-player accuracy and counts, and luck (workers.analysis)"})  # fmt: skip


def analyses():
    return current_app.extensions["parts"].analyses


def _analyse_queue():
    queue = current_app.config.get("ANALYSE")
    if queue is None and current_app.extensions["parts"].projected:
        queue = _send_analysis_task
    return queue


def _send_analysis_task(replay_id: str) -> None:
    from workers.celery_app import ANALYSE_REPLAY, ANALYSIS_QUEUE
    from workers.celery_app import app as celery

    celery.send_task(ANALYSE_REPLAY, args=(replay_id,), queue=ANALYSIS_QUEUE)


@blp.route("/<id:replay_id>/analysis")
@blp.response(200, AnalysisBody)
def get_analysis(replay_id):
    """The analysis of the game: its status (``none``, ``queued``, ``running`` with
    ``done`` of ``total`` decisions, ``done`` with the ``result``, or ``failed`` with the
    ``error``). Ask for one with POST."""
    record(replay_id)
    return {"id": replay_id, **analyses().get(replay_id).to_dict()}


@blp.route("/<id:replay_id>/analysis", methods=["POST"])
@limit_writes
@blp.response(202, AnalysisBody)
@blp.alt_response(200, schema=AnalysisBody, description="The analysis is already done")
def request_analysis(replay_id):
    """Analyse the game: every decision of each seat judged from what that seat knew then,
    against the best decision the AI finds (a worker does it, in under a minute). 202 with
    the status when it is queued or running (poll GET), 200 with the result when it is
    already done. Asking again while it runs starts nothing new; a failed one is retried."""
    record(replay_id)
    store = analyses()
    status = store.get(replay_id)
    if status.status == "done":
        return {"id": replay_id, **status.to_dict()}, 200
    queue = _analyse_queue()
    if queue is None:
        abort(problem(503, "no-analysis", N_("Analysis is not available"),
                      said("this server has no workers to analyse games")))  # fmt: skip
    if store.request(replay_id):
        try:
            queue(replay_id)
        except Exception as error:  # the broker is down: say so, and let a new request retry
            current_app.logger.exception("could not queue the analysis of %s", replay_id)
            store.fail(replay_id, "the analysis could not be queued; try again later")
            why = said("the analysis could not be queued ({error})", error=type(error).__name__)
            abort(problem(503, "no-analysis", N_("Analysis is not available"), why))
    return {"id": replay_id, **store.get(replay_id).to_dict()}, 202
