"""Live updates without polling: a hub per web process wakes the streams that watch a game
(or a player's notifications) when it changes, and a cap on the streams each client holds.

What changed is said on a channel: ``g:<game id>`` after every append to a game (the event
store's append script publishes it), ``n:<player>`` after a notification is added (the
notification store's script). ``RedisHub`` listens to Redis pub/sub on one connection per
process and subscribes only to the channels its streams watch; ``LocalHub`` is the same in
one process, told by the write path itself (an in-memory store: tests, tools). Pub/sub
may drop a message (a reconnect), so a stream also looks again at every heartbeat.

A stream costs no request slot while it waits: the web process serves with gevent
(``service/gunicorn_conf.py``), so a waiting stream is a parked greenlet. Under gevent a
stream also watches its client's socket and ends the moment the client hangs up.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

log = logging.getLogger(__name__)

PREFIX = "live:"  # Redis channel names: live:g:<game>, live:n:<player>


def game_channel(game_id: str) -> str:
    return f"g:{game_id}"


def player_channel(player: str) -> str:
    return f"n:{player}"


class Watch:
    """One stream's wake-up call: ``wait`` returns True when a channel it watches changed
    (or its client's socket stirred), False after ``timeout``."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.ready = threading.Event()  # subscribed: nothing said from now on is missed

    def wake(self) -> None:
        self._event.set()

    def wait(self, timeout: float) -> bool:
        woke = self._event.wait(timeout)
        self._event.clear()
        return woke


class LocalHub:
    """Watchers by channel, woken by ``publish`` in this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watchers: dict[str, set[Watch]] = {}

    @contextmanager
    def watch(self, channel: str) -> Iterator[Watch]:
        watch = Watch()
        with self._lock:
            self._watchers.setdefault(channel, set()).add(watch)
        self._subscribed(channel, watch)
        try:
            yield watch
        finally:
            with self._lock:
                watchers = self._watchers.get(channel)
                if watchers is not None:
                    watchers.discard(watch)
                    if not watchers:
                        del self._watchers[channel]

    def _subscribed(self, channel: str, watch: Watch) -> None:
        watch.ready.set()

    def publish(self, channel: str) -> None:
        with self._lock:
            watchers = list(self._watchers.get(channel, ()))
        for watch in watchers:
            watch.wake()

    def watched(self) -> int:
        with self._lock:
            return sum(len(w) for w in self._watchers.values())


class RedisHub(LocalHub):
    """A ``LocalHub`` fed by Redis pub/sub: one connection and one listening thread (a
    greenlet under gevent) per process, started when the first stream watches, which
    subscribes to exactly the channels watched here."""

    def __init__(self, client: Any, poll: float = 0.05) -> None:
        super().__init__()
        self.client = client
        self.poll = poll  # how soon a new channel is subscribed
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._subscribed_channels: set[str] = set()

    def _subscribed(self, channel: str, watch: Watch) -> None:
        self._start()
        with self._lock:
            if channel in self._subscribed_channels:
                watch.ready.set()

    def _start(self) -> None:
        with self._start_lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._listen, name="live-hub",
                                                daemon=True)  # fmt: skip
                self._thread.start()

    def _listen(self) -> None:
        while True:
            try:
                self._listen_once()
            except Exception:  # Redis went away: every stream falls back on its heartbeat
                log.exception("live updates: the Redis subscription failed; retrying")
                with self._lock:
                    self._subscribed_channels.clear()
                time.sleep(1.0)

    def _listen_once(self) -> None:
        pubsub = self.client.pubsub()
        try:
            while True:
                self._sync(pubsub)
                message = pubsub.get_message(timeout=self.poll)
                while message is not None:
                    self._handle(message)
                    message = pubsub.get_message(timeout=0)
        finally:
            pubsub.close()

    def _sync(self, pubsub: Any) -> None:
        """Subscribe to the channels watched now, unsubscribe from the others."""
        with self._lock:
            wanted = set(self._watchers)
            have = self._subscribed_channels
            new, old = wanted - have, have - wanted
            have -= old
        if new:
            pubsub.subscribe(*(PREFIX + c for c in new))
        if old:
            pubsub.unsubscribe(*(PREFIX + c for c in old))

    def _handle(self, message: dict[str, Any]) -> None:
        raw = message.get("channel")
        channel = (raw.decode() if isinstance(raw, bytes) else str(raw))[len(PREFIX) :]
        if message.get("type") == "subscribe":
            with self._lock:
                self._subscribed_channels.add(channel)
                watchers = list(self._watchers.get(channel, ()))
            for watch in watchers:
                watch.ready.set()
        elif message.get("type") == "message":
            self.publish(channel)


# -- the client's socket ------------------------------------------------------------------
def on_hang_up(environ: dict[str, Any], watch: Watch) -> Callable[[], bool] | None:
    """Under gevent: wake ``watch`` when the client's socket becomes readable (a client of
    an event stream sends nothing more, so that is its hang-up: a parked greenlet waits
    for it) and return a function that says whether the client has gone (its ``stop``
    ends the waiting); None where that cannot be watched (threads: a hang-up is noticed
    at the next heartbeat)."""
    sock = environ.get("gunicorn.socket")
    if sock is None:
        return None
    try:
        import gevent
        from gevent.monkey import is_module_patched
        from gevent.socket import wait_read
    except ImportError:
        return None
    if not is_module_patched("socket"):
        return None

    def wait_for_the_client() -> None:
        try:
            wait_read(sock.fileno())
        except Exception:  # closed under us: the stream is ending anyway
            return
        watch.wake()

    waiter = gevent.spawn(wait_for_the_client)

    def gone() -> bool:
        if not waiter.dead:
            return False
        try:
            data = sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except BlockingIOError:
            return False
        except OSError:
            return True
        return not data  # b"": the client closed; else it sent more (the heartbeat tells)

    gone.stop = lambda: waiter.kill(block=False)  # type: ignore[attr-defined]
    return gone


# -- how many streams a client holds ------------------------------------------------------
SLOT_LUA = """
-- KEYS: the client's slots   ARGV: now ms, lease end ms, slot id, cap
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1
"""


class StreamSlots:
    """At most ``cap`` open streams per client address, for every web process together
    (a sorted set of leases in Redis, renewed at each heartbeat, so a process that dies
    frees its slots when their lease ends). ``client=None``: counted in this process."""

    def __init__(self, cap: int, lease_ms: int, client: Any = None) -> None:
        self.cap, self.lease_ms = cap, lease_ms
        self.redis = client
        self._script = client.register_script(SLOT_LUA) if client is not None else None
        self._lock = threading.Lock()
        self._local: dict[str, dict[str, float]] = {}

    @staticmethod
    def key(address: str) -> str:
        return f"sse:{{{address}}}:slots"

    def take(self, address: str) -> str | None:
        """A slot id, or None when the client holds ``cap`` streams already."""
        slot = uuid.uuid4().hex
        now = int(time.time() * 1000)
        if self._script is not None:
            ok = self._script(keys=[self.key(address)],
                              args=[now, now + self.lease_ms, slot, self.cap])  # fmt: skip
            return slot if ok else None
        with self._lock:
            held = {s: t for s, t in self._local.get(address, {}).items() if t > now}
            if len(held) >= self.cap:
                return None
            held[slot] = now + self.lease_ms
            self._local[address] = held
        return slot

    def renew(self, address: str, slot: str) -> None:
        until = int(time.time() * 1000) + self.lease_ms
        if self.redis is not None:
            self.redis.zadd(self.key(address), {slot: until}, xx=True)
            self.redis.pexpireat(self.key(address), until)
            return
        with self._lock:
            if slot in self._local.get(address, {}):
                self._local[address][slot] = until

    def give_back(self, address: str, slot: str) -> None:
        if self.redis is not None:
            self.redis.zrem(self.key(address), slot)
            return
        with self._lock:
            self._local.get(address, {}).pop(slot, None)
