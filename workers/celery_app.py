"""The Celery app: `celery -A workers.celery_app worker -Q ai,analysis,notify`.

`make_celery(config)` builds an app from a mapping (tests) or the environment
(production). Nothing connects to a broker when the app is made, so the module-level `app`
below only reads the environment. The tasks themselves live in `workers.tasks`.

Environment variables:
- `CELERY_BROKER_URL` is the broker. Without it, `REDIS_URL` is used (the event store's Redis),
  and without that, a Redis on localhost. The broker may be a different Redis from the event
  store. The event store's Redis runs with `noeviction`, and a broker should too.
- `BINGFA_BEAT_LEASE_SECONDS` (default 15): beat's leader lease (`workers.beat_lease`): a
  second copy of beat stands by and takes over within a third more than this after the first
  died.
- `BINGFA_VISIBILITY_TIMEOUT` (seconds, default 60) controls redelivery. A message a worker
  took but never acknowledged (for example because the worker was killed) goes back on the
  queue once it is this old. It must be longer than any task runs (the AI's hard limit is
  20 s). A task that runs longer is delivered twice, which is harmless here because tasks are
  idempotent.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from celery import Celery, signals
from celery.signals import beat_init
from kombu import Queue

from events.logs import TASK_HEADER, configure, request_id

AI_QUEUE = "ai"
ANALYSIS_QUEUE = "analysis"
PLAY_AI_MOVE = "bingfa.play_ai_move"  # the task's stable name (messages carry it)
SWEEP_AI_MOVES = "bingfa.sweep_ai_moves"
ARCHIVE_GAME = "bingfa.archive_game"  # a finished game's record into the replay store
SWEEP_UNARCHIVED = "bingfa.sweep_unarchived"  # archive tasks that were lost
ANALYSE_REPLAY = "bingfa.analyse_replay"  # a replay's analysis (workers.analysis)
HINT = "bingfa.hint"  # the AI's hint for a seat's decision (workers.hints), on the AI queue
NOTIFY_QUEUE = "notify"
SWEEP_WEBHOOKS = "bingfa.sweep_webhooks"  # webhook outbox and daily digests (workers.notify)
WEBHOOK_SWEEP_EVERY = 10.0  # seconds: how late a webhook may be (and its retries' grain)
SWEEP_EVERY = 30.0  # seconds between beat's sweeps for AI moves whose task was lost
SWEEP_DEADLINES = "bingfa.sweep_deadlines"  # clocks that ran out: forfeit or AI stand-in
DEADLINE_SWEEP_EVERY = 15.0  # seconds: how late past its deadline a timeout is enforced
SWEEP_MATCHES = "bingfa.sweep_matches"  # the next game of a match its end hook failed to make

DEFAULT_BROKER = "redis://127.0.0.1:6379/0"
DEFAULT_VISIBILITY_TIMEOUT = 60
AI_SOFT_TIME_LIMIT = 10  # seconds: SoftTimeLimitExceeded is raised in the task
AI_TIME_LIMIT = 20  # seconds: the pool process is killed and replaced
# An analysis takes under a minute at the default strength (bench.replays). It outlives the
# visibility timeout, so its message may be delivered again while it runs: the second
# delivery sees it running (replays.analysis_store) and does nothing.
ANALYSIS_SOFT_TIME_LIMIT = 300
ANALYSIS_TIME_LIMIT = 360


def settings(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The Celery settings taken from the environment."""
    env = os.environ if environ is None else environ
    broker = env.get("CELERY_BROKER_URL") or env.get("REDIS_URL") or DEFAULT_BROKER
    visibility = float(env.get("BINGFA_VISIBILITY_TIMEOUT") or DEFAULT_VISIBILITY_TIMEOUT)
    return {"broker_url": broker, "broker_transport_options": transport_options(visibility)}


def transport_options(visibility_timeout: float) -> dict[str, Any]:
    """Redis transport options. Abandoned messages are looked for often enough that one
    is redelivered within about a visibility timeout and a quarter. Kombu's default sweep
    runs every 100 s, too slow for the short timeouts the tests use."""
    return {
        "visibility_timeout": visibility_timeout,
        "unacked_restore_interval": max(1, min(10, int(visibility_timeout / 4))),
        "unacked_restore_throttle": 1,
    }


def make_celery(config: Mapping[str, Any] | None = None) -> Celery:
    """A Celery app for Bingfa. Settings in `config` override the environment's."""
    app = Celery("bingfa", include=["workers.tasks"])
    app.conf.update(
        task_ignore_result=True,  # no result backend: tasks report through the event stream
        result_backend=None,
        task_acks_late=True,  # acknowledge after the task ran, so a lost worker's task is redone
        task_reject_on_worker_lost=True,
        task_acks_on_failure_or_timeout=True,  # a task that fails is logged, not replayed forever
        worker_prefetch_multiplier=1,
        worker_cancel_long_running_tasks_on_connection_loss=True,
        broker_connection_retry_on_startup=True,
        task_serializer="json",
        # beat runs once however many copies are started: the others stand by
        beat_scheduler="workers.beat_lease:LeasedScheduler",
        accept_content=["json"],
        task_queues=(Queue(AI_QUEUE), Queue(ANALYSIS_QUEUE), Queue(NOTIFY_QUEUE)),
        task_default_queue=AI_QUEUE,
        task_routes={
            PLAY_AI_MOVE: {"queue": AI_QUEUE},
            HINT: {"queue": AI_QUEUE},
            SWEEP_AI_MOVES: {"queue": AI_QUEUE},
            SWEEP_DEADLINES: {"queue": AI_QUEUE},
            SWEEP_MATCHES: {"queue": AI_QUEUE},
            ARCHIVE_GAME: {"queue": ANALYSIS_QUEUE},
            SWEEP_UNARCHIVED: {"queue": ANALYSIS_QUEUE},
            ANALYSE_REPLAY: {"queue": ANALYSIS_QUEUE},
            SWEEP_WEBHOOKS: {"queue": NOTIFY_QUEUE},
        },
        beat_schedule={
            "sweep-webhooks": {
                "task": SWEEP_WEBHOOKS,
                "schedule": WEBHOOK_SWEEP_EVERY,
                "options": {"expires": WEBHOOK_SWEEP_EVERY},
            },
            "sweep-ai-moves": {
                "task": SWEEP_AI_MOVES,
                "schedule": SWEEP_EVERY,
                "options": {"expires": SWEEP_EVERY},  # a backlog of sweeps is one sweep
            },
            "sweep-deadlines": {
                "task": SWEEP_DEADLINES,
                "schedule": DEADLINE_SWEEP_EVERY,
                "options": {"expires": DEADLINE_SWEEP_EVERY},
            },
            "sweep-matches": {
                "task": SWEEP_MATCHES,
                "schedule": 2 * SWEEP_EVERY,
                "options": {"expires": 2 * SWEEP_EVERY},
            },
            "sweep-unarchived": {
                "task": SWEEP_UNARCHIVED,
                "schedule": 10 * SWEEP_EVERY,
                "options": {"expires": 10 * SWEEP_EVERY},
            },
        },
        task_annotations={
            PLAY_AI_MOVE: {"soft_time_limit": AI_SOFT_TIME_LIMIT, "time_limit": AI_TIME_LIMIT},
            HINT: {
                "soft_time_limit": AI_SOFT_TIME_LIMIT,
                "time_limit": AI_TIME_LIMIT,
                "expires": 30,
            },  # an ask older than that has been answered 202 long ago
            ANALYSE_REPLAY: {
                "soft_time_limit": ANALYSIS_SOFT_TIME_LIMIT,
                "time_limit": ANALYSIS_TIME_LIMIT,
            },
        },
    )
    app.conf.update(settings())
    if config:
        app.conf.update(dict(config))
    return app


# The request id travels in the task's message headers: set when a task is sent (from a
# web request, or from a task that a request caused), taken back when a worker runs it.
@signals.before_task_publish.connect
def carry_request_id(headers: dict[str, Any] | None = None, **_: Any) -> None:
    rid = request_id.get()
    if rid and headers is not None:
        headers.setdefault(TASK_HEADER, rid)


@signals.task_prerun.connect
def take_request_id(task: Any = None, **_: Any) -> None:
    rid = getattr(getattr(task, "request", None), TASK_HEADER, None)
    request_id.set(rid if isinstance(rid, str) else None)


@signals.task_postrun.connect
def forget_request_id(**_: Any) -> None:
    request_id.set(None)


@signals.setup_logging.connect
def setup_logging(loglevel: Any = None, **_: Any) -> None:
    """Workers and beat log like the web (events.logs) instead of Celery's own setup;
    ``--loglevel`` counts unless ``BINGFA_LOG_LEVEL`` is set."""
    configure("celery", level=loglevel)


def resume_owed_ai_moves(celery: Any) -> None:
    """At the start of the service, queue the AI sweep once with no waiting time: the moves
    AI seats owed when it went down (their tasks lost with the broker, or never sent) are
    played now, not after the minute the periodic sweep gives a task. A move queued twice
    is played once (the task checks the version)."""
    celery.send_task(SWEEP_AI_MOVES, kwargs={"stale_ms": 0}, queue=AI_QUEUE)


@beat_init.connect
def _resume_at_beat_start(sender: Any = None, **_: Any) -> None:
    # A leased beat (workers.beat_lease, the default) sends it when it takes the lead, so
    # a standby copy sends nothing; any other scheduler runs alone and sends it at its start.
    # (Sent twice it would still be harmless: a move queued twice is played once.)
    from workers.beat_lease import LeasedScheduler

    if isinstance(getattr(sender, "scheduler", None), LeasedScheduler):
        return
    resume_owed_ai_moves(sender.app)


app = make_celery()
