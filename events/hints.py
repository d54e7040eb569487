"""The AI's hints, kept by position: the suggestion for a seat at a game's version is
worked out once (by an AI worker), kept for an hour, and given to every ask at that
position. Asking again while it is being worked out starts nothing new (``claim``).

On Redis the hint is said on the channel ``live:h:<game>:<seat>`` when it is ready, so a
web process waiting for it (``service.live``) answers at once; in memory (tests, tools)
the hub is told by whoever puts it.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

KEEP_S = 3600  # a hint for a position nobody moved from in an hour is worked out again
CLAIM_S = 30  # an ask's claim: past it (a lost task) the next ask queues the work again


def channel(game_id: str, seat: str) -> str:
    return f"h:{game_id}:{seat}"


class HintCache:
    """Hints by (game, version, seat), on a Redis client or, with none, in this process."""

    def __init__(self, client: Any = None) -> None:
        self.redis = client
        self._lock = threading.Lock()
        self._local: dict[str, tuple[float, str]] = {}  # key -> (expiry, value)

    @staticmethod
    def key(game_id: str, version: int, seat: str) -> str:
        return f"hint:{{{game_id}}}:{version}:{seat}"

    def get(self, game_id: str, version: int, seat: str) -> dict[str, Any] | None:
        raw = self._get(self.key(game_id, version, seat))
        return None if raw is None else json.loads(raw)

    def claim(self, game_id: str, version: int, seat: str) -> bool:
        """Whether this ask is the one to queue the work (no other in the last CLAIM_S)."""
        key = self.key(game_id, version, seat) + ":claim"
        if self.redis is not None:
            return bool(self.redis.set(key, "1", nx=True, ex=CLAIM_S))
        with self._lock:
            if self._alive(key):
                return False
            self._local[key] = (time.monotonic() + CLAIM_S, "1")
            return True

    def put(self, game_id: str, version: int, seat: str, hint: dict[str, Any]) -> None:
        key, value = self.key(game_id, version, seat), json.dumps(hint, separators=(",", ":"))
        if self.redis is not None:
            pipe = self.redis.pipeline(transaction=False)
            pipe.set(key, value, ex=KEEP_S)
            pipe.publish("live:" + channel(game_id, seat), str(version))
            pipe.execute()
            return
        with self._lock:
            self._local[key] = (time.monotonic() + KEEP_S, value)

    def _get(self, key: str) -> str | None:
        if self.redis is not None:
            raw = self.redis.get(key)
            return None if raw is None else raw.decode()
        with self._lock:
            return self._local[key][1] if self._alive(key) else None

    def _alive(self, key: str) -> bool:
        found = self._local.get(key)
        if found is not None and found[0] < time.monotonic():
            del self._local[key]
            return False
        return found is not None
