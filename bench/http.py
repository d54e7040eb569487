"""Commands through the whole web stack (gunicorn, Flask, the write path, Redis) against a
trivial JSON endpoint on the same server, the same commands again while 1,000 live streams
are open, and the memory a web worker holds after 1,000 games.

    python -m bench.http [--quick] [--seconds S] [--games N] [--clients C] [--workers W]
                         [--streams N] [--stream-games G] [--stream-mode follow|idle]
                         [--profile DIR] [--app TARGET]

The server runs as production runs it: ``gunicorn -c python:service.gunicorn_conf``
(gevent workers, ``worker_connections`` 4000 each, keep-alive 60 s) with the bench's own
``--app bench.http_app:app()`` (the service's app plus ``GET /bench/ping``, registered
only in that bench module; the write rate limit raised out of the way, the limiter still
running), ``--workers 2``, its error log in the bench's temporary folder, and
``--no-control-socket`` where this gunicorn knows that setting (as ``bingfa up`` does,
``service.cli.gunicorn_args``). The bench raises ``BINGFA_STREAMS_PER_CLIENT`` (every
stream comes from 127.0.0.1; 5,000, or twice ``--streams`` if more) and, when ``--streams``
needs it, ``BINGFA_WORKER_CONNECTIONS``; it raises its own ``RLIMIT_NOFILE`` (gunicorn
inherits it) when the soft limit is too low for the streams. There is no ``--threads``
any more: a gevent worker serves each request on a greenlet.
Redis: ``REDIS_URL`` if set (the bench removes the games it made at the end), else the
bundled ``redis-server`` (AOF on, ``appendfsync everysec``) in a temporary folder.
gunicorn, Redis and the watchers' process are stopped at the end, whatever happens.

The workers race to accept connections and one of them could take all 20 clients, so
the clients connect one by one and reconnect until each worker holds its share (10 and
10; ``X-Bench-Worker`` says which worker answered); they are spread again before the
phase with streams, and the streams' own spread is shown.

Clients: ``--clients`` threads (20) in this process, each with its own keep-alive
``http.client`` connection, each playing its own games: create (two human seats), join
both seats with their tokens, then one ``POST /api/games/<id>/commands`` (with an
``Idempotency-Key``) per command until the game is over. The client picks each command
with ``RULES.random_command`` on the game state it folds itself from the same Redis
(``events.projector.load``, then ``apply`` of the new events after each command); that
happens outside the timed call, and the server still checks every command.

Watchers: one more process (so that reading the streams does not take this process's
GIL from the clients) holds ``--streams`` (1,000) raw sockets, each a spectator's
``GET /api/games/<id>/stream`` (HTTP/1.1, as a browser's ``EventSource``), read with
``selectors`` as fast as anything arrives (their buffers never fill). They are spread
over ``--stream-games`` (50) games the bench creates, the same number on each (20).
``--stream-mode idle`` (the default: the issue's measure,
``sse_idle_streams_held``): every stream stays where it was opened, on games nobody
plays, idle but for the heartbeat (what idle watchers cost the commands). ``--stream-mode
follow``: a command also wakes ~20 streams: the group of client *i* follows that client:
when the client starts its next game (a Sun Tzu game is ~45 commands) the group's
streams are closed and opened again on the new game (the server sees ~20 hang-ups and
~20 new streams per game played, as when a game's watchers move on); the other groups
(30) stay idle (the cost of delivering each move to 20 watchers and of their comings
and goings, on top).

Phases, the same clients in each:
1. warm-up (untimed): a few games, a few pings;
2. commands: games for ``--seconds``; every ``POST …/commands`` that completes inside
   the window counts as one command, with its latency (request sent → body read);
   the creations and joins run in the same window (they load the server, uncounted);
3. trivial: ``GET /bench/ping`` in a loop for the same ``--seconds``;
4. memory: ``--games`` more games (1,000), then the RSS of each web worker;
5. streams: the watchers open their streams (at most 200 opening at a time) and the
   bench waits until the server holds them all: its lease set in Redis
   (``service.live.StreamSlots.key("127.0.0.1")``, one entry per stream the server
   serves; a stream enters it when it starts and leaves it when it ends) counts
   ``--streams``, and the watchers have each stream's headers (200). Then phase 2 again,
   the same way and as long, with the streams open; the lease set is read every 0.25 s
   meanwhile. Then the watchers close every socket, and the bench times how long the
   server takes to let go of them all (a hang-up is meant to be noticed at once).

Also shown: CPU per request of the workers, this process, the watchers and Redis, and
how busy the rest of the machine was (other processes skew every figure here); the
streams per worker and the workers' RSS with them held; SSE events delivered; error
lines in gunicorn's log. ``--profile DIR`` dumps cProfile stats of the command requests
from each worker.

``--quick``: 5 s phases, 60 games in the memory phase, and still 1,000 streams on 50
games (holding them takes a few seconds).

Prints, last (each ``name: value unit``): ``command_rate``, ``trivial_rate``,
``command_p50_ms``, ``command_ratio_vs_trivial`` (commands/s ÷ pings/s),
``command_p99_ms``, ``web_worker_rss_mb`` (the largest worker's RSS after the memory
phase), then ``command_rate_with_streams``, ``command_p99_ms_with_streams``,
``sse_idle_streams_held`` (the median of the lease set's size read during the phase
with streams: streams the server really holds, not sockets the watchers opened) and
``command_rate_ratio_with_streams`` (commands/s with the streams ÷ without, both from
this run; the goal is at least 0.8). ``--streams 0`` leaves the phase and those four
lines out. Last of all, the issue's two figures of the commands phase:
``commands_per_second`` (the same rate as ``command_rate``) and ``cpu_ms_per_command``:
the CPU time of the site, gunicorn (master and workers, from psutil) and Redis (the
bundled redis-server's process from psutil; a ``REDIS_URL`` server's own ``INFO cpu``),
over the timed phase, divided by the commands counted (the phase's creations and joins,
~7 % more requests, are in the CPU time; the clients' share is not).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import http.client
import json
import multiprocessing
import os
import random
import resource
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

import games
from events.embedded import free_port, start_redis
from events.projector import LoadedGame, apply, load
from events.redis_store import RedisEventStore, connect, feed_key

GAME = "sun-tzu"
OPTIONS = {"variant": "standard", "events": True}
SEATS = {"blue": "human", "red": "human"}
ROOT = Path(__file__).resolve().parent.parent
APP = "bench.http_app:app()"
ADDRESS = "127.0.0.1"  # the clients' and the watchers' address, as the server sees it
DEFAULT_WORKER_CONNECTIONS = 4000  # service/gunicorn_conf.py's, without the env variable
err = Console(stderr=True)


class BenchError(RuntimeError):
    pass


# -- the server ----------------------------------------------------------------------------
@dataclass
class Server:
    process: subprocess.Popen
    port: int
    log: Path

    def workers(self) -> list[psutil.Process]:
        return psutil.Process(self.process.pid).children()

    def cpu(self) -> float:
        """CPU seconds used so far by gunicorn, its master and its workers."""
        processes = [psutil.Process(self.process.pid), *self.workers()]
        return sum(sum(p.cpu_times()[:2]) for p in processes)

    def log_tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-3000:]
        except OSError:
            return "(no log)"

    def log_errors(self) -> list[str]:
        """The lines of gunicorn's log that say something went wrong."""
        try:
            lines = self.log.read_text(errors="replace").splitlines()
        except OSError:
            return []
        marks = ("[ERROR]", "[CRITICAL]", "Traceback", "Error:", "Exception")
        return [line for line in lines if any(mark in line for mark in marks)]


@contextlib.contextmanager
def redis_server(tmp: Path) -> Iterator[tuple[str, str, Any]]:
    """(url, description, the embedded server or None)."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url, "REDIS_URL", None
        return
    server = start_redis(tmp / "redis")
    REDIS_PROCESS[:] = [psutil.Process(server.process.pid)]
    try:
        yield server.url, "bundled redis-server (AOF, appendfsync everysec)", server
    finally:
        REDIS_PROCESS.clear()
        server.stop()


def server_env(redis_url: str, port: int, streams: int, clients: int) -> dict[str, str]:
    """The server's environment: the bench's Redis and port, room for the streams (all of
    them from 127.0.0.1, and perhaps all on one worker), ``--no-control-socket`` where
    gunicorn knows it (``GUNICORN_CMD_ARGS``, as ``bingfa up`` passes it)."""
    from service.cli import gunicorn_args

    env = {**os.environ, "REDIS_URL": redis_url, "PORT": str(port), "BINGFA_HOST": ADDRESS}
    env.pop("BENCH_PROFILE", None)
    given = int(env.get("BINGFA_STREAMS_PER_CLIENT") or 0)
    env["BINGFA_STREAMS_PER_CLIENT"] = str(max(given, 5000, 2 * streams))
    needed = streams + clients + 200
    connections = int(env.get("BINGFA_WORKER_CONNECTIONS") or DEFAULT_WORKER_CONNECTIONS)
    if connections < needed:
        env["BINGFA_WORKER_CONNECTIONS"] = str(needed)
    env["GUNICORN_CMD_ARGS"] = gunicorn_args(env)
    return env


@contextlib.contextmanager
def gunicorn(app: str, env: dict[str, str], tmp: Path, workers: int, profile: str | None):
    port = int(env["PORT"])
    log = tmp / "gunicorn.log"
    env = dict(env)
    if profile:
        env["BENCH_PROFILE"] = profile
    args = [
        sys.executable, "-m", "gunicorn",
        "-c", "python:service.gunicorn_conf",
        "--bind", f"{ADDRESS}:{port}",
        "--workers", str(workers),
        "--keep-alive", "60",
        "--log-level", "warning",
        "--error-logfile", str(log),
        app,
    ]  # fmt: skip
    with open(log, "ab") as out:
        process = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=out)
    server = Server(process, port, log)
    try:
        wait_until_up(server, workers)
        yield server
    finally:
        if process.poll() is None:
            process.terminate()  # graceful: the workers finish their requests
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_until_up(server: Server, workers: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise BenchError(f"gunicorn exited at start:\n{server.log_tail()}")
        try:
            conn = http.client.HTTPConnection(ADDRESS, server.port, timeout=2)
            conn.request("GET", "/bench/ping")
            answered = conn.getresponse().status == 200
            conn.close()
        except OSError:
            answered = False
        if answered and len(server.workers()) == workers:
            return
        time.sleep(0.1)
    raise BenchError(f"gunicorn did not answer within {timeout} s:\n{server.log_tail()}")


def raise_open_files(needed: int) -> tuple[int, int]:
    """Raise this process's soft RLIMIT_NOFILE to ``needed`` if it is lower (children,
    gunicorn included, inherit it); (soft, hard) after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        soft = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return soft, hard


# -- the clients ---------------------------------------------------------------------------
@dataclass
class Tally:
    """What one client did in one phase."""

    latencies: list[float] = field(default_factory=list)  # seconds, counted requests only
    other: int = 0  # creations, joins (not counted)
    games: int = 0
    workers: Counter = field(default_factory=Counter)


class Client:
    """One keep-alive connection, its own games, its own random commands."""

    def __init__(self, port: int, store: RedisEventStore, seed: int) -> None:
        self.port = port
        self.store = store
        self.rng = random.Random(seed)
        self.rules = games.get(GAME)
        self.conn = http.client.HTTPConnection(ADDRESS, port, timeout=60)
        self.worker = "?"
        self.game_ids: list[str] = []
        self.on_game: Callable[[str], None] | None = None  # told each game it starts

    def close(self) -> None:
        self.conn.close()

    def connect_to_a_worker(self, taken: Counter, share: int, tries: int = 200) -> str:
        """Reconnect until the connection lands on a worker serving fewer than ``share``
        clients: the workers race to accept (a gevent worker accepts whenever its loop
        wakes), and one could otherwise take them all."""
        for _ in range(tries):
            self.conn.close()
            self.conn = http.client.HTTPConnection(ADDRESS, self.port, timeout=60)
            self.expect(200, "GET", "/bench/ping")
            if taken[self.worker] < share:
                taken[self.worker] += 1
                return self.worker
            time.sleep(0.002)
        raise BenchError(f"no worker with fewer than {share} connections after {tries} tries")

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes, float]:
        """(status, body, seconds from sending to the last byte read)."""
        data = None if body is None else json.dumps(body).encode()
        hdrs = {"Content-Type": "application/json"} if data is not None else {}
        hdrs.update(headers or {})
        start = time.perf_counter()
        self.conn.request(method, path, body=data, headers=hdrs)
        response = self.conn.getresponse()
        raw = response.read()
        elapsed = time.perf_counter() - start
        self.worker = response.getheader("X-Bench-Worker", "?")
        return response.status, raw, elapsed

    def expect(self, status: int, method: str, path: str, **kwargs: Any) -> tuple[Any, float]:
        got, raw, elapsed = self.call(method, path, **kwargs)
        if got != status:
            raise BenchError(f"{method} {path}: {got} (wanted {status}): {raw[:500]!r}")
        return json.loads(raw), elapsed

    def start_game(self) -> tuple[str, dict[str, str]]:
        created, _ = self.expect(
            201, "POST", "/api/games", body={"options": OPTIONS, "seats": SEATS}
        )
        game_id = created["game_id"]
        self.game_ids.append(game_id)
        tokens = {seat: link["token"] for seat, link in created["seats"].items()}
        for token in tokens.values():
            auth = {"Authorization": f"Bearer {token}"}
            self.expect(200, "POST", f"/api/games/{game_id}/join", body={}, headers=auth)
        return game_id, tokens

    def play(self, tally: Tally, until: float | None = None) -> None:
        """One game to its end (or until ``until``, a perf_counter time: then it is left)."""
        game_id, tokens = self.start_game()
        tally.other += 3
        if self.on_game is not None:
            self.on_game(game_id)
        game: LoadedGame = load(self.store, game_id)
        rules = self.rules
        while due := rules.pending(game.state):
            if until is not None and time.perf_counter() >= until:
                return
            seat = next(iter(due))
            command = rules.random_command(game.state, seat, self.rng)
            headers = {
                "Authorization": f"Bearer {tokens[seat]}",
                "Idempotency-Key": uuid.uuid4().hex,
            }
            path = f"/api/games/{game_id}/commands"
            _, elapsed = self.expect(201, "POST", path, body={"command": command}, headers=headers)
            if until is None or time.perf_counter() < until:
                tally.latencies.append(elapsed)
            apply(game, self.store.read(game_id, after=game.version))
        if rules.outcome(game.state) is None:
            raise BenchError(f"game {game_id}: nothing pending and no outcome")
        tally.games += 1
        tally.workers[self.worker] += 1

    def play_for(self, tally: Tally, until: float) -> None:
        while time.perf_counter() < until:
            self.play(tally, until)

    def ping_for(self, tally: Tally, until: float) -> None:
        while True:
            _, elapsed = self.expect(200, "GET", "/bench/ping")
            if time.perf_counter() >= until:
                return
            tally.latencies.append(elapsed)

    def play_share(self, tally: Tally, claim: Callable[[], bool], done: Callable[[], None]):
        while claim():
            self.play(tally)
            done()


def run_all(
    clients: list[Client],
    work: Callable[[Client, Tally], None],
    at: tuple[float, Callable[[], None]] | None = None,
) -> list[Tally]:
    """Run ``work`` on every client in its own thread; re-raise the first failure.
    ``at = (when, callback)``: call ``callback`` at perf_counter time ``when``, while the
    clients run (to read the CPU counters at a phase's deadline, before its stragglers)."""
    tallies = [Tally() for _ in clients]
    errors: list[BaseException] = []

    def target(client: Client, tally: Tally) -> None:
        try:
            work(client, tally)
        except BaseException as exc:
            errors.append(exc)

    threads = [
        threading.Thread(target=target, args=(c, t), daemon=True)
        for c, t in zip(clients, tallies, strict=True)
    ]
    for thread in threads:
        thread.start()
    if at is not None:
        when, callback = at
        while (left := when - time.perf_counter()) > 0 and not errors:
            time.sleep(min(left, 0.05))
        callback()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return tallies


# -- the watchers -------------------------------------------------------------------------
SSE_EVENT = b"event: game\n"  # one per game event sent (no prefix of it ends it: counted once)
STREAM_REQUEST = (
    "GET /api/games/{game}/stream HTTP/1.1\r\n"
    "Host: {host}:{port}\r\n"
    "Accept: text/event-stream\r\n"
    "Cache-Control: no-cache\r\n"
    "User-Agent: bench.http watcher\r\n"
    "\r\n"
)


class Stream:
    """One watcher's socket: ``connecting`` → ``head`` (request sent, waiting for the
    answer's headers) → ``body`` (the server serves it: held) → ``closed``."""

    __slots__ = ("buf", "game", "group", "sock", "started", "state", "worker")

    def __init__(self, sock: socket.socket, group: int, game: str) -> None:
        self.sock, self.group, self.game = sock, group, game
        self.state = "connecting"
        self.buf = b""
        self.worker = "?"
        self.started = time.perf_counter()


class StreamHolder:
    """The watchers' process: opens, reads and closes the streams it is told to, in one
    thread with a selector. Orders come on ``conn`` (a multiprocessing pipe):
    ``("open", [(group, game, n), …])``, ``("move", group, game)`` (close the group's
    streams, open as many on ``game``), ``("stats",)`` and ``("close",)`` (both answered
    with ``stats()``; ``close`` ends the process)."""

    def __init__(self, conn: Any, port: int, max_opening: int = 200) -> None:
        self.conn, self.port, self.max_opening = conn, port, max_opening
        self.selector = selectors.DefaultSelector()
        self.selector.register(conn, selectors.EVENT_READ, None)
        self.groups: dict[int, set[Stream]] = {}
        self.sizes: dict[int, int] = {}
        self.todo: deque[tuple[int, str]] = deque()
        self.opening = 0  # connecting or waiting for the answer's headers
        self.count: Counter = Counter()
        self.by_worker: Counter = Counter()  # streams held now, per worker
        self.open_seconds: list[float] = []  # connect → headers, for each stream held

    def run(self) -> None:
        while True:
            while self.todo and self.opening < self.max_opening:
                self.start(*self.todo.popleft())
            for key, _ in self.selector.select(timeout=0.5):
                if key.data is None:
                    if not self.orders():
                        return
                else:
                    self.serve(key.data)

    def orders(self) -> bool:
        """Carry out the orders waiting; False once told to stop (or orphaned)."""
        while self.conn.poll():
            try:
                order = self.conn.recv()
            except EOFError:
                self.close_all()
                return False
            if order[0] == "open":
                for group, game, n in order[1]:
                    self.sizes[group] = n
                    self.todo.extend((group, game) for _ in range(n))
            elif order[0] == "move":
                _, group, game = order
                self.close_group(group)
                self.todo.extend((group, game) for _ in range(self.sizes.get(group, 0)))
                self.count["moves"] += 1
            elif order[0] == "stats":
                self.conn.send(self.stats())
            elif order[0] == "close":
                self.close_all()
                self.conn.send(self.stats())
                return False
        return True

    def start(self, group: int, game: str) -> None:
        try:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        except OSError as exc:  # out of file descriptors, most likely
            self.count[f"failed: {exc.strerror or exc}"] += 1
            return
        sock.setblocking(False)
        stream = Stream(sock, group, game)
        self.groups.setdefault(group, set()).add(stream)
        self.opening += 1
        self.count["opened"] += 1
        code = sock.connect_ex((ADDRESS, self.port))
        if code not in (0, errno.EINPROGRESS):
            self.fail(stream, os.strerror(code))
            return
        self.selector.register(sock, selectors.EVENT_WRITE, stream)

    def serve(self, stream: Stream) -> None:
        if stream.state == "closed":  # dropped by an order earlier in the same batch
            return
        if stream.state == "connecting":
            code = stream.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if code:
                self.fail(stream, os.strerror(code))
                return
            request = STREAM_REQUEST.format(game=stream.game, host=ADDRESS, port=self.port)
            stream.sock.send(request.encode())  # ~170 bytes on a fresh socket: sent whole
            stream.state = "head"
            self.selector.modify(stream.sock, selectors.EVENT_READ, stream)
            return
        try:
            data = stream.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError as exc:
            self.fail(stream, type(exc).__name__)
            return
        if not data:
            if stream.state == "head":
                self.fail(stream, "closed before answering")
            else:
                self.count["ended by the server"] += 1
                self.drop(stream)
            return
        self.count["bytes"] += len(data)
        if stream.state == "head":
            stream.buf += data
            end = stream.buf.find(b"\r\n\r\n")
            if end < 0:
                if len(stream.buf) > 65536:
                    self.fail(stream, "headers too long")
                return
            head, data = stream.buf[:end].decode("latin-1"), stream.buf[end + 4 :]
            stream.buf = b""
            lines = head.split("\r\n")
            status = lines[0].split(" ", 2)[1] if lines[0].count(" ") >= 1 else lines[0]
            if status != "200":
                self.fail(stream, f"refused {status}")
                return
            for line in lines[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "x-bench-worker":
                    stream.worker = value.strip()
            self.opening -= 1
            stream.state = "body"
            self.by_worker[stream.worker] += 1
            self.count["held"] += 1
            self.open_seconds.append(time.perf_counter() - stream.started)
        buf = stream.buf + data
        self.count["events"] += buf.count(SSE_EVENT)
        stream.buf = buf[-(len(SSE_EVENT) - 1) :]

    def fail(self, stream: Stream, why: str) -> None:
        self.count[f"failed: {why}" if not why.startswith("refused") else why] += 1
        self.drop(stream)

    def drop(self, stream: Stream) -> None:
        if stream.state == "closed":
            return
        if stream.state == "body":
            self.by_worker[stream.worker] -= 1
        else:
            self.opening -= 1
        stream.state = "closed"
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(stream.sock)
        stream.sock.close()
        self.groups.get(stream.group, set()).discard(stream)

    def close_group(self, group: int) -> None:
        self.todo = deque(t for t in self.todo if t[0] != group)
        for stream in list(self.groups.get(group, ())):
            self.count["closed"] += 1
            self.drop(stream)

    def close_all(self) -> None:
        for group in list(self.groups):
            self.close_group(group)

    def stats(self) -> dict[str, Any]:
        return {
            "held": sum(self.by_worker.values()),
            "sockets": sum(len(g) for g in self.groups.values()),
            "opening": self.opening,
            "queued": len(self.todo),
            "by_worker": {w: n for w, n in self.by_worker.items() if n},
            "count": dict(self.count),
            "open_seconds": list(self.open_seconds),
        }


def hold_streams(conn: Any, port: int) -> None:
    """The watchers' process (``multiprocessing``, spawned)."""
    StreamHolder(conn, port).run()


class Watchers:
    """The watchers' process, seen from here (thread-safe)."""

    def __init__(self, port: int) -> None:
        ctx = multiprocessing.get_context("spawn")  # no fork of a process with threads
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=hold_streams, args=(child, port),
                                   name="bench-watchers", daemon=True)  # fmt: skip
        self.process.start()
        child.close()
        self.ps = psutil.Process(self.process.pid)
        self.lock = threading.Lock()

    def send(self, *order: Any) -> None:
        with self.lock:
            self.conn.send(order)

    def ask(self, *order: Any) -> dict[str, Any]:
        with self.lock:
            self.conn.send(order)
            if not self.conn.poll(60):
                raise BenchError(f"the watchers' process did not answer {order[0]!r}")
            return self.conn.recv()

    def stats(self) -> dict[str, Any]:
        return self.ask("stats")

    def cpu(self) -> float:
        try:
            return sum(self.ps.cpu_times()[:2])
        except psutil.Error:
            return 0.0

    def stop(self) -> None:
        self.process.join(2)  # at once after "close"; else it is ended
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(5)


# -- measuring -----------------------------------------------------------------------------
@dataclass
class Usage:
    """CPU seconds used so far by the workers, this process, the watchers and Redis."""

    workers: float
    client: float
    watchers: float
    redis: float
    machine: float  # every process on the machine, ours included
    wall: float
    server: float  # gunicorn (master and workers) and Redis: what a command costs the site


def usage(server: Server, redis_client: Any, watchers: Watchers | None = None) -> Usage:
    workers = sum(sum(p.cpu_times()[:2]) for p in server.workers())
    web = server.cpu()
    if REDIS_PROCESS:  # the bundled redis-server: its process, as psutil sees it
        redis_cpu = sum(REDIS_PROCESS[0].cpu_times()[:2])
    else:  # a Redis given by REDIS_URL: what it says of itself
        info = redis_client.info("cpu")
        redis_cpu = float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
    cpu = psutil.cpu_times()  # busy time of the whole machine (guest time is inside user)
    machine = cpu.user + cpu.nice + cpu.system + getattr(cpu, "irq", 0) + getattr(cpu, "softirq", 0)
    watched = watchers.cpu() if watchers is not None else 0.0
    return Usage(workers, time.process_time(), watched, redis_cpu, machine, time.perf_counter(),
                 web + redis_cpu)  # fmt: skip


REDIS_PROCESS: list[psutil.Process] = []  # the bundled redis-server, once started


@dataclass
class Phase:
    name: str
    requests: int
    seconds: float
    latencies: list[float]
    cpu: dict[str, float]  # CPU s in the phase: workers, client, [watchers,] redis, others
    other: int = 0
    workers: Counter = field(default_factory=Counter)
    server_cpu: float = 0.0  # CPU s of gunicorn (master and workers) and Redis in the phase

    @property
    def rate(self) -> float:
        return self.requests / self.seconds

    @property
    def server_ms(self) -> float:
        """The site's CPU ms (web and Redis, not the clients') per request counted."""
        return self.server_cpu / max(1, self.requests) * 1e3

    def pct(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1e3

    def line(self, unit: str, note: str = "") -> str:
        per = {k: v / max(1, self.requests) * 1e3 for k, v in self.cpu.items()}
        return (
            f"    {self.requests:,} {unit} in {self.seconds:.1f} s = {self.rate:,.0f}/s; "
            f"latency p50 {self.pct(0.5):.2f} ms, p99 {self.pct(0.99):.2f} ms, "
            f"mean {statistics.mean(self.latencies) * 1e3:.2f} ms\n"
            f"    CPU ms per {unit[:-1]}{note}: workers {per['workers']:.2f}, "
            f"client {per['client']:.2f}, "
            + (f"watchers {per['watchers']:.2f}, " if "watchers" in per else "")
            + f"redis {per['redis']:.2f}; the site (gunicorn and Redis) {self.server_ms:.2f} "
            f"(CPU busy: workers {self.cpu['workers'] / self.seconds:.0%}, "
            f"client {self.cpu['client'] / self.seconds:.0%}, "
            + (f"watchers {self.cpu['watchers'] / self.seconds:.0%}, " if "watchers" in per else "")
            + f"redis {self.cpu['redis'] / self.seconds:.0%}, "
            f"other processes {self.cpu['others'] / self.seconds:.0%} of one core)"
        )


def timed(
    name: str,
    server: Server,
    redis_client: Any,
    clients: list[Client],
    seconds: float,
    work: Callable[[Client, Tally, float], None],
    embedded: bool,
    watchers: Watchers | None = None,
    at_deadline: Callable[[], None] | None = None,
) -> Phase:
    """``work`` on every client until ``seconds`` from now; ``at_deadline`` is called then
    (as the CPU counters are read), while the stragglers finish their requests."""
    before = usage(server, redis_client, watchers)
    until = time.perf_counter() + seconds
    read: list[Usage] = []

    def deadline() -> None:
        read.append(usage(server, redis_client, watchers))
        if at_deadline is not None:
            at_deadline()

    tallies = run_all(clients, lambda c, t: work(c, t, until), at=(until, deadline))
    after = read[0]
    latencies = [x for t in tallies for x in t.latencies]
    if not latencies:
        raise BenchError(f"{name}: no request completed in {seconds} s")
    cpu = {
        "workers": after.workers - before.workers,
        "client": after.client - before.client,
        "redis": after.redis - before.redis,
    }
    if watchers is not None:
        cpu["watchers"] = after.watchers - before.watchers
    ours = sum(cpu.values()) - (0 if embedded else cpu["redis"])  # a remote Redis is not here
    cpu["others"] = max(0.0, after.machine - before.machine - ours)
    phase = Phase(name, len(latencies), seconds, latencies, cpu, sum(t.other for t in tallies),
                  server_cpu=after.server - before.server)  # fmt: skip
    for t in tallies:
        phase.workers.update(t.workers)
    return phase


def memory_phase(clients: list[Client], n_games: int) -> list[Tally]:
    lock = threading.Lock()
    claimed = 0
    columns = (
        TextColumn("memory phase: games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err, transient=True) as progress:
        task = progress.add_task("games", total=n_games)

        def claim() -> bool:
            nonlocal claimed
            with lock:
                if claimed >= n_games:
                    return False
                claimed += 1
                return True

        def done() -> None:
            progress.advance(task)

        return run_all(clients, lambda c, t: c.play_share(t, claim, done))


def rss_mb(server: Server) -> dict[int, tuple[float, float]]:
    """Worker pid → (RSS, USS) in MB."""
    out = {}
    for p in server.workers():
        full = p.memory_full_info()
        out[p.pid] = (full.rss / 2**20, full.uss / 2**20)
    return out


def spread(clients: list[Client], workers: int) -> Counter:
    """Connect the clients one by one, spread evenly over the workers: worker → clients."""
    taken: Counter = Counter()
    share = -(-len(clients) // workers)
    for client in clients:
        client.connect_to_a_worker(taken, share)
    return taken


@dataclass
class StreamsRun:
    """What the phase with streams saw."""

    commands: Phase
    mode: str
    games: int
    sizes: list[int]
    following: int  # groups that follow a client
    taken: Counter  # clients per worker in the phase
    held: list[int]  # the server's lease set, read every 0.25 s during the phase
    opened_in: float  # seconds until the server held them all
    opening: dict[str, Any]  # the watchers' stats once all were held
    during: dict[str, Any]  # … at the phase's deadline
    final: dict[str, Any]  # … after closing them
    open_cpu: float  # the workers' CPU seconds while the streams opened
    rss_before: dict[int, tuple[float, float]]
    rss_held: dict[int, tuple[float, float]]
    rss_after: dict[int, tuple[float, float]]  # once the server let go of them
    released_in: float | None  # seconds until the server's lease set was back to where it was
    left: int  # leases still there after the wait
    baseline: int  # leases from 127.0.0.1 before the phase (another user of REDIS_URL)

    @property
    def held_median(self) -> int:
        return round(statistics.median(self.held)) if self.held else 0


def count_streams_held(redis_client: Any) -> int:
    from service.live import StreamSlots

    now = int(time.time() * 1000)  # expired leases would be dropped at the next take
    return int(redis_client.zcount(StreamSlots.key(ADDRESS), now, "+inf"))


def streams_phase(
    server: Server,
    redis_client: Any,
    clients: list[Client],
    args: argparse.Namespace,
    embedded: bool,
) -> StreamsRun:
    n_games = max(1, min(args.stream_games, args.streams))
    sizes = [args.streams // n_games + (g < args.streams % n_games) for g in range(n_games)]
    following = min(len(clients), n_games) if args.stream_mode == "follow" else 0
    baseline = count_streams_held(redis_client)
    watchers = Watchers(server.port)
    try:
        with err.status(f"streams: creating {n_games} games…"):
            game_ids = [clients[0].start_game()[0] for _ in range(n_games)]
        rss_before = rss_mb(server)
        cpu_before = usage(server, redis_client).workers
        started = time.perf_counter()
        watchers.send("open", [(g, game_ids[g], sizes[g]) for g in range(n_games)])
        deadline = started + max(60.0, args.streams / 20)
        with err.status(f"streams: opening {args.streams:,}…") as status:
            while True:
                stats = watchers.stats()
                held = count_streams_held(redis_client) - baseline
                status.update(
                    f"streams: {stats['held']:,} answered, {held:,} held by the server, "
                    f"{stats['opening']} opening, {stats['queued']:,} to open…"
                )
                if stats["held"] >= args.streams and held >= args.streams:
                    break
                settled = not stats["opening"] and not stats["queued"]
                if settled and stats["held"] < args.streams:  # refused or failed: no retry
                    err.print(f"[yellow]streams: only {stats['held']:,} of {args.streams:,}"
                              f" answered: {stats['count']}[/yellow]")  # fmt: skip
                    break
                if time.perf_counter() > deadline:
                    err.print(f"[yellow]streams: after {deadline - started:.0f} s, "
                              f"{stats['held']:,} answered and {held:,} held by the server "
                              f"of {args.streams:,}[/yellow]")  # fmt: skip
                    break
                time.sleep(0.1)
        opened_in = time.perf_counter() - started
        open_cpu = usage(server, redis_client).workers - cpu_before
        opening = watchers.stats()
        rss_held = rss_mb(server)
        taken = spread(clients, args.workers)  # idle while the streams opened: spread again
        for i, client in enumerate(clients[:following]):
            client.on_game = lambda game_id, group=i: watchers.send("move", group, game_id)
        samples: list[int] = []
        during: list[dict[str, Any]] = []
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                samples.append(count_streams_held(redis_client) - baseline)
                stop.wait(0.25)

        def at_deadline() -> None:
            stop.set()
            during.append(watchers.stats())

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            with err.status(f"commands for {args.seconds:.0f} s with {args.streams:,} streams…"):
                commands = timed("commands with streams", server, redis_client, clients,
                                 args.seconds, lambda c, t, u: c.play_for(t, u), embedded,
                                 watchers, at_deadline)  # fmt: skip
        finally:
            stop.set()
            sampler.join()
            for client in clients:
                client.on_game = None
        final = watchers.ask("close")
        closed = time.perf_counter()
        released_in, left = None, 0
        while time.perf_counter() - closed < 10:
            left = count_streams_held(redis_client) - baseline
            if left <= 0:
                released_in = time.perf_counter() - closed
                break
            time.sleep(0.01)
        rss_after = rss_mb(server)
    finally:
        watchers.stop()
    return StreamsRun(commands, args.stream_mode, n_games, sizes, following, taken, samples,
                      opened_in, opening, during[0], final, open_cpu, rss_before, rss_held,
                      rss_after, released_in,
                      max(0, left), baseline)  # fmt: skip


def cleanup(redis_client: Any, store: RedisEventStore, game_ids: list[str]) -> None:
    """Remove the bench's games from a Redis given by REDIS_URL."""
    parts = ("events", "meta", "idem", "snap", "secret", "access")
    keys = [store.key(gid, part) for gid in game_ids for part in parts]
    for i in range(0, len(keys), 500):
        redis_client.delete(*keys[i : i + 500])
    ours = {gid.encode() for gid in game_ids}
    for p in range(store.partitions):
        stale = [eid for eid, f in redis_client.xrange(feed_key(p)) if f.get(b"game") in ours]
        for i in range(0, len(stale), 500):
            redis_client.xdel(feed_key(p), *stale[i : i + 500])


# -- main ----------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.http",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="each timed phase")
    parser.add_argument("--games", type=int, default=1000, help="games in the memory phase")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--streams", type=int, default=1000,
                        help="streams open in the last phase (0: no such phase)")  # fmt: skip
    parser.add_argument("--stream-games", type=int, default=50,
                        help="games the streams are spread over")  # fmt: skip
    parser.add_argument("--stream-mode", choices=("follow", "idle"), default="idle",
                        help="follow: a group of streams follows each client's game; idle: "
                        "every stream stays on a game nobody plays")  # fmt: skip
    parser.add_argument("--profile", metavar="DIR", help="cProfile commands in the workers")
    parser.add_argument(
        "--app",
        default=APP,
        help="gunicorn's WSGI target (to try a variant; it must keep /bench/ping)",
    )
    parser.add_argument("--quick", action="store_true",
                        help="5 s phases, 60 games (still --streams 1000)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.games = min(args.seconds, 5.0), min(args.games, 60)
    args.streams = max(0, args.streams)
    started = time.perf_counter()
    profile = str(Path(args.profile).resolve()) if args.profile else None
    if profile:
        Path(profile).mkdir(parents=True, exist_ok=True)
    files, _ = raise_open_files(args.streams + args.clients + 1024)

    tmp = Path(tempfile.mkdtemp(prefix="bingfa-bench-http-"))
    clients: list[Client] = []
    game_ids: list[str] = []
    streams: StreamsRun | None = None
    try:
        with redis_server(tmp) as (url, where, embedded_redis):
            env = server_env(url, free_port(), args.streams, args.clients)
            with gunicorn(args.app, env, tmp, args.workers, profile) as server:
                redis_client = connect(url)
                embedded = embedded_redis is not None
                partitions = int(os.environ.get("BINGFA_PARTITIONS", 16))
                store = RedisEventStore(redis_client, partitions=partitions)
                try:
                    clients = [Client(server.port, store, seed) for seed in range(args.clients)]
                    taken = spread(clients, args.workers)
                    with err.status("warm-up…"):
                        run_all(clients, lambda c, t: c.play(t))
                        run_all(clients, lambda c, t: c.ping_for(t, time.perf_counter() + 0.5))
                    rss_warm = rss_mb(server)
                    with err.status(f"commands for {args.seconds:.0f} s…"):
                        commands = timed("commands", server, redis_client, clients,
                                         args.seconds, lambda c, t, u: c.play_for(t, u),
                                         embedded)  # fmt: skip
                    with err.status(f"pings for {args.seconds:.0f} s…"):
                        pings = timed("trivial", server, redis_client, clients, args.seconds,
                                      lambda c, t, u: c.ping_for(t, u), embedded)  # fmt: skip
                    mem_start = time.perf_counter()
                    memory = memory_phase(clients, args.games)
                    mem_seconds = time.perf_counter() - mem_start
                    rss = rss_mb(server)
                    per_worker = Counter()
                    for t in memory:
                        per_worker.update(t.workers)
                    if args.streams:
                        streams = streams_phase(server, redis_client, clients, args, embedded)
                    redis_version = redis_client.info("server")["redis_version"]
                finally:
                    for client in clients:
                        client.close()
                        game_ids += client.game_ids
                    if where == "REDIS_URL" and game_ids:
                        cleanup(redis_client, store, game_ids)
                    redis_client.close()
            log_errors = server.log_errors()  # gunicorn has stopped: its log is complete
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    mem_games = sum(t.games for t in memory)
    mem_commands = sum(len(t.latencies) for t in memory)
    ratio = commands.rate / pings.rate
    worst = max(r for r, _ in rss.values())
    wall = time.perf_counter() - started
    connections = env.get("BINGFA_WORKER_CONNECTIONS") or f"{DEFAULT_WORKER_CONNECTIONS}"
    print(
        f"server: gunicorn -c python:service.gunicorn_conf, {args.workers} gevent workers "
        f"({connections} connections each), {args.app}; redis: {where}, redis-server "
        f"{redis_version}; {os.cpu_count()} CPUs shared by the server, Redis, the clients "
        "and the watchers"
    )
    print(
        "client connections per worker (spread by reconnecting): "
        + ", ".join(f"{pid} {n}" for pid, n in sorted(taken.items()))
    )
    print(
        f"clients: {args.clients} threads in one process, one keep-alive http.client "
        f"connection each; Sun Tzu {OPTIONS}, two human seats; commands chosen with "
        "RULES.random_command on a state folded from Redis, outside the timed call"
    )
    print(f"commands ({args.seconds:.0f} s; also {commands.other:,} creations/joins, uncounted):")
    print(commands.line("commands", " (creations and joins included)"))
    print(f"trivial GET /bench/ping ({args.seconds:.0f} s):")
    print(pings.line("requests"))
    print(
        f"memory phase: {mem_games:,} games ({mem_commands:,} commands) in {mem_seconds:.1f} s "
        f"= {mem_commands / mem_seconds:,.0f} commands/s; games per worker: "
        + ", ".join(f"{pid} {n}" for pid, n in sorted(per_worker.items()))
    )
    print(
        "worker RSS (USS) MB after warm-up → after the memory phase: "
        + "; ".join(
            f"{pid} {rss_warm.get(pid, (0, 0))[0]:.1f} ({rss_warm.get(pid, (0, 0))[1]:.1f}) → "
            f"{r:.1f} ({u:.1f})"
            for pid, (r, u) in sorted(rss.items())
        )
    )
    if streams is not None:
        print_streams(streams, args, files)
    if log_errors:
        print(f"gunicorn log: {len(log_errors)} error lines, the first ones:")
        for line in log_errors[:10]:
            print(f"    {line[:300]}")
    else:
        print("gunicorn log: no error lines")
    if profile:
        print(f"profiles: {profile}/commands-<pid>.pstats")
    print(f"wall time: {wall:.0f} s")
    print(f"command_rate: {commands.rate:.0f} commands/s")
    print(f"trivial_rate: {pings.rate:.0f} requests/s")
    print(f"command_p50_ms: {commands.pct(0.5):.2f} ms")
    print(f"command_ratio_vs_trivial: {ratio:.3f}")
    print(f"command_p99_ms: {commands.pct(0.99):.1f} ms")
    print(f"web_worker_rss_mb: {worst:.1f} MB")
    if streams is not None:
        with_streams = streams.commands
        print(f"command_rate_with_streams: {with_streams.rate:.0f} commands/s")
        print(f"command_p99_ms_with_streams: {with_streams.pct(0.99):.1f} ms")
        print(f"sse_idle_streams_held: {streams.held_median} streams")
        print(f"command_rate_ratio_with_streams: {with_streams.rate / commands.rate:.3f}")
    print(f"commands_per_second: {commands.rate:.0f} commands/s")
    print(f"cpu_ms_per_command: {commands.server_ms:.3f} ms")


def print_streams(run: StreamsRun, args: argparse.Namespace, files: int) -> None:
    sizes = sorted(set(run.sizes))
    per_game = "–".join(str(n) for n in sizes)
    if run.following:
        how = (
            f"the streams of {run.following} games follow a client each (closed and opened "
            f"again on its next game: {run.during['count'].get('moves', 0):,} moves), the "
            f"other {run.games - run.following} games' stay idle on games nobody plays"
        )
    else:
        how = "all idle on games nobody plays"
    print(
        f"streams: {args.streams:,} spectators' GET …/stream (HTTP/1.1, raw sockets in one "
        f"watchers' process, open files {files:,}) on {run.games} games, {per_game} each; "
        f"{how}"
    )
    opening = run.opening
    opened = opening["open_seconds"]
    print(
        f"    all held by the server in {run.opened_in:.1f} s (open → headers p50 "
        f"{pct(opened, 0.5):.0f} ms, max {pct(opened, 1):.0f} ms; "
        f"workers' CPU {run.open_cpu / max(1, args.streams) * 1e3:.2f} ms a stream opened); "
        "streams per worker: "
        + ", ".join(f"{pid} {n}" for pid, n in sorted(opening["by_worker"].items()))
        + (f"; leases from {ADDRESS} already there: {run.baseline}" if run.baseline else "")
    )
    print(
        "    worker RSS (USS) MB before the streams → all held → after the phase, all closed: "
        + "; ".join(
            f"{pid} {run.rss_before.get(pid, (0, 0))[0]:.1f} "
            f"({run.rss_before.get(pid, (0, 0))[1]:.1f}) → {r:.1f} ({u:.1f}) → "
            f"{run.rss_after.get(pid, (0, 0))[0]:.1f} ({run.rss_after.get(pid, (0, 0))[1]:.1f})"
            for pid, (r, u) in sorted(run.rss_held.items())
        )
        + f" (+{held_kb(run, args.streams):.0f} KB a stream)"
    )
    if run.held:
        print(
            f"    held by the server during the phase (lease set read {len(run.held)} times): "
            f"median {run.held_median:,}, min {min(run.held):,}, max {max(run.held):,}"
        )
    c = run.commands
    print(
        f"commands with the streams open ({args.seconds:.0f} s; also {c.other:,} "
        "creations/joins, uncounted; client connections per worker "
        + ", ".join(f"{pid} {n}" for pid, n in sorted(run.taken.items()))
        + "):"
    )
    print(c.line("commands", " (creations and joins included)"))
    reopened = run.during["open_seconds"][len(opened) :]
    if reopened:
        print(
            f"    streams opened again during the phase: {len(reopened):,}, open → headers "
            f"p50 {pct(reopened, 0.5):.0f} ms, p99 {pct(reopened, 0.99):.0f} ms"
        )
    during, final = run.during["count"], run.final["count"]
    events = during.get("events", 0) - run.opening["count"].get("events", 0)
    problems = {k: v for k, v in final.items() if k.startswith(("failed", "refused", "ended"))}
    print(
        f"    SSE game events delivered in the phase: {events:,} ({events / c.requests:.1f} a "
        f"command); streams opened in all {final.get('opened', 0):,}, answered "
        f"{final.get('held', 0):,}; "
        + (
            ", ".join(f"{k} {v}" for k, v in sorted(problems.items()))
            or "none refused, failed or ended by the server"
        )
    )
    if run.released_in is not None:
        print(f"    after the watchers closed every socket, the server let go of every lease "
              f"in {run.released_in * 1e3:.0f} ms")  # fmt: skip
    else:
        print(f"    after the watchers closed every socket, the server still held {run.left:,} "
              "leases 10 s later")  # fmt: skip


def pct(seconds: list[float], q: float) -> float:
    """The ``q`` quantile of ``seconds``, in ms."""
    if not seconds:
        return 0.0
    ordered = sorted(seconds)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1e3


def held_kb(run: StreamsRun, streams: int) -> float:
    grown = sum(r for r, _ in run.rss_held.values()) - sum(
        run.rss_before.get(pid, (0.0, 0.0))[0] for pid in run.rss_held
    )
    return grown * 1024 / max(1, streams)


if __name__ == "__main__":
    main()
