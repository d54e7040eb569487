"""AI moves, clock sweeps and hints have a pool of their own: the Procfile's workers, run as
real processes on a real broker, with the analysis pool busy on long analyses: the AI still
plays a whole game and works out a hint before the first analysis is over.

Each analysis is made long with ``BINGFA_ANALYSIS_TEST_DELAY`` (the task waits before it
starts), so the test does not depend on how fast this machine analyses.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from events.hints import HintCache
from events.projector import load
from events.redis_store import RedisEventStore, connect
from events.writepath import WritePath
from workers.celery_app import ANALYSE_REPLAY, ANALYSIS_QUEUE, HINT, make_celery
from workers.dispatch import enqueue_ai_moves
from workers.hints import HINT_LEVEL

ROOT = Path(__file__).resolve().parents[2]
ANALYSIS_SECONDS = 40


def procfile_worker(name: str) -> list[str]:
    """The Procfile's ``name`` line as arguments (``nice`` and the log level left out)."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            args = shlex.split(line.split(":", 1)[1])
            start = args.index("celery")
            return [a for a in args[start + 1 :]]
    raise AssertionError(f"no {name} in the Procfile")


@pytest.fixture
def pools(tmp_path, redis_url, broker_url):
    """The Procfile's AI and analysis workers, started and stopped here."""
    started = []
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "CELERY_BROKER_URL": broker_url,
        "PYTHONPATH": str(ROOT),
        "BINGFA_ANALYSIS_TEST_DELAY": str(ANALYSIS_SECONDS),
    }

    def start(name):
        args = [*procfile_worker(name), "--without-mingle", "--without-gossip"]
        log = tmp_path / f"{name}.log"
        with log.open("wb") as out:
            process = subprocess.Popen([sys.executable, "-m", "celery", *args], cwd=ROOT, env=env,
                                       stdout=out, stderr=subprocess.STDOUT,
                                       start_new_session=True)  # fmt: skip
        started.append(process)
        deadline = time.monotonic() + 60
        while not re.search(r"@\S+ ready", log.read_text(errors="replace")):
            assert process.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.1)
        return log

    yield start
    for process in started:  # a warm shutdown would wait for the long analysis: no need
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(15)


def test_no_amount_of_analysis_delays_a_move_or_a_hint(pools, redis_client, redis_url,
                                                       broker_url):  # fmt: skip
    assert "-Q" in procfile_worker("worker") and "analysis" not in procfile_worker("worker")
    ai_log = pools("worker")
    analysis_log = pools("analysis")
    celery = make_celery({"broker_url": broker_url})
    store = RedisEventStore(connect(redis_url))
    app = WritePath(store, on_appended=lambda game, events: enqueue_ai_moves(game, events, celery))
    try:
        for n in range(4):  # more analyses than the analysis pool has room for
            celery.send_task(ANALYSE_REPLAY, args=(f"replay-{n}",), queue=ANALYSIS_QUEUE)
        deadline = time.monotonic() + 30
        while "waits" not in analysis_log.read_text(errors="replace"):
            assert time.monotonic() < deadline, analysis_log.read_text()[-3000:]
            time.sleep(0.1)
        started = time.monotonic()

        # an all-AI game is played to its end by the AI pool meanwhile
        game_id = app.create_game("sun-tzu", None, {"blue": "ai:random", "red": "ai:random"})
        while load(store, game_id).outcome is None:
            assert time.monotonic() - started < ANALYSIS_SECONDS, ai_log.read_text()[-3000:]
            time.sleep(0.2)

        # and a hint is worked out on the AI queue too
        human = app.create_game("sun-tzu", None, {"blue": "human", "red": "human"})
        app.join(human, "blue")
        app.join(human, "red")
        version = store.version(human)
        celery.send_task(HINT, args=(human, version, "blue"))
        cache = HintCache(store.redis)
        while cache.get(human, version, "blue") is None:
            assert time.monotonic() - started < ANALYSIS_SECONDS, ai_log.read_text()[-3000:]
            time.sleep(0.1)
        assert cache.get(human, version, "blue")["level"] == HINT_LEVEL

        # …all while the first analysis was still waiting: none had finished
        log = analysis_log.read_text(errors="replace")
        assert "succeeded" not in log and "failed" not in log.lower(), log[-3000:]
        assert "Task bingfa.play_ai_move[" not in log  # the analysis pool never took a move
    finally:
        celery.close()
        store.redis.close()
