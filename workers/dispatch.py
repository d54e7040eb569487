"""Queueing the AI moves a game owes. This is the write path's `on_appended`, so it runs only
after an append has succeeded.

After every append, each AI seat that owes a decision gets a task for the version just
written. A task queued for an older version finds the game has moved on and does nothing.
The newest append has always queued a task for the current position, so an AI seat is never
left waiting.
"""

from __future__ import annotations

import logging
from typing import Any

from events import matches
from events.projector import LoadedGame
from workers.celery_app import AI_QUEUE, ANALYSIS_QUEUE, ARCHIVE_GAME, PLAY_AI_MOVE

AI_PREFIX = "ai:"
log = logging.getLogger(__name__)


def ai_level(kind: str | None) -> str | None:
    """The level of an `ai:<level>` seat, or None for any other seat (a human)."""
    if isinstance(kind, str) and kind.startswith(AI_PREFIX):
        return kind[len(AI_PREFIX) :]
    return None


def owed_ai_seats(game: LoadedGame) -> list[str]:
    """The AI seats that owe a decision now, in the order the rules list them."""
    seats = game.seats
    return [seat for seat in game.pending if ai_level(seats.get(seat)) is not None]


def enqueue_ai_moves(
    game: LoadedGame, events: list[dict[str, Any]] | None = None, celery: Any = None
) -> list[str]:
    """Queue `play_ai_move(game_id, version, seat)` on the `ai` queue for each AI seat that
    owes a move. `game` is the position after the append. Returns the seats queued.

    `celery` is the app to send through. It defaults to `workers.celery_app.app`, which is
    configured from the environment. The message is sent by task name, so the caller does
    not depend on which Celery app is current in its thread.
    """
    seats = owed_ai_seats(game)
    if not seats:
        return []
    if celery is None:
        from workers.celery_app import app as celery
    for seat in seats:
        celery.send_task(PLAY_AI_MOVE, args=(game.game_id, game.version, seat), queue=AI_QUEUE)
    return seats


def enqueue_archive(
    game: LoadedGame, events: list[dict[str, Any]] | None = None, celery: Any = None
) -> bool:
    """Queue `archive_game(game_id)` on the `analysis` queue when this append ended the
    game (it revealed the seed). Whether it was queued. The replay API also archives a
    finished game on first read, so a lost message only delays the replay list."""
    if not any(event.get("type") == "seed_revealed" for event in events or ()):
        return False
    if celery is None:
        from workers.celery_app import app as celery
    celery.send_task(ARCHIVE_GAME, args=(game.game_id,), queue=ANALYSIS_QUEUE)
    return True


def follow_up(game: LoadedGame, events: list[dict[str, Any]] | None = None,
              celery: Any = None) -> None:  # fmt: skip
    """A worker's `on_appended`: the AI moves now owed, and the archive of a game that
    just ended."""
    enqueue_ai_moves(game, events, celery=celery)
    enqueue_archive(game, events, celery=celery)


STALE_MS = 60_000  # an AI move owed this long has lost its task (a hard move takes seconds)


def sweep_owed_ai_moves(
    bingfa: Any, models: Any, now_ms: int, stale_ms: int = STALE_MS, celery: Any = None
) -> list[tuple[str, str]]:
    """Queue again the moves that AI seats have owed for more than ``stale_ms``: their
    task was lost (a broker that was down when the move before was stored, a queue that
    was flushed). Run by beat; a move queued twice is still played once (the task checks
    the version and carries an idempotency key). Returns (game, seat) queued."""
    queued = []
    for game_id in models.ai_owed_before(now_ms - stale_ms):
        try:
            game = bingfa.load(game_id)
        except LookupError:  # gone since the read model was written
            continue
        queued += [(game_id, seat) for seat in enqueue_ai_moves(game, celery=celery)]
    return queued


ARCHIVE_WINDOW_MS = 2 * 3600_000  # how far back the sweep looks (older: bingfa archive --all)
ARCHIVE_GRACE_MS = 60_000  # the archive task queued at the end has had its chance


def sweep_unarchived(models: Any, replays: Any, now_ms: int, celery: Any = None) -> list[str]:
    """Queue the archive of games that finished in the last two hours (over a minute
    ago) and are not in the replay store: their archive task was lost. Run by beat."""
    if celery is None:
        from workers.celery_app import app as celery
    finished = models.finished_between(now_ms - ARCHIVE_WINDOW_MS, now_ms - ARCHIVE_GRACE_MS)
    missing = [game_id for game_id in finished if not replays.exists(game_id)]
    for game_id in missing:
        celery.send_task(ARCHIVE_GAME, args=(game_id,), queue=ANALYSIS_QUEUE)
    return missing


def sweep_deadlines(bingfa: Any, models: Any, now_ms: int) -> list[tuple[str, str]]:
    """Enforce every clock that has run out by ``now_ms``: the games the deadline index
    (``ReadModels.deadlines_before``) names, each looked at again on its stream, where
    ``WritePath.expire`` forfeits the seat or lets an AI play its decision. Run by beat;
    two sweeps at once write once (the append checks the version). Returns (game, seat)."""
    enforced = []
    for game_id in models.deadlines_before(now_ms):
        try:
            enforced += [(game_id, seat) for seat in bingfa.expire(game_id)]
        except LookupError:  # gone since the read model was written
            continue
        except Exception:  # one broken game must not keep the clocks of the others waiting
            log.exception("could not enforce the deadline of game %s", game_id)
    return enforced


MATCH_WINDOW_MS = 6 * 3600_000  # how far back the match sweep looks (a long outage)
MATCH_GRACE_MS = 30_000  # the end hook has had its chance (and is not seating the players)


def sweep_matches(bingfa: Any, models: Any, now_ms: int) -> list[str]:
    """Make the next game of a match whose end hook failed to (``events.matches.sweep``):
    over the games that finished in the last six hours (over half a minute ago). Run by
    beat; two sweeps at once, or a sweep and the end hook, make one game. The games
    made."""
    finished = models.finished_between(now_ms - MATCH_WINDOW_MS, now_ms - MATCH_GRACE_MS)
    return matches.sweep(bingfa, finished)
