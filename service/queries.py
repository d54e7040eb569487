"""Read-side queries (lobby, a player's games, finished games), Flask-free.

With Redis they come from the read models the projector keeps (``events.readmodels``);
with the in-memory store (tests, tools) they are computed from the streams on the spot,
with the same pure function, so both answer alike.
"""

from __future__ import annotations

from typing import Any

from events.projector import load
from events.readmodels import (
    ReadModels,
    entries_for,
    finished_order,
    lobby_order,
    player_order,
)
from events.store import EventStore


class Queries:
    def __init__(self, store: EventStore, models: ReadModels | None = None,
                 registry: Any = None) -> None:  # fmt: skip
        self.store = store
        self.models = models  # None: every answer computed from the streams
        self.registry = registry

    def _entries(self):
        for game_id in self.store.game_ids():
            game = load(self.store, game_id, self.registry)
            yield entries_for(game, game.table.created_at, game.table.last_at)

    def lobby(self) -> list[dict[str, Any]]:
        if self.models is not None:
            return self.models.lobby()
        return lobby_order([e.lobby for e in self._entries() if e.lobby])

    def games_of(self, player: str) -> list[dict[str, Any]]:
        if self.models is not None:
            return self.models.games_of(player)
        return player_order([e.players[player] for e in self._entries() if player in e.players])

    def deadlines_before(self, now_ms: int, limit: int = 1000) -> list[str]:
        """Games whose earliest clock deadline is at or before ``now_ms``, earliest first."""
        if self.models is not None:
            return self.models.deadlines_before(now_ms, limit)
        due = [(e.deadline_ms, e.game_id) for e in self._entries()
               if e.deadline_ms is not None and e.deadline_ms <= now_ms]  # fmt: skip
        return [game_id for _, game_id in sorted(due)[:limit]]

    def finished(self, limit: int = 50) -> list[dict[str, Any]]:
        if self.models is not None:
            return self.models.finished(limit)
        return finished_order([e.finished for e in self._entries() if e.finished], limit)

    def ratings(self):
        """The ratings' readers (``events.ratings``): the follower's model in Redis, else
        ``table_from_games`` computed from the streams now (the same algorithm)."""
        from events.ratings import RedisRatings, table_from_games

        if self.models is not None:
            return RedisRatings(self.models.redis).reader()
        return table_from_games(load(self.store, g, self.registry) for g in self.store.game_ids())
