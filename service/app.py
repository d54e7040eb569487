"""The application factory: configuration, the write path, the API, error documents.

``create_app(config)`` builds everything and connects to nothing: the Redis client is
made here but only talks when a request needs it. Tests pass ``{"STORE": store}``.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from flask import Flask
from flask_smorest import Api

from service import health, hints, i18n, problems, request_ids, security
from service.answers import OrjsonProvider
from service.bodies import DEFAULT_BODY_BYTES
from service.flask_app import BingfaFlask
from service.ids import IdConverter, SeekIdConverter, id_schema
from service.pages import register_pages
from service.profiles import RedisProfiles
from service.queries import Queries
from workers import bootstrap

DEFAULTS: dict[str, Any] = {
    "API_TITLE": "Bingfa",
    "API_VERSION": "1",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/api",
    "OPENAPI_JSON_PATH": "openapi.json",
    "SSE_SECONDS": 300.0,  # a stream is closed after this long; the browser reconnects
    "SSE_HEARTBEAT": 15.0,  # a comment line this often keeps proxies from closing it
    "MAX_CONTENT_LENGTH": DEFAULT_BODY_BYTES,  # per endpoint: service.bodies.body_limit
    "MAX_FORM_PARTS": 8,  # a replay import sends one file
    "PERMANENT_SESSION_LIFETIME": timedelta(days=365),
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = BingfaFlask(__name__)  # Flask, with less work per request (service.flask_app)
    app.json = OrjsonProvider(app)  # answers written by orjson (service.answers)
    app.url_map.converters["id"] = IdConverter  # before any route names it
    app.url_map.converters["seek"] = SeekIdConverter
    register_config(app, config)
    request_ids.register(app)  # first: every later hook logs with the id
    register_write_path(app)
    register_api(app)
    problems.register(app)
    security.register(app)
    register_live(app)
    hints.register(app)
    i18n.register(app)
    register_pages(app)
    from service import metrics_view  # GET /metrics (Prometheus)

    metrics_view.register(app)
    health.register(app)  # /healthz, /readyz
    return app


def register_config(app: Flask, config: Mapping[str, Any] | None) -> None:
    app.config.update(DEFAULTS)
    app.config["REDIS_URL"] = os.environ.get("REDIS_URL")
    app.config["BINGFA_PARTITIONS"] = int(os.environ.get("BINGFA_PARTITIONS", 16))
    app.config["REDIS_MAX_CONNECTIONS"] = int(os.environ.get("BINGFA_REDIS_CONNECTIONS") or 64)
    app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or secrets.token_hex(32)
    app.config.update(config or {})


def register_write_path(app: Flask) -> None:
    """The parts (``workers.bootstrap.build``: the event store, the write path and the stores
    beside it) and what only the web adds over them: queries, profiles."""
    from workers.ai import LEVELS

    config = dict(app.config)
    config.setdefault("AI_LEVELS", set(LEVELS))
    if config.get("ON_APPENDED") is None and config.get("STORE") is None:
        config["ON_APPENDED"] = queue_ai_moves(app)
    parts = bootstrap.build(config)
    app.extensions["parts"] = parts
    app.extensions["bingfa"] = parts.write_path
    app.extensions["queries"] = Queries(parts.store, parts.models)
    app.extensions["profiles"] = RedisProfiles(parts.redis)  # names, recovery codes


def queue_ai_moves(app: Flask):
    """After an append, queue the moves AI seats owe (Celery). A broker that is down must
    not turn a stored move into an error: it is logged, and the AI moves when asked again."""
    from workers.dispatch import enqueue_ai_moves, enqueue_archive

    def follow_up(game, events):
        try:
            enqueue_ai_moves(game, events)
            enqueue_archive(game, events)  # the game just ended: archive its replay
        except Exception:  # the move is stored; only the AI's turn is late
            app.logger.exception("could not queue the AI's move in game %s", game.game_id)

    return follow_up


def register_live(app: Flask) -> None:
    """The live streams' hub and their cap per client: on the event store's Redis (its
    append script and the notification store's say what changed), or, over a store given
    in the config (tests, tools), in this process, told by the write path."""
    from service import live

    cap = int(os.environ.get("BINGFA_STREAMS_PER_CLIENT") or 20)
    cap = int(app.config.setdefault("STREAMS_PER_CLIENT", cap))
    lease_ms = round(3 * app.config["SSE_HEARTBEAT"] * 1000)
    parts = app.extensions["parts"]
    client, read = parts.redis, parts.store.read
    if parts.projected:  # on the event store's Redis: its scripts say what changed
        hub = app.extensions["hub"] = live.RedisHub(client)
        app.extensions["stream_slots"] = live.StreamSlots(cap, lease_ms, client)
        app.extensions["shared_reads"] = live.SharedReads(hub, read)
        return
    hub = app.extensions["hub"] = live.LocalHub()
    app.extensions["stream_slots"] = live.StreamSlots(cap, lease_ms, client)
    app.extensions["shared_reads"] = live.SharedReads(
        hub, read, fresh_s=app.config["SSE_HEARTBEAT"]
    )
    bingfa = app.extensions["bingfa"]
    before = bingfa.on_appended

    def on_appended(game, events):
        if before is not None:
            before(game, events)  # (the notifications are added there)
        hub.publish(live.game_channel(game.game_id))
        for joined in game.joined.values():
            if joined.get("player"):
                hub.publish(live.player_channel(joined["player"]))

    bingfa.on_appended = on_appended
    bingfa.on_told = lambda game_id: hub.publish(live.game_channel(game_id))


def register_api(app: Flask) -> None:
    from service.api import docs, games, kinds, lobby, replays

    api = Api(app)
    api.register_converter(IdConverter, id_schema)
    api.register_converter(SeekIdConverter, id_schema)
    api.register_blueprint(kinds.blp)
    api.register_blueprint(games.blp)
    api.register_blueprint(lobby.blp)
    api.register_blueprint(replays.blp)
    from service.api import notifications  # "your turn", "game over", webhooks

    notifications.register(app)
    api.register_blueprint(notifications.blp)
    from service.api import seeks  # matchmaking: seeks and rematches

    api.register_blueprint(seeks.blp)
    from service.api import players  # profiles, ratings, the leaderboard

    api.register_blueprint(players.blp)
    app.extensions["api"] = api
    app.register_blueprint(docs.bp)
