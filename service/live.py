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
        self._said: dict[str, int] = {}  # channel -> how often it changed (while watched)

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
                        self._said.pop(channel, None)

    def _subscribed(self, channel: str, watch: Watch) -> None:
        watch.ready.set()

    def publish(self, channel: str) -> None:
        with self._lock:
            watchers = list(self._watchers.get(channel, ()))
            if watchers:
                self._said[channel] = self._said.get(channel, 0) + 1
        for watch in watchers:
            watch.wake()

    def changes(self, channel: str) -> int:
        """How often ``channel`` changed since it was first watched here (a read made at
        one count is still good at the same count)."""
        with self._lock:
            return self._said.get(channel, 0)

    def watching(self, channel: str) -> bool:
        with self._lock:
            return channel in self._watchers

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


# -- one read for every stream of a game ----------------------------------------------------
class Tail:
    """What this process has read of one game for its streams: its envelopes in order, the
    hub's change count when they were read, and each event as each seat sees it (JSON)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.envelopes: list[Any] = []
        self.count = -1
        self.read_at = 0.0
        self.shown: dict[tuple[int, Any, bool], str] = {}


class SharedReads:
    """The streams of one game in one process share its reads: when the hub wakes them all,
    the first reads what is new (once), and each event is made into what a seat may see
    (once per seat). A read is made again when the channel changed since, or after
    ``fresh_s`` (the hub may have missed a message), and forgotten when no stream of the
    game is left here."""

    def __init__(self, hub: LocalHub, read: Callable[[str, int], list[Any]],
                 fresh_s: float = 5.0) -> None:  # fmt: skip
        self.hub, self.read, self.fresh_s = hub, read, fresh_s
        self._lock = threading.Lock()
        self._tails: dict[str, Tail] = {}

    def after(self, game_id: str, after: int) -> tuple[Tail, list[Any]]:
        """(the game's tail, its envelopes after seq ``after``)."""
        with self._lock:
            tail = self._tails.setdefault(game_id, Tail())
        channel = game_channel(game_id)
        with tail.lock:
            count = self.hub.changes(channel)
            if count != tail.count or time.monotonic() - tail.read_at > self.fresh_s:
                last = tail.envelopes[-1].seq if tail.envelopes else 0
                tail.envelopes += self.read(game_id, last)
                tail.count, tail.read_at = count, time.monotonic()
            envelopes = tail.envelopes
        start = max(0, min(after, len(envelopes)))  # seq n is at index n - 1
        while start > 0 and envelopes[start - 1].seq > after:
            start -= 1
        return tail, [e for e in envelopes[start:] if e.seq > after]

    def shown(self, tail: Tail, env: Any, seat: Any, over: bool,
              render: Callable[[], str]) -> str:  # fmt: skip
        key = (env.seq, seat, over)
        text = tail.shown.get(key)
        if text is None:
            text = tail.shown[key] = render()
        return text

    def done(self, game_id: str) -> None:
        """A stream of ``game_id`` ended: forget the game when it was the last one here."""
        if not self.hub.watching(game_channel(game_id)):
            with self._lock:
                self._tails.pop(game_id, None)


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
