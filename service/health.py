"""Health for a load balancer and for ``bingfa up``: ``/healthz`` and ``/readyz``.

``/healthz`` says the process answers and touches nothing else: a load balancer that
restarts what fails it must not restart every web process because Redis is down.
``/readyz`` says whether this process can serve: the event store's Redis answers, the
Celery broker answers, and the projector is no more than ``READY_MAX_LAG`` feed entries
behind (undelivered plus unacknowledged, over every partition's consumer group). Any
failure answers 503 with which check failed and why, and ``Retry-After``.

Both are cheap: the Redis probes run on their own clients with short socket timeouts
(``READY_TIMEOUT`` seconds), never on the app's pool, whose waits are long and whose
connections a hung Redis would hold. Neither is rate-limited (only writes are), and both
answer whatever the Host header says: a load balancer probes by address. The reasons
name an exception's kind, never its text, which may carry a host or a password.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify

from games.i18n import said
from service import i18n

PATHS = ("/healthz", "/readyz")
DEFAULT_MAX_LAG = 1000  # feed entries: a few seconds of a busy service
DEFAULT_TIMEOUT = 1.0  # seconds per probe (connect and each reply)
RETRY_AFTER = 5  # seconds

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    return jsonify(status="ok")


@bp.get("/readyz")
def readyz():
    checks = readiness(current_app)
    failed = [name for name, check in checks.items() if not check["ok"]]
    for check in checks.values():
        if "reason" in check:
            check["reason"] = i18n.say(check["reason"])
    response = jsonify(status="unready" if failed else "ready", failed=failed, checks=checks)
    if failed:
        response.status_code = 503
        response.headers["Retry-After"] = str(RETRY_AFTER)
    response.headers["Cache-Control"] = "no-store"
    return response


def readiness(app: Flask) -> dict[str, dict[str, Any]]:
    """Each check's result: ``{"ok": bool, ...}``, with a ``reason`` (a ``said``) if not."""
    probes = app.extensions["health_probes"]
    checks: dict[str, dict[str, Any]] = {}
    store = probes["store"]
    error = ping(store)
    checks["store"] = {"ok": True} if error is None else {"ok": False, "reason": said(
        "the event store's Redis did not answer: {error}", error=error)}  # fmt: skip
    broker = probes["broker"]
    if broker is None:
        checks["broker"] = {"ok": True, "used": False}  # a store given whole queues nothing
    elif (error := ping(broker)) is not None:
        checks["broker"] = {"ok": False, "reason": said(
            "the Celery broker did not answer: {error}", error=error)}  # fmt: skip
    else:
        checks["broker"] = {"ok": True}
    if probes["partitions"] is None:
        checks["projector"] = {"ok": True, "used": False}  # this process projects its games
    elif not checks["store"]["ok"]:
        checks["projector"] = {"ok": False, "reason": said(
            "the projector's lag is unknown: the event store's Redis did not answer")}  # fmt: skip
    else:
        checks["projector"] = projector_lag(store, probes["partitions"], probes["max_lag"])
    return checks


def ping(client: Any) -> str | None:
    """None if ``client`` answers, else the kind of its failure."""
    try:
        client.ping()
    except Exception as error:  # any failure is "not ready", said by its kind only
        return type(error).__name__
    return None


def projector_lag(client: Any, partitions: int, max_lag: int) -> dict[str, Any]:
    """The entries the projectors have not finished, over all feeds: those not yet
    delivered to the group (``lag``) plus those delivered but not acknowledged."""
    from events.projector_process import GROUP
    from events.redis_store import feed_key

    try:
        pipe = client.pipeline(transaction=False)
        for p in range(partitions):
            pipe.xinfo_groups(feed_key(p))
        replies = pipe.execute(raise_on_error=False)
    except Exception as error:
        return {"ok": False, "reason": said("the projector's lag could not be read: {error}",
                                            error=type(error).__name__)}  # fmt: skip
    lag = 0
    worst = (0, -1)  # (lag, partition)
    for p, groups in enumerate(replies):
        group = None
        if not isinstance(groups, Exception):
            group = next((g for g in groups if _text(g.get("name")) == GROUP), None)
        if group is None:
            reason = said("the projector has not started: feed {feed} has no consumer group",
                          feed=feed_key(p))  # fmt: skip
            return {"ok": False, "reason": reason}
        behind = int(group.get("lag") or 0) + int(group.get("pending") or 0)
        lag += behind
        worst = max(worst, (behind, p))
    if lag > max_lag:
        return {"ok": False, "lag": lag, "max_lag": max_lag,
                "reason": said("the projector is {lag} entries behind (at most {max_lag}; "
                               "partition {partition} most)", lag=lag, max_lag=max_lag,
                               partition=worst[1])}  # fmt: skip
    return {"ok": True, "lag": lag, "max_lag": max_lag}


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def probe_client(url: str, timeout: float) -> Any:
    """A Redis client of its own for probes: short timeouts, one connection at most."""
    import redis

    options = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    for scheme in ("redis+cluster://", "rediss+cluster://"):
        if url.startswith(scheme):
            plain = scheme.replace("+cluster", "") + url[len(scheme) :]
            return redis.RedisCluster.from_url(plain, **options)
    return redis.Redis.from_url(url, max_connections=2, **options)


def register(app: Flask, make_client: Callable[[str, float], Any] = probe_client) -> None:
    """The probes' clients (made now, connected on first use) and the two routes.

    Over ``REDIS_URL``: clients of their own on the store and on the broker
    (``CELERY_BROKER_URL``, else the store's). Over a store given whole (tests, tools):
    its Redis if it is a Redis store, else the app's ``REDIS``; the broker only if the
    config gives one (``HEALTH_BROKER``: a client), since such an app queues no task."""
    from events.redis_store import RedisEventStore
    from workers.celery_app import settings

    timeout = os.environ.get("BINGFA_READY_TIMEOUT") or DEFAULT_TIMEOUT
    timeout = float(app.config.setdefault("READY_TIMEOUT", float(timeout)))
    max_lag = os.environ.get("BINGFA_READY_MAX_LAG") or DEFAULT_MAX_LAG
    max_lag = int(app.config.setdefault("READY_MAX_LAG", int(max_lag)))
    parts = app.extensions["parts"]
    store = parts.store
    on_redis = isinstance(store, RedisEventStore)
    if app.config.get("STORE") is None:
        url = app.config["REDIS_URL"]
        store_client = make_client(url, timeout)
        broker = make_client(settings({**os.environ, "REDIS_URL": url})["broker_url"], timeout)
    else:
        store_client = store.redis if on_redis else parts.redis
        broker = app.config.get("HEALTH_BROKER")
    app.extensions["health_probes"] = {
        "store": store_client,
        "broker": broker,
        # the projector's lag where a projector process follows the games (REDIS_URL), or
        # where the config says one does (READY_PROJECTOR: tests, a tool's store)
        "partitions": store.partitions
        if on_redis and (parts.projected or app.config.get("READY_PROJECTOR"))
        else None,
        "max_lag": max_lag,
    }
    app.register_blueprint(bp)
