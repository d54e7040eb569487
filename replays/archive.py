"""Archiving: a finished game's record goes into the replay store, once.

    archive(event_store, replay_store, game_id) -> str     the replay id (= the game id)
    archive_all(event_store, replay_store) -> dict          counts: archived, already, running

Both are idempotent: a game already archived is left as it is (a put interrupted before
its indexes were written is completed). ``NotFinished`` for a game still being played,
``UnknownGame`` for no such game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.store import EventStore
from replays.record import NotFinished, record_of
from replays.store import ReplayStore


def archive(
    event_store: EventStore,
    replay_store: ReplayStore,
    game_id: str,
    registry: Mapping[str, Any] | None = None,
) -> str:
    """Write the record of the finished game ``game_id`` unless it is there already."""
    summary = replay_store.summary(game_id)
    if summary is not None and not summary.get("imported"):
        return game_id  # written and indexed before
    return replay_store.put(record_of(event_store, game_id, registry))


def archive_all(
    event_store: EventStore,
    replay_store: ReplayStore,
    registry: Mapping[str, Any] | None = None,
) -> dict[str, int]:
    """Archive every finished game of the event store; how many were archived now, were
    archived already, and are still being played."""
    counts = {"archived": 0, "already": 0, "running": 0}
    for game_id in event_store.game_ids():
        if replay_store.summary(game_id) is not None:
            counts["already"] += 1
            continue
        try:
            archive(event_store, replay_store, game_id, registry)
        except NotFinished:
            counts["running"] += 1
            continue
        counts["archived"] += 1
    return counts
