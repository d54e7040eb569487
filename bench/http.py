"""Commands through the whole web stack (gunicorn, Flask, the write path, Redis) against a
trivial JSON endpoint on the same server, and the memory a web worker holds after
1,000 games.

    python -m bench.http [--quick] [--seconds S] [--games N] [--clients C]
                         [--workers W] [--threads T] [--profile DIR] [--app TARGET]

Starts gunicorn on ``bench.http_app:app()`` (the service's app plus ``GET /bench/ping``,
registered only in that bench module; the write rate limit raised out of the way, the
limiter still running), ``--workers 2 --worker-class gthread --threads 4`` (gthread: the
sync worker closes every connection, gthread keeps the clients' connections alive).
Redis: ``REDIS_URL`` if set (the bench removes the games it made at the end), else the
bundled ``redis-server`` (AOF on, ``appendfsync everysec``) in a temporary folder.
gunicorn and Redis are stopped at the end, whatever happens.

gthread workers race to accept connections and one of them would take all 20, so the
clients connect one by one and reconnect until each worker holds its share (10 and 10).

Clients: ``--clients`` threads (20) in this process, each with its own keep-alive
``http.client`` connection, each playing its own games: create (two human seats), join
both seats with their tokens, then one ``POST /api/games/<id>/commands`` (with an
``Idempotency-Key``) per command until the game is over. The client picks each command
with ``RULES.random_command`` on the game state it folds itself from the same Redis
(``events.projector.load``, then ``apply`` of the new events after each command); that
happens outside the timed call, and the server still checks every command.

Phases, the same clients in each:
1. warm-up (untimed): a few games, a few pings;
2. commands: games for ``--seconds``; every ``POST …/commands`` that completes inside
   the window counts as one command, with its latency (request sent → body read);
   the creations and joins run in the same window (they load the server, uncounted);
3. trivial: ``GET /bench/ping`` in a loop for the same ``--seconds``;
4. memory: ``--games`` more games (1,000), then the RSS of each web worker.

Also shown: CPU per request of the workers, this process and Redis, and how busy the
rest of the machine was (other processes skew every figure here).
``--profile DIR`` dumps cProfile stats of the command requests from each worker.

Prints, last: ``command_ratio_vs_trivial`` (commands/s ÷ pings/s), ``command_p99_ms``,
``web_worker_rss_mb`` (the largest worker's RSS after the memory phase).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
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

    def log_tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-3000:]
        except OSError:
            return "(no log)"


@contextlib.contextmanager
def redis_server(tmp: Path) -> Iterator[tuple[str, str, Any]]:
    """(url, description, the embedded server or None)."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url, "REDIS_URL", None
        return
    server = start_redis(tmp / "redis")
    try:
        yield server.url, "bundled redis-server (AOF, appendfsync everysec)", server
    finally:
        server.stop()


@contextlib.contextmanager
def gunicorn(app: str, redis_url: str, tmp: Path, workers: int, threads: int, profile: str | None):
    port = free_port()
    log = tmp / "gunicorn.log"
    env = {**os.environ, "REDIS_URL": redis_url}
    env.pop("BENCH_PROFILE", None)
    if profile:
        env["BENCH_PROFILE"] = profile
    args = [
        sys.executable, "-m", "gunicorn",
        "--bind", f"127.0.0.1:{port}",
        "--workers", str(workers),
        "--worker-class", "gthread",
        "--threads", str(threads),
        "--keep-alive", "60",
        "--graceful-timeout", "5",
        "--timeout", "60",
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
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=2)
            conn.request("GET", "/bench/ping")
            answered = conn.getresponse().status == 200
            conn.close()
        except OSError:
            answered = False
        if answered and len(server.workers()) == workers:
            return
        time.sleep(0.1)
    raise BenchError(f"gunicorn did not answer within {timeout} s:\n{server.log_tail()}")


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
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.worker = "?"
        self.game_ids: list[str] = []

    def close(self) -> None:
        self.conn.close()

    def connect_to_a_worker(self, taken: Counter, share: int, tries: int = 200) -> str:
        """Reconnect until the connection lands on a worker serving fewer than ``share``
        clients: gthread workers race to accept, and one would otherwise take them all."""
        for _ in range(tries):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
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


# -- measuring -----------------------------------------------------------------------------
@dataclass
class Usage:
    """CPU seconds used so far by the workers, this process and Redis."""

    workers: float
    client: float
    redis: float
    machine: float  # every process on the machine, ours included
    wall: float


def usage(server: Server, redis_client: Any) -> Usage:
    workers = sum(sum(p.cpu_times()[:2]) for p in server.workers())
    info = redis_client.info("cpu")
    redis_cpu = float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
    cpu = psutil.cpu_times()  # busy time of the whole machine (guest time is inside user)
    machine = cpu.user + cpu.nice + cpu.system + getattr(cpu, "irq", 0) + getattr(cpu, "softirq", 0)
    return Usage(workers, time.process_time(), redis_cpu, machine, time.perf_counter())


@dataclass
class Phase:
    name: str
    requests: int
    seconds: float
    latencies: list[float]
    cpu: dict[str, float]  # CPU seconds used in the phase: workers, client, redis, others
    other: int = 0
    workers: Counter = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        return self.requests / self.seconds

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
            f"client {per['client']:.2f}, redis {per['redis']:.2f} "
            f"(CPU busy: workers {self.cpu['workers'] / self.seconds:.0%}, "
            f"client {self.cpu['client'] / self.seconds:.0%}, "
            f"redis {self.cpu['redis'] / self.seconds:.0%}, "
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
) -> Phase:
    before = usage(server, redis_client)
    until = time.perf_counter() + seconds
    at_deadline: list[Usage] = []
    tallies = run_all(
        clients,
        lambda c, t: work(c, t, until),
        at=(until, lambda: at_deadline.append(usage(server, redis_client))),
    )
    after = at_deadline[0]
    latencies = [x for t in tallies for x in t.latencies]
    if not latencies:
        raise BenchError(f"{name}: no request completed in {seconds} s")
    cpu = {
        "workers": after.workers - before.workers,
        "client": after.client - before.client,
        "redis": after.redis - before.redis,
    }
    ours = sum(cpu.values()) - (0 if embedded else cpu["redis"])  # a remote Redis is not here
    cpu["others"] = max(0.0, after.machine - before.machine - ours)
    phase = Phase(name, len(latencies), seconds, latencies, cpu, sum(t.other for t in tallies))
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
    parser = argparse.ArgumentParser(prog="python -m bench.http", description=__doc__)
    parser.add_argument("--seconds", type=float, default=30.0, help="each timed phase")
    parser.add_argument("--games", type=int, default=1000, help="games in the memory phase")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4, help="gthread threads per worker")
    parser.add_argument("--profile", metavar="DIR", help="cProfile commands in the workers")
    parser.add_argument(
        "--app",
        default=APP,
        help="gunicorn's WSGI target (to try a variant; it must keep /bench/ping)",
    )
    parser.add_argument("--quick", action="store_true", help="5 s phases, 60 games")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.games = min(args.seconds, 5.0), min(args.games, 60)
    started = time.perf_counter()
    profile = str(Path(args.profile).resolve()) if args.profile else None
    if profile:
        Path(profile).mkdir(parents=True, exist_ok=True)

    tmp = Path(tempfile.mkdtemp(prefix="bingfa-bench-http-"))
    clients: list[Client] = []
    game_ids: list[str] = []
    try:
        with (
            redis_server(tmp) as (url, where, embedded_redis),
            gunicorn(args.app, url, tmp, args.workers, args.threads, profile) as server,
        ):
            redis_client = connect(url)
            embedded = embedded_redis is not None
            partitions = int(os.environ.get("BINGFA_PARTITIONS", 16))
            store = RedisEventStore(redis_client, partitions=partitions)
            try:
                clients = [Client(server.port, store, seed) for seed in range(args.clients)]
                taken: Counter = Counter()
                share = -(-args.clients // args.workers)
                for client in clients:  # opened one by one, spread evenly over the workers
                    client.connect_to_a_worker(taken, share)
                with err.status("warm-up…"):
                    run_all(clients, lambda c, t: c.play(t))
                    run_all(clients, lambda c, t: c.ping_for(t, time.perf_counter() + 0.5))
                rss_warm = rss_mb(server)
                with err.status(f"commands for {args.seconds:.0f} s…"):
                    commands = timed("commands", server, redis_client, clients, args.seconds,
                                     lambda c, t, u: c.play_for(t, u), embedded)  # fmt: skip
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
                redis_version = redis_client.info("server")["redis_version"]
            finally:
                for client in clients:
                    client.close()
                    game_ids += client.game_ids
                if where == "REDIS_URL" and game_ids:
                    cleanup(redis_client, store, game_ids)
                redis_client.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    mem_games = sum(t.games for t in memory)
    mem_commands = sum(len(t.latencies) for t in memory)
    ratio = commands.rate / pings.rate
    worst = max(r for r, _ in rss.values())
    wall = time.perf_counter() - started
    print(
        f"server: gunicorn, {args.workers} workers, gthread ({args.threads} threads each), "
        f"{args.app}; redis: {where}, redis-server {redis_version}; "
        f"{os.cpu_count()} CPUs shared by the server, Redis and the clients"
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
    if profile:
        print(f"profiles: {profile}/commands-<pid>.pstats")
    print(f"wall time: {wall:.0f} s")
    print(f"command_rate: {commands.rate:.0f} commands/s")
    print(f"trivial_rate: {pings.rate:.0f} requests/s")
    print(f"command_p50_ms: {commands.pct(0.5):.2f} ms")
    print(f"command_ratio_vs_trivial: {ratio:.3f}")
    print(f"command_p99_ms: {commands.pct(0.99):.1f} ms")
    print(f"web_worker_rss_mb: {worst:.1f} MB")


if __name__ == "__main__":
    main()
