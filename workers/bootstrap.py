"""A worker process's wiring: the write path over the Redis event store. It is built on first
use and then kept for the life of the process.

`bingfa()` reads `REDIS_URL` the first time a task needs it, not at import. Each append the
worker makes queues the AI moves that are then owed (`on_appended`). Tests inject their own
instance with `use(...)` and drop it with `reset()`.
"""

from __future__ import annotations

import os
import threading
from functools import partial
from typing import Any

from events.writepath import WritePath

_lock = threading.Lock()
_instance: WritePath | None = None


def bingfa(celery: Any = None) -> WritePath:
    """This process's write path. `celery` is the app that follow-up tasks are sent through
    (the calling task's own app). It is only used when the write path is first built."""
    global _instance
    with _lock:
        if _instance is None:
            _instance = build(os.environ, celery)
        return _instance


def build(environ: Any, celery: Any = None) -> WritePath:
    from events.redis_store import RedisEventStore, connect
    from workers.dispatch import follow_up

    url = environ.get("REDIS_URL")
    if not url:
        raise RuntimeError(
            "REDIS_URL is not set: a worker needs the event store's Redis "
            "(for example redis://127.0.0.1:6379/0)"
        )
    partitions = int(environ.get("BINGFA_PARTITIONS", 16))  # the web's, or games go astray
    store = RedisEventStore(connect(url), partitions=partitions)
    return WritePath(store, on_appended=partial(follow_up, celery=celery))


def use(instance: WritePath) -> None:
    """Make `instance` this process's write path (tests)."""
    global _instance
    with _lock:
        _instance = instance


def reset() -> None:
    global _instance
    with _lock:
        _instance = None
