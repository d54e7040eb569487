"""The caller's notifications (the player id of the session cookie) and their webhook.

``register(app)`` takes the notification store the bootstrap built (``workers.bootstrap``):
where a projector process follows the games it adds the notifications
(``events.notifications.Notifications``, a read-model follower); over a store given in the
config (tests, tools: no projector runs) the same follower runs in the write path's
``on_appended`` instead.
"""

from __future__ import annotations

import json
import os
import secrets
from typing import Any

from flask import Flask, current_app, request
from marshmallow import Schema, fields, validate

from events.errors import told
from events.notices import told_in
from events.notifications import DIGEST_DAILY, DIGEST_OFF, Notifications, NotificationStore
from events.schemas import JSON_INT_MAX
from games.i18n import said
from service import i18n, live, sse
from service.api.games import player_id
from service.bodies import Blueprint
from service.problems import problem_abort
from service.security import limit_writes
from workers.notify import BadWebhook, Webhooks, check_url, secret_for

blp = Blueprint("notifications", __name__, url_prefix="/api/me",
                description="Your notifications and webhook")  # fmt: skip
ALLOW_LOCAL = "BINGFA_WEBHOOK_ALLOW_LOCAL"
TRUE = ("1", "true", "yes", "on")


# -- wiring ---------------------------------------------------------------------------------
def register(app: Flask) -> None:
    parts = app.extensions["parts"]
    bingfa, store = parts.write_path, parts.notifications
    app.extensions["notifications"] = store
    if ALLOW_LOCAL not in app.config:
        app.config[ALLOW_LOCAL] = os.environ.get(ALLOW_LOCAL, "").lower() in TRUE
    if parts.projected:
        return  # the projector process follows the games
    follower = Notifications(store, clock=bingfa.now_ms)
    before = bingfa.on_appended

    def on_appended(game, events):
        try:
            follower.follow(game)
        except Exception:  # the move is stored; only its notification is missing
            app.logger.exception("could not add the notifications of game %s", game.game_id)
        if before is not None:
            before(game, events)

    bingfa.on_appended = on_appended


def store() -> NotificationStore:
    return current_app.extensions["notifications"]


def webhooks() -> Webhooks:
    profiles = current_app.extensions.get("profiles")
    return Webhooks(store(), current_app.config["SECRET_KEY"],
                    allow_local=bool(current_app.config[ALLOW_LOCAL]),
                    language=profiles.language if profiles is not None else None)  # fmt: skip


def now_ms() -> int:
    return current_app.extensions["bingfa"].now_ms()


# -- notifications ----------------------------------------------------------------------------
class ListQuery(Schema):
    before = fields.Integer(
        load_default=None,
        validate=validate.Range(min=1, max=JSON_INT_MAX),
        metadata={"description": "only older than this seq (paging)"},
    )
    after = fields.Integer(
        load_default=None,
        validate=validate.Range(min=0, max=JSON_INT_MAX),
        metadata={"description": "only newer than this seq"},
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class NotificationList(Schema):
    notifications = fields.List(fields.Dict(), metadata={"description": "newest first"})
    unread = fields.Integer()
    last_seq = fields.Integer(metadata={"description": "the newest notification's seq"})


class MarkRead(Schema):
    upto = fields.Integer(
        strict=True,
        load_default=None,
        validate=validate.Range(min=0, max=JSON_INT_MAX),
        metadata={"description": "the newest seq read (default: all)"},
    )


class Unread(Schema):
    unread = fields.Integer()


@blp.route("/notifications")
@blp.arguments(ListQuery(), location="query")
@blp.response(200, NotificationList)
def notifications(query):
    """Your notifications, newest first ("your turn", "your opponent joined", "game
    over", "a draw is offered"), with how many are unread."""
    player, found = player_id(), store()
    if query["after"] is not None:
        items = found.since(player, query["after"], query["limit"])[::-1]
    else:
        items = found.newest(player, query["before"], query["limit"])
    # each said in the reader's language too (``said``); ``text`` stays English
    items = [told_in(item, i18n.locale()) for item in items]
    return {"notifications": items, "unread": found.unread(player),
            "last_seq": found.last_seq(player)}  # fmt: skip


@blp.route("/notifications/read", methods=["POST"])
@limit_writes
@blp.arguments(MarkRead(), required=False)  # no body: all read
@blp.response(200, Unread)
def mark_read(body):
    """Mark your notifications read, up to ``upto`` (a seq) or all of them."""
    player, found = player_id(), store()
    upto = found.last_seq(player) if body["upto"] is None else body["upto"]
    return {"unread": found.mark_read(player, upto)}


@blp.route("/notifications/stream")
@blp.doc(responses={"200": {"description": "text/event-stream of your new notifications"}})
def notification_stream():
    """Server-sent events: each new notification (``event: notification``, ``id`` its
    seq). Reconnect with ``Last-Event-ID``; without it the stream starts from now."""
    player, found = player_id(), store()
    raw = request.headers.get("Last-Event-ID") or request.args.get("after")
    after = sse.last_event_id(raw, default=found.last_seq(player))

    locale = i18n.locale()  # the stream's request: the page's language

    def since(after: int):
        items = [told_in(item, locale) for item in found.since(player, after)]
        unread = found.unread(player) if items else 0
        return [(item["seq"], json.dumps({**item, "unread": unread}, separators=(",", ":")))
                for item in items]  # fmt: skip

    return sse.stream(after, since, "notification", live.player_channel(player), retry_ms=2000)


# -- the webhook ------------------------------------------------------------------------------
class WebhookIn(Schema):
    url = fields.String(required=True, metadata={"example": "https://example.com/bingfa"})
    digest = fields.String(
        load_default=DIGEST_OFF,
        validate=validate.OneOf([DIGEST_OFF, DIGEST_DAILY]),
        metadata={"description": '"daily": one digest a day instead'},
    )
    digest_hour = fields.Integer(
        strict=True,
        load_default=8,
        validate=validate.Range(min=0, max=23),
        metadata={"description": "the digest's hour (UTC)"},
    )


class WebhookOut(Schema):
    url = fields.String()
    digest = fields.String()
    digest_hour = fields.Integer()
    secret = fields.String(metadata={"description": "shown once, when registered"})
    deliveries = fields.List(fields.Dict(), metadata={"description": "latest results"})


class PingResult(Schema):
    delivered = fields.Boolean()
    sentence = fields.String()


# What a delivery's log shows: whether it went through, never what the receiver said (its
# status or error would let anyone probe what answers at an address this server reaches).
SHOWN_DELIVERY = ("id", "attempts", "at_ms", "result")


def _shown(hook: dict[str, str]) -> dict[str, Any]:
    return {"url": hook["url"], "digest": hook.get("digest", DIGEST_OFF),
            "digest_hour": int(hook.get("digest_hour") or 0)}  # fmt: skip


@blp.route("/webhook", methods=["PUT"])
@limit_writes
@blp.arguments(WebhookIn())
@blp.response(200, WebhookOut)
def put_webhook(body):
    """Register (or replace) your webhook. The answer holds its signing secret, shown only
    here: keep it to check the ``X-Bingfa-Signature`` of each delivery."""
    try:
        url = check_url(body["url"], allow_local=bool(current_app.config[ALLOW_LOCAL]))
    except BadWebhook as error:
        problem_abort(422, told(error))
    player, nonce = player_id(), secrets.token_hex(16)
    hook = {"url": url, "base": request.host_url.rstrip("/"), "digest": body["digest"],
            "digest_hour": body["digest_hour"], "nonce": nonce}  # fmt: skip
    store().set_webhook(player, hook, now_ms())
    secret = secret_for(current_app.config["SECRET_KEY"], player, nonce)
    return {**_shown({k: str(v) for k, v in hook.items()}), "secret": secret}


@blp.route("/webhook")
@blp.response(200, WebhookOut)
def get_webhook():
    """Your webhook (never its secret) and its latest deliveries."""
    player = player_id()
    hook = store().webhook(player)
    if hook is None:
        problem_abort(404, said("you have no webhook; register one with PUT /api/me/webhook"))
    deliveries = [{k: d[k] for k in SHOWN_DELIVERY if k in d} for d in store().deliveries(player)]
    return {**_shown(hook), "deliveries": deliveries}


@blp.route("/webhook", methods=["DELETE"])
@limit_writes
@blp.response(204)
def delete_webhook():
    """Stop sending to your webhook (what waited to be sent is dropped)."""
    if not store().delete_webhook(player_id()):
        problem_abort(404, said("you have no webhook to remove"))


@blp.route("/webhook/test", methods=["POST"])
@limit_writes
@blp.response(200, PingResult)
def test_webhook():
    """Send a signed test delivery to your webhook now, and say whether it was delivered
    (a 2xx answer), nothing more."""
    player = player_id()
    if store().webhook(player) is None:
        problem_abort(404, said("you have no webhook; register one with PUT /api/me/webhook"))
    sent = webhooks().ping(player, now_ms())
    if not sent.ok:  # for the operator's eyes only
        current_app.logger.info("webhook test for %s not delivered: %s %s", player,
                                sent.status, sent.detail)  # fmt: skip
    sentence = (said("The test was delivered.") if sent.ok else
                said("The test was not delivered: check the address, and that it answers a "
                     "POST with a 2xx status."))  # fmt: skip
    return {"delivered": sent.ok, "sentence": i18n.say(sentence)}
