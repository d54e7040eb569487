"""The one place the service is assembled from configuration: the event store, the write
path and every store beside it (replays, analyses, notifications, read models, hints).
The web app (``service.app.create_app``, which adds what only the web needs) and each
worker process (``parts()``, built from the environment on first use, then kept) both
build theirs here; no view or task builds a store of its own.

Configuration (a mapping: the environment, or a test's dict):
- ``REDIS_URL``: the event store's Redis (``redis+cluster://`` for a Cluster), with
  ``BINGFA_PARTITIONS`` (16) and ``REDIS_MAX_CONNECTIONS`` (a bounded pool, for the web);
- or ``STORE``, an event store given whole (tests, tools: an ``InMemoryEventStore``),
  with ``REDIS``, the Redis client the other stores live on (tests pass fakeredis: the
  service itself never imports a test dependency);
- ``ON_APPENDED``, ``CLOCK``, ``AI_LEVELS``: handed to the write path.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from events.hints import HintCache
from events.notifications import NotificationStore
from events.readmodels import ReadModels
from events.redis_store import RedisEventStore, connect
from events.store import EventStore
from events.writepath import WritePath
from replays.analysis_store import AnalysisStore
from replays.store import ReplayStore


@dataclass
class Parts:
    """Everything a process of the service works with."""

    store: EventStore
    redis: Any  # the client the stores beside the event store live on
    write_path: WritePath
    replays: ReplayStore
    analyses: AnalysisStore
    notifications: NotificationStore
    hints: HintCache
    # The read models on the event store's Redis; None over an in-memory store (the
    # queries then compute the same answers from the streams).
    models: ReadModels | None
    # Whether a projector process follows the games (built from REDIS_URL); else this
    # process's write path feeds the followers (notifications) and the live hub itself.
    projected: bool = True


def build(config: Mapping[str, Any]) -> Parts:
    """The parts that ``config`` describes (see the module's doc)."""
    store = config.get("STORE")
    client = config.get("REDIS")
    models = None
    if store is None:
        url = config.get("REDIS_URL")
        if not url:
            raise RuntimeError("REDIS_URL is not set: the service needs the event store's "
                               "Redis (for example redis://127.0.0.1:6379/0, or run "
                               "`bingfa up`)")  # fmt: skip
        partitions = int(config.get("BINGFA_PARTITIONS") or 16)  # the same in every process
        client = client or connect(url, config.get("REDIS_MAX_CONNECTIONS"))
        store = RedisEventStore(client, partitions=partitions)
        models = ReadModels(client, partitions)
    elif client is None:
        raise RuntimeError("a STORE given whole needs REDIS too: the Redis client its "
                           "replays, notifications and hints live on (tests: "
                           "fakeredis.FakeRedis())")  # fmt: skip
    elif isinstance(store, RedisEventStore):  # its read models, kept by a projector or not
        models = ReadModels(store.redis, store.partitions)
    write_path = WritePath(store, on_appended=config.get("ON_APPENDED"),
                           ai_levels=config.get("AI_LEVELS"))  # fmt: skip
    if config.get("CLOCK") is not None:  # tests drive time: () -> aware UTC datetime
        write_path.clock = config["CLOCK"]
    replays = ReplayStore(client)
    return Parts(store, client, write_path, replays, AnalysisStore(client),
                 NotificationStore(client), HintCache(client), models,
                 projected=config.get("STORE") is None)  # fmt: skip


# -- a worker process's parts ---------------------------------------------------------------
_lock = threading.Lock()
_parts: Parts | None = None


def parts(celery: Any = None) -> Parts:
    """This worker process's parts, built from the environment on first use. Each append
    its write path makes queues the work then owed (``workers.dispatch.follow_up``)
    through ``celery`` (the calling task's own app)."""
    global _parts
    with _lock:
        if _parts is None:
            from workers.dispatch import follow_up

            config = {**os.environ, "ON_APPENDED": partial(follow_up, celery=celery)}
            _parts = build(config)
        return _parts


def write_path(celery: Any = None) -> WritePath:
    return parts(celery).write_path


def use(path: WritePath, redis: Any = None) -> Parts:
    """Make ``path`` (and the stores beside it: on its store's Redis, else on ``redis``)
    this process's parts (tests)."""
    global _parts
    on_redis = isinstance(path.store, RedisEventStore)
    client = redis if redis is not None else path.store.redis if on_redis else None
    if client is None:
        raise RuntimeError("give use() the Redis client of the stores beside the write path")
    found = Parts(path.store, client, path, ReplayStore(client), AnalysisStore(client),
                  NotificationStore(client), HintCache(client),
                  ReadModels(client, path.store.partitions) if on_redis else None)  # fmt: skip
    found.projected = False
    with _lock:
        _parts = found
    return found


def reset() -> None:
    global _parts
    with _lock:
        _parts = None
