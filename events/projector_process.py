"""The projector process: consume the partition feeds, keep the read models up to date.

    REDIS_URL=redis://… [BINGFA_PARTITIONS=16] python -m events.projector_process

A consumer group (``projectors``) on every ``feed:{pN}`` shares the entries among however
many projector processes run; each is a consumer named ``<hostname>-<pid>``. Per entry
``(game, seq)``: skip it if the stored position is at or past ``seq`` (a re-delivery), else
load the game and write its entries and position in one transaction
(``ReadModels.write``), then XACK. Delivery is at least once: a process killed between the
write and the XACK leaves the entry pending; some consumer claims it (XAUTOCLAIM, entries
idle longer than ``claim_idle_ms``) on start and every ``claim_every`` seconds, and the
position makes the second delivery a no-op. An entry whose projection fails is logged and
left pending, so it is retried by the next claim.

Cluster safety: every command names keys of one partition only. The feeds are read with
one non-blocking XREADGROUP per partition (batched in one pipeline) rather than one
multi-stream XREADGROUP, which Redis Cluster would refuse (CROSSSLOT); when a sweep finds
nothing the loop sleeps ``poll`` seconds.

Environment: ``REDIS_URL`` (required), ``BINGFA_PARTITIONS`` (default 16),
``BINGFA_PROJECTOR_CLAIM_IDLE_MS`` (default 60000: how long an entry may sit unacknowledged
with another consumer before it is taken over).
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import redis as redis_lib

from events import metrics
from events.followers import followers_for
from events.logs import configure
from events.readmodels import ReadModels
from events.redis_store import DEFAULT_PARTITIONS, RedisEventStore, connect, feed_key
from events.store import EventStore

GROUP = "projectors"
log = logging.getLogger("bingfa.projector")


def consumer_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


def ensure_groups(redis: Any, partitions: int, group: str = GROUP) -> None:
    """Create the consumer group on every feed (and the feed, if no game wrote to it yet);
    a new group starts at the beginning, so a first projector sees every append."""
    for p in range(partitions):
        try:
            redis.xgroup_create(feed_key(p), group, id="0", mkstream=True)
        except redis_lib.ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise


def entry_age(entry_id: bytes | str, now: float | None = None) -> float:
    """Seconds since a stream entry was added (its id starts with the milliseconds)."""
    added_ms = int(_text(entry_id).split("-", 1)[0])
    return max(0.0, (time.time() if now is None else now) - added_ms / 1000)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


@dataclass
class Projector:
    store: EventStore
    redis: Any
    consumer: str = field(default_factory=consumer_name)
    group: str = GROUP
    count: int = 100  # entries per partition per read
    claim_idle_ms: int = 60_000
    models: ReadModels = field(init=False)
    stats: Counter = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.partitions = getattr(self.store, "partitions", DEFAULT_PARTITIONS)
        followers = followers_for(self.redis, self.partitions)
        self.models = ReadModels(self.redis, self.partitions, followers)

    def start(self) -> None:
        ensure_groups(self.redis, self.partitions, self.group)

    def handle(self, partition: int, entry_id: bytes, fields: dict) -> bool:
        """Project one feed entry and acknowledge it; False if it failed (left pending)."""
        try:
            game_id = _text(fields[b"game"])
            seq = int(fields[b"seq"])
            self.stats[self.models.project(self.store, game_id, seq)] += 1
        except Exception:  # one bad game must not stop the others; the claim retries it
            log.exception("could not project feed entry %s of partition %d", entry_id, partition)
            self.stats["failed"] += 1
            return False
        self.redis.xack(feed_key(partition), self.group, entry_id)
        return True

    def poll(self) -> int:
        """Read and project the entries not yet delivered to anyone; how many were read."""
        pipe = self.redis.pipeline(transaction=False)
        for p in range(self.partitions):
            pipe.xreadgroup(self.group, self.consumer, {feed_key(p): ">"}, count=self.count)
        read = 0
        for p, reply in enumerate(pipe.execute()):
            lag = 0.0  # nothing new: caught up
            for _, entries in reply or ():
                for entry_id, fields in entries:
                    read += 1
                    self.handle(p, entry_id, fields)
                    lag = max(lag, entry_age(entry_id))
            metrics.PROJECTOR_LAG.labels(str(p)).set(lag)
        return read

    def claim(self, min_idle_ms: int | None = None) -> int:
        """Take over entries left unacknowledged longer than ``min_idle_ms`` (by a consumer
        that died, or by this one after a failure) and project them; how many."""
        idle = self.claim_idle_ms if min_idle_ms is None else min_idle_ms
        claimed = 0
        for p in range(self.partitions):
            start = "0-0"
            while True:
                reply = self.redis.xautoclaim(
                    feed_key(p), self.group, self.consumer, idle, start, count=self.count
                )
                start, entries = reply[0], reply[1]  # Redis 7 adds a third: deleted ids
                for entry_id, fields in entries:
                    if fields is None:  # deleted from the stream (streams are never trimmed)
                        continue
                    claimed += 1
                    self.handle(p, entry_id, fields)
                if _text(start) == "0-0":
                    break
        self.stats["claimed"] += claimed
        return claimed

    def drain(self) -> int:
        """Poll until nothing new is left (tests, catch-up); entries read."""
        total = 0
        while n := self.poll():
            total += n
        return total

    def run(
        self, stop: threading.Event, poll_interval: float = 0.1, claim_every: float | None = None
    ) -> None:
        """Project until ``stop`` is set: claim at start and every ``claim_every`` seconds
        (default: half of ``claim_idle_ms``), otherwise poll."""
        self.start()
        every = claim_every if claim_every is not None else max(self.claim_idle_ms / 2000, 0.05)
        self.claim()
        next_claim = time.monotonic() + every
        while not stop.is_set():
            try:
                if time.monotonic() >= next_claim:
                    self.claim()
                    next_claim = time.monotonic() + every
                if not self.poll():
                    stop.wait(poll_interval)
            except redis_lib.ConnectionError:
                log.warning("Redis is unreachable; trying again in a second")
                stop.wait(1.0)
            except redis_lib.ResponseError as error:
                if "NOGROUP" not in str(error):
                    raise
                log.warning("a feed lost its consumer group (flushed?); creating it again")
                self.start()


def run(
    store: EventStore,
    redis: Any,
    stop: threading.Event,
    *,
    consumer: str | None = None,
    claim_idle_ms: int = 60_000,
    claim_every: float | None = None,
    poll_interval: float = 0.1,
) -> Projector:
    """Run a projector until ``stop`` is set (callable in a thread); returns it (its stats)."""
    projector = Projector(store, redis, consumer or consumer_name(), claim_idle_ms=claim_idle_ms)
    projector.run(stop, poll_interval=poll_interval, claim_every=claim_every)
    return projector


def redis_where(url: str) -> str:
    """host:port of ``REDIS_URL`` (a cluster's: the node named), never its password."""
    parts = urlsplit(url)
    cluster = " (Redis Cluster)" if "+cluster" in parts.scheme else ""
    return f"{parts.hostname or '?'}:{parts.port or 6379}{cluster}"


def main() -> int:
    configure("projector")
    url = os.environ.get("REDIS_URL")
    if not url:
        print("the projector needs REDIS_URL (the event store's Redis)", file=sys.stderr)
        return 2
    partitions = int(os.environ.get("BINGFA_PARTITIONS", DEFAULT_PARTITIONS))
    claim_idle_ms = int(os.environ.get("BINGFA_PROJECTOR_CLAIM_IDLE_MS", 60_000))
    client = connect(url)
    store = RedisEventStore(client, partitions=partitions)
    stop = threading.Event()

    def on_signal(signum: int, _frame: Any) -> None:
        log.info("stopping (%s)", signal.Signals(signum).name)
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    name = consumer_name()
    where = redis_where(url)
    log.info("consumer %s on %d partition feeds at %s", name, partitions, where)
    projector = run(store, client, stop, consumer=name, claim_idle_ms=claim_idle_ms)
    log.info("stopped: %s", dict(projector.stats))
    client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
