"""Crashes: what ``bingfa up`` starts dies with it (a parent-death signal, Linux), and the
AI moves owed when the service went down are dispatched again as soon as it starts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import fakeredis
import pytest
from celery.signals import beat_init

ROOT = Path(__file__).resolve().parents[2]
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting for init to reap it has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.1)
    return False


def start_parent(code: str) -> tuple[subprocess.Popen, int]:
    """A parent (in its own session, like `bingfa up` in a terminal) that starts a child
    and prints the child's pid; both."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", textwrap.dedent(code)]
    parent = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True,
                              start_new_session=True)  # fmt: skip
    for line in parent.stdout:  # honcho says what it started first
        if line.strip().isdigit():
            return parent, int(line)
    parent.kill()
    parent.wait()
    parent.stdout.close()
    raise AssertionError("the parent ended without starting its child")


def kill_parent_and_watch(code: str) -> bool:
    """kill -9 the parent; whether its child was gone within five seconds."""
    parent, child = start_parent(code)
    try:
        assert alive(child)
        parent.kill()
        parent.wait()
        return gone_within(child, 5)
    finally:
        parent.stdout.close()
        if alive(child):
            os.kill(child, signal.SIGKILL)


PLAIN = """
    import subprocess, time
    child = subprocess.Popen(["sleep", "300"], start_new_session=True)
    print(child.pid, flush=True)
    time.sleep(300)
"""


@linux_only
def test_a_plain_child_outlives_its_killed_parent():
    """The control: without the mechanism the orphan stays (what the issue saw)."""
    assert not kill_parent_and_watch(PLAIN)


@linux_only
def test_a_child_started_through_pdeath_dies_with_its_parent():
    code = PLAIN.replace('["sleep"', '[sys.executable, "-m", "service.pdeath", "sleep"')
    assert not kill_parent_and_watch("import sys\n" + textwrap.dedent(code))


@linux_only
def test_a_procfile_process_dies_with_a_killed_bingfa_up(tmp_path):
    """honcho's manager as `bingfa up` makes it: the Procfile process (in its own session,
    behind honcho's runner that ignores SIGTERM) goes when `bingfa up` gets kill -9."""
    pidfile = tmp_path / "pid"
    code = f"""
        import sys, threading, time
        from pathlib import Path
        from service.cli import make_manager
        manager = make_manager(lambda: None, [])
        # A shell that stays the process's parent (as Debian's sh does with gunicorn)
        sleeper = "import os, time; open('{pidfile}', 'w').write(str(os.getpid()))"
        manager.add_process("sleeper", f'{sys.executable} -c "{{sleeper}}; time.sleep(300)"; true')
        def report():
            while not Path("{pidfile}").exists() or not Path("{pidfile}").read_text().strip():
                time.sleep(0.05)
            print(Path("{pidfile}").read_text().strip(), flush=True)
        threading.Thread(target=report, daemon=True).start()
        manager.loop()
    """
    assert kill_parent_and_watch(code)


@linux_only
def test_the_bundled_redis_dies_with_a_killed_bingfa_up(tmp_path):
    """Else it would keep serving the AOF folder the next `bingfa up` starts a Redis on."""
    code = f"""
        import time
        from pathlib import Path
        from service.cli import start_bundled_redis
        started = []
        start_bundled_redis(Path("{tmp_path}"), started)
        print(started[0].process.pid, flush=True)
        time.sleep(300)
    """
    assert kill_parent_and_watch(code)


class BeatService:  # the sender of beat_init (hashable, as a signal's sender must be)
    def __init__(self, app):
        self.app = app


class FakeCelery:
    def __init__(self):
        self.sent = []

    def send_task(self, name, args=(), kwargs=None, queue=None):
        self.sent.append((name, tuple(args), kwargs or {}, queue))


def test_starting_beat_dispatches_the_owed_ai_moves_at_once():
    """Beat's start sends the AI sweep with no waiting time, and that sweep queues a move
    an AI seat owes since just now (the 60 s sweep would have left it)."""
    from events.readmodels import ReadModels, epoch_ms
    from events.store import InMemoryEventStore
    from events.writepath import WritePath
    from workers.celery_app import AI_QUEUE, PLAY_AI_MOVE, SWEEP_AI_MOVES, resume_owed_ai_moves
    from workers.dispatch import sweep_owed_ai_moves

    celery = FakeCelery()
    resume_owed_ai_moves(celery)
    assert celery.sent == [(SWEEP_AI_MOVES, (), {"stale_ms": 0}, AI_QUEUE)]
    celery.sent.clear()
    beat_init.send(sender=BeatService(celery))  # what `celery beat` sends at its start
    assert celery.sent == [(SWEEP_AI_MOVES, (), {"stale_ms": 0}, AI_QUEUE)]

    store = InMemoryEventStore()
    models = ReadModels(fakeredis.FakeRedis(), 4)
    crashed = WritePath(store)  # no on_appended: the service went down before queueing
    game_id = crashed.create_game("sun-tzu", None, {"blue": "ai:random", "red": "human"})
    crashed.join(game_id, "red")
    models.project(store, game_id)
    game = crashed.load(game_id)
    assert game.pending.get("blue")
    now = epoch_ms(game.table.last_at) + 1000  # owed for a second only
    celery.sent.clear()
    assert sweep_owed_ai_moves(crashed, models, now, celery=celery) == []  # the 60 s wait
    queued = sweep_owed_ai_moves(crashed, models, now, stale_ms=0, celery=celery)
    assert queued == [(game_id, "blue")]
    assert celery.sent == [(PLAY_AI_MOVE, (game_id, game.version, "blue"), {}, AI_QUEUE)]
