"""End to end: real Celery worker processes, the bundled Redis as broker and event store.

The event store uses the test Redis's database; the broker uses another database on the
same server, so broker keys never mix with game keys. Every wait polls with a deadline.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest

from events.projector import load
from events.redis_store import RedisEventStore, connect
from events.writepath import WritePath
from workers.celery_app import AI_QUEUE, make_celery
from workers.dispatch import enqueue_ai_moves

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def broker(broker_url):
    import redis

    client = redis.Redis.from_url(broker_url)
    yield client
    client.close()


@pytest.fixture
def app(redis_client, redis_url, broker_url):
    """The web side: a write path whose follow-up work queues AI moves on the broker."""
    celery = make_celery({"broker_url": broker_url})
    store = RedisEventStore(connect(redis_url))
    yield WritePath(store, on_appended=partial(enqueue_ai_moves, celery=celery))
    celery.close()
    store.redis.close()


class Worker:
    """A worker process in its own session, so it can be killed with its pool children."""

    def __init__(self, name, log_path, process):
        self.name, self.log_path, self.process = name, log_path, process
        self.killed = False

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL the worker and its pool children: nothing gets a chance to clean up."""
        self.killed = True
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def workers(tmp_path, redis_url, broker_url):
    """Start workers with `start(name, pool, **env)`. Every worker is stopped at the end."""
    started: list[Worker] = []

    def start(name: str, pool: str = "solo", **env: str) -> Worker:
        log_path = tmp_path / f"{name}.log"
        environ = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
            "REDIS_URL": redis_url,
            "CELERY_BROKER_URL": broker_url,
            "BINGFA_VISIBILITY_TIMEOUT": "60",
            "BINGFA_AI_TEST_DELAY": "0",
            **env,
        }
        args = [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker",
                "-Q", AI_QUEUE, "--pool", pool, "-c", "1", "--loglevel", "INFO",
                "-n", f"{name}@%h", "--without-mingle", "--without-gossip"]  # fmt: skip
        with open(log_path, "wb") as log:
            process = subprocess.Popen(
                args, cwd=ROOT, env=environ, stdout=log, stderr=log, start_new_session=True
            )
        worker = Worker(name, log_path, process)
        started.append(worker)
        wait_until(lambda: " ready." in worker.log(), 60, f"{name} to start", worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


def wait_until(predicate, timeout, what, *workers):
    deadline = time.monotonic() + timeout
    while not predicate():
        for worker in workers:
            if worker.process.poll() is not None and not worker.killed:
                raise AssertionError(f"{worker.name} exited while waiting for {what}:\n"
                                     f"{worker.log()[-4000:]}")  # fmt: skip
        if time.monotonic() > deadline:
            logs = "\n".join(f"--- {w.name}\n{w.log()[-4000:]}" for w in workers)
            raise AssertionError(f"gave up waiting {timeout} s for {what}\n{logs}")
        time.sleep(0.05)


@pytest.mark.parametrize("seats", [("random", "random"), ("medium", "easy")])
def test_a_worker_plays_an_all_ai_game_to_the_end(app, workers, seats):
    worker = workers("solo")
    blue, red = seats
    game_id = app.create_game("sun-tzu", None, {"blue": f"ai:{blue}", "red": f"ai:{red}"})

    def over():
        return load(app.store, game_id).outcome is not None

    wait_until(over, 120, "the game to end", worker)

    envelopes = app.store.verify(game_id)  # the hash chain holds and ends at the record
    game = load(app.store, game_id)
    assert game.outcome is not None and not game.pending
    assert envelopes[-1].type == "seed_revealed"
    assert {e.actor for e in envelopes if e.type not in ("game_created", "seat_joined")} >= {
        "blue",
        "red",
    }
    log = worker.log()
    assert log.count("blue played place") >= 3 and log.count("red played place") >= 3
    assert "Traceback" not in log and "ERROR" not in log, log[-4000:]


def test_a_task_lost_with_its_worker_is_redelivered_and_moves_once(app, workers, broker):
    """SIGKILL a worker (pool child and all) in the middle of an AI move. The message was
    never acknowledged (acks_late), so once it is older than the visibility timeout another
    worker runs it, and the move is made once.

    The slow worker uses the prefork pool: with an early acknowledgement its main process
    would acknowledge while the child runs the task, and the message would be lost."""
    slow = workers("slow", "prefork", BINGFA_AI_TEST_DELAY="60")
    game_id = app.create_game("sun-tzu", None, {"blue": "ai:random", "red": "human"})
    app.join(game_id, "red")
    version = app.store.version(game_id)
    assert set(load(app.store, game_id).pending) == {"blue", "red"}

    wait_until(lambda: "before the AI move" in slow.log(), 30, "the task to start", slow)
    slow.kill()
    assert app.store.version(game_id) == version  # killed before it could move
    assert broker.hlen("unacked") == 1 and broker.llen(AI_QUEUE) == 0

    rescuer = workers("rescuer", BINGFA_VISIBILITY_TIMEOUT="1")

    def moved_and_acked():
        return app.store.version(game_id) > version and broker.hlen("unacked") == 0

    wait_until(moved_and_acked, 30, "the redelivered move", rescuer)
    game = load(app.store, game_id)
    assert list(game.pending) == ["red"]  # blue answered once; the human still owes
    actors = [e.actor for e in app.store.verify(game_id)[version:]]
    assert actors and set(actors) == {"blue"}
    assert rescuer.log().count(f"'blue played choose_warlord at version {version}'") == 1
    assert broker.llen(AI_QUEUE) == 0
