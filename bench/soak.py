"""A soak test: many simulated players playing asynchronous games for a long while through
the HTTP API and the live streams, while the service is restarted under them.

    python -m bench.soak [--players 200] [--minutes 10 | --seconds S] [--think 1.5]
                         [--ai-share 0.3] [--stream-share 0.5] [--ws-share 0.1]
                         [--games-each 2] [--seed 1]

The service runs as separate processes (``bench.stack``, each from its Procfile line):
two web processes (``web1``, ``web2``: gunicorn on two ports, ``WEB_CONCURRENCY`` 1
each), two AI workers (``ai1``, ``ai2``: the Procfile's ``worker`` line, each its own node
name, so one serves while the other restarts), ``analysis``, ``notify``, ``beat`` and the
``projector``. Redis: ``REDIS_URL`` if set (the games the soak makes are left there),
else the bundled redis-server (AOF on, ``appendfsync everysec``) in a temporary folder;
the Celery broker is db 1 of the same server. The write rate limit is raised out of the
way (every player comes from 127.0.0.1) and so is the number of streams per client.

The players (``bench.soak_players``): each has its own identity (session cookie) and
plays ``--games-each`` games at once, Sun Tzu or (a share ``--ws-share``) Warring
States, against another player or (a share ``--ai-share``) against the AI (``ai:easy``),
thinking ``--think`` seconds on average (uniformly 0.3–1.7 times it) between looks at a
game; a share ``--stream-share`` of the
games is followed through its live stream (``GET /api/games/<id>/stream``), the others
polled through ``GET /api/games/<id>/events``. A game over, its players start another.
Requests go to either web process; one refused or dropped (a restart) is sent again to
the other, same ``Idempotency-Key``: counted as a retry, not an error.

The disruptions, while they play: at half the time a rolling restart (web1 stopped with
SIGTERM and started again, then web2 once web1 answers ``/readyz``; then ai1, then ai2,
each a warm shutdown: it finishes its tasks); at two thirds ``kill -9`` of the projector,
started again 3 s later. A run too short for them (a restart takes seconds) goes on
until they are over.

At the end: no new games; the players stop after ``GRACE`` seconds (games in play are left
unfinished). Then the check: every event an acknowledged command was answered with is in
its game's stream at its seq with the same hash (an answer to a retry, which carries no
events, only says the stream reached its version); every finished game's record (the
replay store's, else made from the stream) verifies (``replays.verify``). What fails
either is ``soak_lost_events``. Also counted as errors: a process of the stack not running
at the end, and a game whose read models the projector has not brought to its stream's
version within 60 s of the players' stop.

RSS: the stack's processes and their children (every web and Celery process and the
projector; Redis is not counted), sampled every 2 s. The warm-up is the first 20% of the
run; ``soak_rss_growth_mb`` is the largest sample after the warm-up minus the last sample
of the warm-up (so the worst point, not the end, which the restarts make smaller), and
``soak_rss_growth_pct`` the same as a share of the warm-up's RSS (the goal is at most 10).

Prints, last (each ``name: value unit``): ``soak_commands``, ``soak_games_finished``,
``soak_errors`` (goal 0), ``soak_p99_ms`` (acknowledged commands, request to answer,
retries included), ``soak_rss_growth_mb``, ``soak_rss_growth_pct``, ``soak_lost_events``
(goal 0). Exit code 1 when there were errors or lost events.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.live import Live

from bench.soak_client import Web
from bench.soak_players import Players
from bench.stack import Stack, wait_ready
from events.embedded import free_port, start_redis
from events.redis_store import RedisEventStore, connect

WARM_UP = 0.2  # share of the run before the RSS baseline
GRACE = 3.0  # seconds the players go on after the time is up (no new game)
SAMPLE = 2.0  # seconds between RSS samples
err = Console(stderr=True)


class Soak:
    def __init__(self, stack: Stack, players: Players, seconds: float) -> None:
        self.stack, self.players, self.seconds = stack, players, seconds
        self.samples: list[tuple[float, float]] = []  # (seconds since start, MB)
        self.notes: list[str] = []  # what happened to the stack, when
        self.start = time.monotonic()
        self.done = threading.Event()
        self.disrupted = threading.Event()  # the restarts and the kill are all over

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def note(self, what: str) -> None:
        self.notes.append(f"{self.elapsed():6.1f} s  {what}")
        err.log(what)

    def sample_rss(self) -> None:
        while not self.done.wait(SAMPLE):
            self.samples.append((self.elapsed(), self.stack.rss_mb()))

    def disrupt(self) -> None:
        try:
            self._disrupt()
        finally:
            self.disrupted.set()

    def _disrupt(self) -> None:
        """The rolling restart at half time, the projector's kill -9 at two thirds (or as
        soon as the restart is over, in a run too short for both)."""
        if self.done.wait(self.seconds / 2):
            return
        for name in ("web1", "web2"):
            self.note(f"restarting {name}")
            self.stack.restart(name)
            wait_ready(self.url(name), timeout=60)
            self.note(f"{name} ready again")
        for name in ("ai1", "ai2"):
            self.note(f"restarting {name} (warm shutdown)")
            self.stack.restart(name, timeout=60)
            wait_worker(self.stack, name)
            self.note(f"{name} ready again")
        if self.done.wait(max(0.0, self.seconds * 2 / 3 - self.elapsed())):
            return
        self.note("kill -9 of the projector")
        self.stack.kill("projector")
        if self.done.wait(3):
            return
        self.stack.start("projector")
        self.note("projector started again")

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.stack.members[name].extra['PORT']}"

    def line(self) -> str:
        t = self.players.tally
        return (f"{self.elapsed():5.0f}/{self.seconds:.0f} s  players {len(self.players.players)}"
                f"  games {t.started} ({t.finished} over)  commands {t.commands}"
                f"  errors {len(t.errors)}  retries {self.players.web.retries}"
                f"  streams {self.players.streams.held}"
                f"  rss {self.samples[-1][1] if self.samples else 0:.0f} MB")  # fmt: skip


def wait_worker(stack: Stack, name: str, timeout: float = 60) -> None:
    """A Celery worker says "ready." in its log once it consumes (after its latest start)."""
    deadline = time.monotonic() + timeout
    log = stack.members[name].log
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace") if log.exists() else ""
        if text.count(" ready.") >= stack.members[name].starts:
            return
        if not stack.members[name].running:
            raise RuntimeError(f"{name} exited:\n{stack.log_tail(name)}")
        time.sleep(0.3)
    raise RuntimeError(f"{name} not ready after {timeout:.0f} s:\n{stack.log_tail(name)}")


@contextlib.contextmanager
def redis_url(tmp: Path) -> Iterator[str]:
    url = os.environ.get("REDIS_URL")
    if url:
        err.log("Redis: REDIS_URL")
        yield url
        return
    server = start_redis(tmp / "redis")
    err.log(f"Redis: bundled redis-server at {server.url} (AOF, appendfsync everysec)")
    try:
        yield server.url
    finally:
        server.stop()


def build_stack(tmp: Path, url: str) -> Stack:
    from service.cli import gunicorn_args

    data = tmp / "data"
    data.mkdir()
    env = {**os.environ, "REDIS_URL": url,
           "CELERY_BROKER_URL": url.rsplit("/", 1)[0] + "/1",
           "SECRET_KEY": secrets.token_hex(32), "BINGFA_DATA": str(data),
           "BINGFA_HOST": "127.0.0.1", "PYTHONUNBUFFERED": "1", "WEB_CONCURRENCY": "1",
           "BINGFA_RATELIMIT_WRITES": "1000000 per second",
           "BINGFA_STREAMS_PER_CLIENT": "5000"}  # fmt: skip
    env["GUNICORN_CMD_ARGS"] = gunicorn_args(env)
    stack = Stack(tmp / "logs", env)
    for name in ("web1", "web2"):
        stack.add(name, kind="web", PORT=str(free_port()))
    worker = stack.procfile["worker"]
    for name in ("ai1", "ai2"):
        stack.add(name, command=worker.replace("-n ai@%h", f"-n {name}@%h"))
    for name in ("analysis", "notify", "beat", "projector"):
        stack.add(name)
    return stack


def check(store: RedisEventStore, players: Players) -> tuple[int, list[str]]:
    """(lost events, why): acknowledged events missing from their streams, and events of
    finished games whose record does not verify (each such game counts its events)."""
    from events.store import UnknownGame
    from replays.archive import archive
    from replays.record import record_of
    from replays.store import ReplayStore
    from replays.verify import verify

    lost, why = 0, []
    streams: dict[str, dict[int, str]] = {}
    for game_id, seq, digest in players.tally.acks:
        if game_id not in streams:
            streams[game_id] = {e.seq: e.hash for e in store.read(game_id)}
        stream = streams[game_id]
        if (digest is None and max(stream, default=0) < seq) or (
            digest is not None and stream.get(seq) != digest
        ):
            lost += 1
            why.append(f"{game_id}: acknowledged event {seq} not in its stream")
    finished = [game for game in list(players.games.values()) if game.over]
    replays = ReplayStore(store.redis) if finished else None
    for game in finished:
        try:
            record = replays.get(game.game_id) if replays.exists(game.game_id) else None
            if record is None:
                with contextlib.suppress(Exception):
                    archive(store, replays, game.game_id)
                record = record_of(store, game.game_id)
        except UnknownGame:
            lost += 1
            why.append(f"{game.game_id}: finished, but its stream is gone")
            continue
        report = verify(record)
        if report.divergence is not None:
            lost += record.header["events"]
            why.append(f"{game.game_id}: does not verify: {report.sentence}")
    if finished:
        err.log(
            f"the end check: {len(players.tally.acks)} acknowledged events looked for, "
            f"{len(finished)} finished games verified"
        )
    return lost, why


def run(args: argparse.Namespace) -> int:
    seconds = args.seconds if args.seconds is not None else args.minutes * 60
    with tempfile.TemporaryDirectory(prefix="bingfa-soak-") as folder:
        tmp = Path(folder)
        with redis_url(tmp) as url, build_stack(tmp, url) as stack:
            stack.start()
            ports = [int(stack.members[n].extra["PORT"]) for n in ("web1", "web2")]
            for port in ports:
                wait_ready(f"http://127.0.0.1:{port}", timeout=90)
            for name in ("ai1", "ai2"):
                wait_worker(stack, name)
            err.log(f"stack ready: {', '.join(stack.members)} (logs in {stack.folder})")
            store = RedisEventStore(connect(url), partitions=int(
                os.environ.get("BINGFA_PARTITIONS", 16)))  # fmt: skip
            web = Web(ports)
            players = Players(web, ports, store, args.players, args.think, args.ai_share,
                              args.stream_share, args.games_each, args.seed,
                              ws_share=args.ws_share)  # fmt: skip
            soak = Soak(stack, players, seconds)
            threads = [threading.Thread(target=soak.sample_rss, daemon=True),
                       threading.Thread(target=soak.disrupt, daemon=True)]  # fmt: skip
            players.start()
            for thread in threads:
                thread.start()
            with Live(soak.line(), console=err, refresh_per_second=2, transient=False) as live:
                while soak.elapsed() < seconds or not soak.disrupted.is_set():
                    time.sleep(0.5)  # a short run lasts until the disruptions are over
                    live.update(soak.line())
                if soak.elapsed() > seconds + 1:
                    soak.note("the run was extended until the disruptions were over")
                players.close(GRACE)
                live.update(soak.line())
            err.print()
            behind = projector_behind(store, players)
            stopped = [n for n, m in stack.members.items() if not m.running]
            soak.done.set()
            for thread in threads:
                thread.join(120)
            lost, why = check(store, players)
        errors = [f"{name} was not running at the end" for name in stopped]
        errors += [f"the projector's read models are behind on {g}" for g in behind[:20]]
        return report(soak, players, lost, why, errors)


def projector_behind(store: RedisEventStore, players: Players, patience: float = 60) -> list[str]:
    """The games whose read models (``events.readmodels``: lobby, finished games …) are not
    at their stream's version ``patience`` seconds after the players stopped: what the
    projector, killed with SIGKILL in the middle, failed to catch up on."""
    from events.readmodels import ReadModels

    models = ReadModels(store.redis, store.partitions)
    deadline = time.monotonic() + patience
    while True:
        behind = [g for g in list(players.games)
                  if models.position(g) < store.version(g)]  # fmt: skip
        if not behind or time.monotonic() > deadline:
            return behind
        time.sleep(1)


def rss_growth(samples: list[tuple[float, float]], seconds: float) -> tuple[float, float, float]:
    """(growth MB, growth %, baseline MB): the largest sample after the warm-up minus the
    warm-up's last sample."""
    warm = [mb for t, mb in samples if t <= seconds * WARM_UP]
    after = [mb for t, mb in samples if t > seconds * WARM_UP]
    if not warm or not after:
        return 0.0, 0.0, warm[-1] if warm else 0.0
    growth = max(after) - warm[-1]
    return growth, 100 * growth / warm[-1], warm[-1]


def report(soak: Soak, players: Players, lost: int, why: list[str], stack_errors: list[str]) -> int:
    tally = players.tally
    errors = list(tally.errors) + [f"stream refused: {s}" for s in players.streams.refused]
    errors += stack_errors
    growth, pct, baseline = rss_growth(soak.samples, soak.seconds)
    latencies = sorted(tally.latencies)
    p99 = 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else float("nan")
    p50 = 1000 * statistics.median(latencies) if latencies else float("nan")
    for note in soak.notes:
        err.print(f"  {note}")
    for error in errors[:20]:
        err.print(f"[red]error:[/red] {error}", soft_wrap=True, markup=True)
    for line in why[:20]:
        err.print(f"[red]lost:[/red] {line}", soft_wrap=True, markup=True)
    streams = players.streams
    last = soak.samples[-1][1] if soak.samples else 0.0
    print(
        f"games started {tally.started}, finished {tally.finished}; stale moves (409) "
        f"{tally.stale}; connection retries {players.web.retries}; stream events "
        f"{streams.events}, streams opened {streams.opened} (again {streams.reopened})"
    )
    print("games by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(tally.kinds.items())))
    print(
        f"command p50 {p50:.1f} ms; RSS (web, workers, projector; not Redis) {baseline:.0f} MB "
        f"after warm-up, {last:.0f} MB at the end, {len(soak.samples)} samples"
    )
    print(f"soak_commands: {tally.commands} commands")
    print(f"soak_games_finished: {tally.finished} games")
    print(f"soak_errors: {len(errors)} errors")
    print(f"soak_p99_ms: {p99:.1f} ms")
    print(f"soak_rss_growth_mb: {growth:.1f} MB")
    print(f"soak_rss_growth_pct: {pct:.1f} %")
    print(f"soak_lost_events: {lost} events")
    return 1 if errors or lost else 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.split("\n")[0])
    p.add_argument("--players", type=int, default=200)
    p.add_argument("--minutes", type=float, default=10)
    p.add_argument("--seconds", type=float, default=None, help="overrides --minutes")
    p.add_argument("--think", type=float, default=1.5, help="mean think time, seconds")
    p.add_argument("--ai-share", type=float, default=0.3, help="share of games against the AI")
    p.add_argument("--stream-share", type=float, default=0.5,
                   help="share of games followed through their live stream")  # fmt: skip
    p.add_argument("--ws-share", type=float, default=0.1,
                   help="share of games of Warring States (the rest Sun Tzu)")  # fmt: skip
    p.add_argument("--games-each", type=int, default=2, help="games a player plays at once")
    p.add_argument("--seed", type=int, default=1)
    return p


def main(argv: list[str] | None = None) -> int:
    args: Any = parser().parse_args(argv)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
