"""Thin Celery tasks: ids come in, the work is done by plain functions. A task can be
delivered twice, so each one is idempotent.

`play_ai_move(game_id, expected_version, seat)` works like this:
1. Load the game. If it has moved past `expected_version`, or the seat owes nothing,
   return "already moved".
2. Choose the command with `workers.ai.choose_command`, using a random stream derived from
   (game, version, seat, secret seed). A redelivered task therefore chooses the same command.
3. Submit it through the ordinary write path, with that expected version and an idempotency
   key. A conflict means someone else moved first, which is not a failure.
"""

from __future__ import annotations

import logging
import os
import time

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from events import metrics
from events.projector import load
from events.store import ConcurrencyError, UnknownGame
from events.writepath import WritePath
from workers import ai, bootstrap
from workers.celery_app import (
    ANALYSE_REPLAY,
    ARCHIVE_GAME,
    HINT,
    PLAY_AI_MOVE,
    SWEEP_AI_MOVES,
    SWEEP_DEADLINES,
    SWEEP_MATCHES,
    SWEEP_UNARCHIVED,
    SWEEP_WEBHOOKS,
)
from workers.dispatch import (
    STALE_MS,
    ai_level,
    sweep_deadlines,
    sweep_matches,
    sweep_owed_ai_moves,
    sweep_unarchived,
)

log = logging.getLogger(__name__)

ALREADY_MOVED = "already moved"
# Test-only: seconds to wait before deciding, so a test can kill a worker mid-task.
TEST_DELAY_ENV = "BINGFA_AI_TEST_DELAY"
ANALYSIS_TEST_DELAY_ENV = "BINGFA_ANALYSIS_TEST_DELAY"


@shared_task(
    name=PLAY_AI_MOVE,
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    autoretry_for=(RedisConnectionError, RedisTimeoutError),
    retry_backoff=True,
    max_retries=5,
)
def play_ai_move(self, game_id: str, expected_version: int, seat: str) -> str:
    delay = float(os.environ.get(TEST_DELAY_ENV) or 0)
    if delay:
        log.warning("%s: waiting %s s before the AI move (tests only)", TEST_DELAY_ENV, delay)
        time.sleep(delay)
    with metrics.timed(metrics.TASK_SECONDS, task="ai_move") as out:
        status = take_ai_turn(bootstrap.write_path(self.app), game_id, expected_version, seat)
        out["outcome"] = "moved" if " played " in status else "skipped"
    return status


def take_ai_turn(bingfa: WritePath, game_id: str, expected_version: int, seat: str) -> str:
    """Play the AI seat's move at `expected_version` once. Returns a short status."""
    try:
        game = load(bingfa.store, game_id, bingfa.registry)
    except UnknownGame:
        log.warning("AI move for %s: there is no such game", game_id)
        return "no such game"
    level = ai_level(game.seats.get(seat))
    if level is None:
        return f"{seat} is not an AI seat"
    if game.version != expected_version or seat not in game.pending:
        return ALREADY_MOVED
    rng = ai.move_rng(game_id, expected_version, seat, bingfa.store.get_secret(game_id))
    # Past the soft time limit the search stops and plays the best it found.
    command = ai.choose_command(game.rules, game.state, seat, level, rng,
                                interrupts=(SoftTimeLimitExceeded,))  # fmt: skip
    if command is None:
        return ALREADY_MOVED
    try:
        done = bingfa.submit(
            game_id,
            seat,
            command,
            idempotency_key=f"ai:{game_id}:{expected_version}:{seat}",
            expected_version=expected_version,
            by=f"ai:{level}",
        )
    except ConcurrencyError:
        return ALREADY_MOVED
    if done.duplicate:
        return ALREADY_MOVED
    return f"{seat} played {command.get('type')} at version {expected_version}"


@shared_task(name=HINT, bind=True, ignore_result=True)
def hint(self, game_id: str, version: int, seat: str) -> str:
    """Work out the AI's hint for ``seat`` at ``version`` once (``workers.hints``)."""
    from workers.hints import work_out

    parts = bootstrap.parts(self.app)
    return work_out(parts.write_path, parts.hints, game_id, version, seat)


@shared_task(name=SWEEP_AI_MOVES, bind=True, ignore_result=True)
def sweep_ai_moves(self, stale_ms: int = STALE_MS) -> int:
    """Beat's sweep: queue again the AI moves whose task was lost (owed over ``stale_ms``;
    0 at the service's start, ``celery_app.resume_owed_ai_moves``). How many were queued."""
    parts = bootstrap.parts(self.app)
    now = int(time.time() * 1000)
    queued = sweep_owed_ai_moves(parts.write_path, parts.models, now, stale_ms, celery=self.app)
    if queued:
        log.warning("AI moves queued again after their task was lost: %s", queued)
    return len(queued)


@shared_task(name=SWEEP_DEADLINES, bind=True, ignore_result=True)
def sweep_deadlines_task(self) -> int:
    """Beat's sweep of the deadline index: clocks that ran out. How many were enforced."""
    parts = bootstrap.parts(self.app)
    enforced = sweep_deadlines(parts.write_path, parts.models, parts.write_path.now_ms())
    if enforced:
        log.info("clocks ran out: %s", enforced)
    return len(enforced)


@shared_task(name=SWEEP_MATCHES, bind=True, ignore_result=True)
def sweep_matches_task(self) -> int:
    """Beat's sweep of finished games of matches owed a next game. How many were made."""
    parts = bootstrap.parts(self.app)
    made = sweep_matches(parts.write_path, parts.models, parts.write_path.now_ms())
    if made:
        log.warning("next games of matches made by the sweep: %s", made)
    return len(made)


@shared_task(
    name=ARCHIVE_GAME,
    bind=True,
    acks_late=True,
    ignore_result=True,
    autoretry_for=(RedisConnectionError, RedisTimeoutError),
    retry_backoff=True,
    max_retries=5,
)
def archive_game(self, game_id: str) -> str:
    """Write a finished game's record into the replay store (once; idempotent)."""
    from replays.archive import archive
    from replays.record import NotFinished

    parts = bootstrap.parts(self.app)
    try:
        return "archived " + archive(parts.store, parts.replays, game_id)
    except (UnknownGame, NotFinished) as error:
        log.warning("archive of %s: %s", game_id, error)
        return str(error)


@shared_task(name=SWEEP_UNARCHIVED, bind=True, ignore_result=True)
def sweep_unarchived_games(self) -> int:
    """Beat's sweep: queue the archive of recently finished games whose task was lost."""
    parts = bootstrap.parts(self.app)
    missing = sweep_unarchived(parts.models, parts.replays, int(time.time() * 1000),
                               celery=self.app)  # fmt: skip
    if missing:
        log.warning("archives queued again after their task was lost: %s", missing)
    return len(missing)


@shared_task(name=SWEEP_WEBHOOKS, bind=True, ignore_result=True)
def sweep_webhooks(self) -> dict:
    """Beat's sweep: the daily digests now due, then the webhook deliveries (workers.notify)."""
    from events.i18n import profile_language
    from workers.notify import sweep

    parts = bootstrap.parts(self.app)
    language = profile_language(parts.redis)  # each delivery said in its player's language
    return sweep(parts.notifications, os.environ, int(time.time() * 1000),
                 language=language)  # fmt: skip


@shared_task(name=ANALYSE_REPLAY, bind=True, acks_late=True, ignore_result=True)
def analyse_replay(self, replay_id: str) -> str:
    """Analyse a replay once (``workers.analysis.job.run``); progress and result are kept
    beside the replay (``replays.analysis_store``). A second delivery while it runs, or
    after it is done, does nothing; a failed one is stored and can be requested again."""
    from workers.analysis.job import run

    delay = float(os.environ.get(ANALYSIS_TEST_DELAY_ENV) or 0)
    if delay:  # an analysis that takes long, whatever the machine (the pools' test)
        log.warning("%s: analysis of %s waits %s s (tests only)", ANALYSIS_TEST_DELAY_ENV,
                    replay_id, delay)  # fmt: skip
        time.sleep(delay)
    parts = bootstrap.parts(self.app)
    with metrics.timed(metrics.TASK_SECONDS, task="analysis") as out:
        status = run(parts.replays, parts.analyses, replay_id, event_store=parts.store)
        out["outcome"] = "done"
    return status
