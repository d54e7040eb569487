"""The soak's HTTP side: requests that go to either web process (a refused or dropped
connection is tried again on the other one, with the same ``Idempotency-Key``, so a retry
is safe), and the live streams, all held by one thread with ``selectors``.

What counts as an error is decided by the caller (``bench.soak_players``): here a request
either gets an answer (any status) or, after ``patience`` seconds of trying both hosts,
raises ``Unanswered``.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import selectors
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

HOST = "127.0.0.1"
# what a web process going away (a rolling restart) looks like to a client
DROPPED = (ConnectionError, http.client.RemoteDisconnected, http.client.BadStatusLine,
           http.client.CannotSendRequest, http.client.ResponseNotReady, socket.timeout,
           TimeoutError, OSError)  # fmt: skip


class Unanswered(RuntimeError):
    """No web process answered within the patience: an acknowledgment lost for good."""


@dataclass
class Answer:
    status: int
    body: Any
    seconds: float
    retried: int  # connection failures before this answer (a restart was in the way)
    set_cookie: str | None


class Web:
    """The web processes' ports; each thread keeps one keep-alive connection per port."""

    def __init__(self, ports: list[int], patience: float = 90) -> None:
        self.ports = ports
        self.patience = patience
        self.local = threading.local()
        self.retries = 0  # connection failures tried again (counted, not errors)

    def _conn(self, port: int) -> http.client.HTTPConnection:
        conns = self.local.__dict__.setdefault("conns", {})
        if port not in conns:
            conns[port] = http.client.HTTPConnection(HOST, port, timeout=30)
        return conns[port]

    def _drop(self, port: int) -> None:
        conns = self.local.__dict__.setdefault("conns", {})
        conn = conns.pop(port, None)
        if conn is not None:
            conn.close()

    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> Answer:  # fmt: skip
        data = None if body is None else json.dumps(body).encode()
        hdrs = {"Content-Type": "application/json"} if data is not None else {}
        hdrs.update(headers or {})
        order = random.sample(self.ports, len(self.ports))
        deadline = time.monotonic() + self.patience
        failures = 0
        last = ""
        while time.monotonic() < deadline:
            port = order[failures % len(order)]
            conn = self._conn(port)
            start = time.perf_counter()
            try:
                conn.request(method, path, body=data, headers=hdrs)
                response = conn.getresponse()
                raw = response.read()
            except DROPPED as error:
                self._drop(port)
                failures += 1
                self.retries += 1
                last = f"{type(error).__name__}: {error}"
                if failures % len(order) == 0:  # both refused: wait for one to be back
                    time.sleep(0.5)
                continue
            seconds = time.perf_counter() - start
            if response.getheader("Connection", "").lower() == "close":
                self._drop(port)
            try:
                parsed = json.loads(raw) if raw else None
            except ValueError:
                parsed = raw[:300].decode(errors="replace")
            return Answer(response.status, parsed, seconds, failures,
                          response.getheader("Set-Cookie"))  # fmt: skip
        raise Unanswered(f"{method} {path}: no web process answered in {self.patience:.0f} s "
                         f"({failures} tries; last: {last})")  # fmt: skip


STREAM_REQUEST = (
    "GET /api/games/{game}/stream HTTP/1.1\r\n"
    "Host: {host}:{port}\r\n"
    "Accept: text/event-stream\r\n"
    "Authorization: Bearer {token}\r\n"
    "Last-Event-ID: {after}\r\n"
    "User-Agent: bench.soak player\r\n"
    "\r\n"
)
SSE_EVENT = b"event: game\n"


@dataclass
class Followed:
    game_id: str
    token: str
    after: Callable[[], int]  # the version the player has seen (resume from there)
    sock: socket.socket | None = None
    tail: bytes = b""
    status_seen: bool = False


class Streams:
    """Each followed game's ``GET /api/games/<id>/stream`` on one thread. ``on_event(game)``
    when a game event arrives (and when a stream is opened again, in case something came
    while it was closed); a stream the server closes (its time is up, or a restart) is
    opened again on either web process, resuming after what the player has seen."""

    def __init__(self, ports: list[int], on_event: Callable[[str], None]) -> None:
        self.ports = ports
        self.on_event = on_event
        self.selector = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self.wanted: dict[str, Followed] = {}
        self.reopen: list[tuple[float, str]] = []
        self.stop = threading.Event()
        self.events = 0  # game events delivered
        self.opened = 0
        self.reopened = 0
        self.refused: list[str] = []  # a stream answered with something other than 200
        self.thread = threading.Thread(target=self._run, name="soak-streams", daemon=True)

    def follow(self, game_id: str, token: str, after: Callable[[], int]) -> None:
        with self.lock:
            self.wanted[game_id] = Followed(game_id, token, after)
            self.reopen.append((0.0, game_id))

    def unfollow(self, game_id: str) -> None:
        with self.lock:
            self.wanted.pop(game_id, None)

    @property
    def held(self) -> int:
        with self.lock:
            return sum(1 for f in self.wanted.values() if f.sock is not None)

    def _open(self, followed: Followed) -> bool:
        port = random.choice(self.ports)
        try:
            sock = socket.create_connection((HOST, port), timeout=5)
            request = STREAM_REQUEST.format(
                game=followed.game_id, host=HOST, port=port, token=followed.token,
                after=followed.after(),
            )  # fmt: skip
            sock.sendall(request.encode())
        except OSError:
            return False
        sock.setblocking(False)
        followed.sock, followed.tail, followed.status_seen = sock, b"", False
        self.selector.register(sock, selectors.EVENT_READ, followed)
        self.opened += 1
        return True

    def _close(self, followed: Followed) -> None:
        if followed.sock is not None:
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(followed.sock)
            followed.sock.close()
            followed.sock = None

    def _run(self) -> None:
        while not self.stop.is_set():
            now = time.monotonic()
            with self.lock:
                due = [g for t, g in self.reopen if t <= now]
                self.reopen = [(t, g) for t, g in self.reopen if t > now]
                gone = [f for f in list(self._registered()) if f.game_id not in self.wanted]
                wanted = {g: self.wanted.get(g) for g in due}
            for followed in gone:
                self._close(followed)
            for game_id, followed in wanted.items():
                if followed is None or followed.sock is not None:
                    continue
                if self._open(followed):
                    self.on_event(game_id)  # whatever came while it was closed
                else:
                    with self.lock:
                        self.reopen.append((now + 1.0, game_id))
            for key, _ in self.selector.select(timeout=0.2):
                self._read(key.data)
        for followed in list(self._registered()):
            self._close(followed)

    def _registered(self) -> list[Followed]:
        return [key.data for key in self.selector.get_map().values()]

    def _read(self, followed: Followed) -> None:
        try:
            chunk = followed.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:  # the server closed it: open it again (if still wanted)
            self._close(followed)
            with self.lock:
                if followed.game_id in self.wanted:
                    self.reopened += 1
                    self.reopen.append((time.monotonic() + 0.5, followed.game_id))
            return
        data = followed.tail + chunk
        if not followed.status_seen and b"\r\n" in data:
            followed.status_seen = True
            status = data.split(b"\r\n", 1)[0]
            if b" 200 " not in status + b" ":
                self.refused.append(status.decode(errors="replace"))
        count = data.count(SSE_EVENT)
        followed.tail = data[-(len(SSE_EVENT) - 1) :]  # an event mark split over two reads
        if count:
            self.events += count
            self.on_event(followed.game_id)
