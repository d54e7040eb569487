"""The read models that follow the projection of each game (``ReadModels.followers``):
built in one place so the projector process and ``bingfa rebuild`` feed the same ones."""

from __future__ import annotations

from typing import Any


def followers_for(redis: Any, partitions: int) -> list[Any]:
    """The followers over one Redis (the event store's)."""
    from events.notifications import Notifications, NotificationStore
    from events.ratings import RedisRatings

    return [RedisRatings(redis), Notifications(NotificationStore(redis))]
