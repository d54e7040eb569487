"""Games: create, join, view, commands, events, live stream. Views are thin: load the
request, call the write path or the projector, dump the answer."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import current_app, request, session

from events import matches, table
from events.envelope import Envelope
from events.schemas import SYSTEM_FIELDS
from events.writepath import Forbidden, WritePath
from games.base import match_of
from games.i18n import said
from service import access, hints, kinds, live, narration, schemas, sse
from service.bodies import COMMAND_BODY_BYTES, Blueprint, body_limit
from service.problems import Unauthorized, problem_abort
from service.profiles import anonymous_label
from service.security import limit_writes

blp = Blueprint("games", __name__, url_prefix="/api/games", description="Games and moves")


def bingfa() -> WritePath:
    return current_app.extensions["bingfa"]


SEAT_HEADER = "X-Bingfa-Seat"  # which of the caller's seats, when one player holds both


def caller_seat(game_id: str) -> str | None:
    """The seat the caller acts for: the seat of its bearer token, else the seat this
    browser's player took (the player id in the signed session cookie, which a recovery
    code carries to another browser), else None: a spectator."""
    token = access.bearer(request.headers.get("Authorization"))
    if token is None:
        return player_seat(game_id)
    seat = access.request_seat(bingfa(), game_id, token)
    if seat is None:
        raise Unauthorized(said("this token is not a seat of this game"))
    return seat


def player_seat(game_id: str) -> str | None:
    player = session.get("player")
    if not player:
        return None
    seats = bingfa().seats_of_player(game_id, player)
    wanted = request.headers.get(SEAT_HEADER)
    if wanted:
        return wanted if wanted in seats else None
    return seats[0] if len(seats) == 1 else None


def acting_seat(game_id: str, refusal: str) -> str:
    """The caller's seat, for an endpoint only a seat may use (401 with ``refusal``)."""
    seat = caller_seat(game_id)
    wanted = request.headers.get(SEAT_HEADER)
    if seat is None and wanted and session.get("player"):
        raise Forbidden(
            said(
                "this browser did not take the {wanted} seat: open the invite "
                "link for it, or carry your identity here with a recovery code",
                wanted=wanted,
            )
        )
    if seat is None:
        raise Unauthorized(refusal)
    return seat


def player_id() -> str:
    """The browser's player identity, kept in the signed session cookie."""
    if "player" not in session:
        session["player"] = access.new_token()
        session.permanent = True
    return session["player"]


def visible(env: Envelope, seat: str | None, rules: Any, over: bool) -> dict[str, Any]:
    """An envelope as ``seat`` may see it: whole when public, its own, or the game is over;
    else the game's redacted stub."""
    data = env.to_dict()
    if over or env.visible_to in ("all", seat):
        return data
    if env.visible_to == "server" or not hasattr(rules, "redact"):
        stub: dict[str, Any] = {}
    elif env.type in SYSTEM_FIELDS:  # e.g. command_given: who acted, not what they chose
        stub = {"seat": env.payload.get("seat")}
    else:
        stub = rules.redact(env.event(), seat)
    data["payload"] = {k: v for k, v in stub.items() if k not in ("type", "visible_to")}
    data.pop("salt", None)  # with the salt hidden, the hash tells nothing about the payload
    data["redacted"] = True
    return data


def told(env: Envelope, seat: str | None, rules: Any, over: bool,
         words: dict[str, str] | None = None) -> dict[str, Any]:  # fmt: skip
    """``visible``, with the sentence that tells it to ``seat`` as ``text`` (``words``:
    ``narration.messages(rules)``, looked up once for a list of events)."""
    return narration.with_text(rules, visible(env, seat, rules, over), seat, words)


@blp.route("", methods=["POST"])
@limit_writes
@blp.arguments(schemas.CreateGame(), required=False)  # every field has a default
@blp.response(201, schemas.Created)
def create_game(body):
    """Start a game. Each human seat gets a token, shown only in this answer."""
    if body["game"] in kinds.games.REGISTRY:  # an unknown game is the write path's 404
        kinds.check_options(body["game"], body["options"])
    tokens = {seat: access.new_token() for seat, kind in body["seats"].items() if kind == "human"}
    game_id = bingfa().create_game(
        body["game"],
        body["options"],
        body["seats"],
        access={seat: access.token_hash(t) for seat, t in tokens.items()},
        rated=body["rated"],
        clock=body["clock"],
        match=body["match"],
    )
    seats = {}
    for seat, kind in body["seats"].items():
        link = {"kind": kind}
        if seat in tokens:
            link["token"] = tokens[seat]
            link["invite"] = f"/g/{game_id}/{seat}#token={tokens[seat]}"
        seats[seat] = link
    return {"game_id": game_id, "version": bingfa().store.version(game_id), "seats": seats}


@blp.route("/<id:game_id>/join", methods=["POST"])
@limit_writes
@blp.arguments(schemas.Join(), required=False)  # {nonce?}
@blp.response(200, schemas.Version)
def join(body, game_id):
    """Take your seat (the token of the invite link in ``Authorization: Bearer``)."""
    seat = acting_seat(
        game_id, said("taking a seat needs its token: Authorization: Bearer <token>")
    )
    version = bingfa().join(game_id, seat, player=player_id(), nonce=body["nonce"])
    return {"version": version}


@blp.route("/<id:game_id>")
@blp.response(200, schemas.GameView)
def view(game_id):
    """The game as the caller may see it: a seat's view with its token, else a spectator's."""
    seat = caller_seat(game_id)
    game = bingfa().load(game_id)
    rules = game.rules
    seats = {
        s: {"kind": k, "joined": s in game.joined, "player": game.joined.get(s, {}).get("player")}
        for s, k in game.seats.items()
    }
    people = [s["player"] for s in seats.values()
              if s["player"] and not s["player"].startswith("ai:")]  # fmt: skip
    names = current_app.extensions["profiles"].names_of(people) if people else {}
    playing = seat if game.seats.get(seat) == "human" else None  # not the computer for it
    for taken in seats.values():
        if taken["player"] in names:  # a person's seat, not an AI's ("ai:<level>")
            taken["name"] = names[taken["player"]] or anonymous_label(taken["player"])
    body = {
        "game_id": game_id,
        "game": rules.key,
        "version": game.version,
        "seat": seat,
        "seats": seats,
        "pending": game.pending,
        "outcome": game.outcome,
        "view": rules.view(game.state, seat) if game.dealt else None,
        "rated": game.rated,
        "clock": clock_of(game),
        "draw_offer": game.draw_offer,
        "created": {k: v for k, v in game.created.items() if k in CREATED_SHOWN},
        # what the page prints: whose turn it is, and how the game ended, for the caller
        "prompt": narration.turn_text(rules, game, playing),
        "outcome_text": narration.outcome_text(rules, game.outcome, seat),
        "match": matches.view(bingfa(), game, seat),
    }
    return body, 200, {"ETag": f'"{game.version}"'}


CREATED_SHOWN = ("options", "clock", "rematch_of", "seek", "from")


def clock_of(game) -> dict | None:
    """The clocks as the page shows them (public: everyone sees both clocks)."""
    control = game.control
    if control is None:
        return None
    seats = {s: game.table.seat_clock(s) for s in game.created_seats}
    return {"control": game.created["clock"], "seats": seats, "now": bingfa().now()}


@blp.route("/<id:game_id>/commands", methods=["POST"])
@body_limit(COMMAND_BODY_BYTES)
@limit_writes
@blp.arguments(schemas.SubmitCommand())
@blp.response(201, schemas.Submitted)
def submit(body, game_id):
    """Send a command for your seat. ``Idempotency-Key`` (up to 200 characters, a UUID will
    do) makes retries safe; the version you saw (``expected_version`` or ``If-Match``)
    refuses a stale move with 409."""
    seat = acting_seat(
        game_id, said("a command needs your seat's token: Authorization: Bearer <token>")
    )
    expected = body["expected_version"]
    if expected is None and request.headers.get("If-Match"):
        expected = _version_of(request.headers["If-Match"])
    result = bingfa().submit(
        game_id,
        seat,
        body["command"],
        idempotency_key=_idempotency_key(),
        expected_version=expected,
        by=table.PLAYER,  # a request is the seat's player, never the computer
    )
    game = result.game or bingfa().load(game_id)  # None for a retry
    stored = result.stored
    over = game.outcome is not None
    words = narration.messages(game.rules)
    shown = [told(e, seat, game.rules, over, words) for e in stored[: len(result.events)]]
    return {
        "version": result.version,
        "duplicate": result.duplicate,
        "events": shown,
        "outcome": game.outcome,
        "outcome_text": narration.outcome_text(game.rules, game.outcome, seat),
    }


@blp.route("/<id:game_id>/ai", methods=["POST"])
@limit_writes
@blp.arguments(schemas.HandToAi())
@blp.response(200, schemas.Version)
def hand_to_ai(body, game_id):
    """Let the AI play your seat for the rest of the game, or until you take it back
    (not in rated games)."""
    seat = acting_seat(
        game_id, said("handing a seat to the AI needs its token: Authorization: Bearer")
    )
    return {"version": bingfa().hand_to_ai(game_id, seat, body["level"])}


@blp.route("/<id:game_id>/take-back", methods=["POST"])
@limit_writes
@blp.response(200, schemas.Version)
def take_back(game_id):
    """Take back the seat you handed to the AI: you play it again from now (your clock,
    if the game has one, runs for the decision it owes from now)."""
    seat = acting_seat(game_id, said("taking a seat back needs its token: Authorization: Bearer"))
    return {"version": bingfa().take_back(game_id, seat)}


@blp.route("/<id:game_id>/draw", methods=["POST"])
@limit_writes
@blp.arguments(schemas.Draw())
@blp.response(200, schemas.Version)
def draw(body, game_id):
    """Offer a draw, or accept or decline the one your opponent offered. An offer stands
    until it is answered or the next command is given."""
    seat = acting_seat(game_id, said("a draw is offered by a seat: Authorization: Bearer <token>"))
    return {"version": bingfa().draw(game_id, seat, body["action"])}


@blp.route("/<id:game_id>/vacation", methods=["POST"])
@limit_writes
@blp.arguments(schemas.Vacation())
@blp.response(200, schemas.Version)
def vacation(body, game_id):
    """Stop your clock in this game for some of the vacation days it was created with."""
    seat = acting_seat(game_id, said("vacation is taken by a seat: Authorization: Bearer <token>"))
    return {"version": bingfa().take_vacation(game_id, seat, body["days"])}


@blp.route("/<id:game_id>/hint")
@limit_writes  # a hint runs a search (on an AI worker): counted like a write
@blp.response(200, schemas.Hint)
@blp.alt_response(202, schema=schemas.Hint, description="Being worked out: ask again")
def hint(game_id):
    """The AI's suggestion for your decision, from what your seat knows (unrated games).
    An AI worker works it out once per position; the answer waits for it a few seconds,
    else says 202 (``Retry-After``): ask again."""
    seat = acting_seat(game_id, said("a hint is for a seat: Authorization: Bearer <token>"))
    version = bingfa().hint_position(game_id, seat)
    found = hints.ask(current_app, game_id, version, seat)
    if found is None:
        return {"version": version, "status": "thinking"}, 202, {"Retry-After": "1"}
    rules = bingfa().registry[bingfa().store.game_of(game_id) or ""]
    command = found.get("command")
    text = None if command is None else narration.command_text(rules, command, seat)
    return {**found, "status": "ready", "text": text}


IDEMPOTENCY_KEY_CHARS = 200  # a UUID is 36; every key is kept with its game for good


def _idempotency_key() -> str | None:
    """The request's ``Idempotency-Key``; one longer than any client needs is refused, so
    that retries cannot grow a game's keys without bound."""
    key = request.headers.get("Idempotency-Key") or None
    if key is not None and len(key) > IDEMPOTENCY_KEY_CHARS:
        problem_abort(400, said("An Idempotency-Key is at most {n} characters (a UUID will "
                                "do).", n=IDEMPOTENCY_KEY_CHARS))  # fmt: skip
    return key


def _version_of(etag: str) -> int:
    try:
        return int(etag.strip().strip('W/"'))
    except ValueError:
        problem_abort(400, said("If-Match is the version you saw, as the ETag gave it"))
        raise


@blp.route("/<id:game_id>/events")
@blp.arguments(schemas.EventsQuery(), location="query")
@blp.response(200, schemas.EventList)
def events(query, game_id):
    """The events after ``after`` that the caller may see (others are redacted)."""
    seat = caller_seat(game_id)
    game = bingfa().load(game_id)
    over = game.outcome is not None
    stored = bingfa().store.read(game_id, after=query["after"])
    words = narration.messages(game.rules)
    shown = [told(e, seat, game.rules, over, words) for e in stored]
    return {"version": game.version, "events": shown, "outcome": game.outcome,
            "outcome_text": narration.outcome_text(game.rules, game.outcome, seat)}  # fmt: skip


@blp.route("/<id:game_id>/stream")
@blp.doc(responses={"200": {"description": "text/event-stream of the caller's events"}})
def stream(game_id):
    """Server-sent events: each event the caller may see, ``id`` = its seq. Reconnect with
    ``Last-Event-ID``; a connection is closed after a while and the browser reconnects."""
    seat = caller_seat(game_id)
    app = bingfa()
    rules = app.registry[app.store.game_of(game_id) or ""]
    reads: live.SharedReads = current_app.extensions["shared_reads"]
    after = sse.last_event_id(request.headers.get("Last-Event-ID") or request.args.get("after"))
    ended = [False]  # as the last read of the shared tail saw it

    def since(after: int):
        tail, stored = reads.after(game_id, after)
        # every ending writes the revealed seed last: from then on, everything is shown
        over = ended[0] = bool(tail.envelopes) and tail.envelopes[-1].type == "seed_revealed"

        def text(env: Envelope) -> str:
            return json.dumps(told(env, seat, rules, over), separators=(",", ":"))

        return [(env.seq, reads.shown(tail, env, seat, over, lambda env=env: text(env)))
                for env in stored]  # fmt: skip

    return sse.stream(after, since, "game", live.game_channel(game_id),
                      ended=lambda: reads.done(game_id),
                      notices=match_notices(game_id, rules, lambda: ended[0]))  # fmt: skip


Notices = Callable[[], list[tuple[str, str]]]


def match_notices(game_id: str, rules: Any, over: Callable[[], bool]) -> Notices | None:
    """For a game of a match: a ``match`` notice on its stream when, the game over, the
    match goes on (the next game made, the result decided in a later game), so a page
    left open on game 1 learns the result when game 2 ends (the end hook tells game 1's
    channel, ``events.matches.tell``). The first is sent as soon as the game is seen over
    (it may have changed since the page loaded). None for a game of no match."""
    if match_of(rules) is None or matches.info(bingfa().load(game_id)) is None:
        return None
    app, said = bingfa(), [""]

    def notices() -> list[tuple[str, str]]:
        if not over():
            return []  # the game's own events say all until it ends (and cost no read)
        game = app.load(game_id)
        text = json.dumps(matches.progress(app, game), separators=(",", ":"))
        if text == said[0]:
            return []
        said[0] = text
        return [("match", text)]

    return notices
