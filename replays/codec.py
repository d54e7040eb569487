"""Upcasting recorded events to the current schema versions, with one shared ``Codec``
(built on first use: its schemas take a moment to make)."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from events.codec import Codec
from events.envelope import Envelope

_lock = threading.Lock()
_codec: Codec | None = None


def codec() -> Codec:
    global _codec
    with _lock:
        if _codec is None:
            _codec = Codec()
        return _codec


def upcast_all(game: str, events: Sequence[Envelope]) -> list[Envelope]:
    """The events at the current schema versions (an event of an unknown game or type is
    left as it is: the re-run reports it)."""
    c = codec()
    if game not in c.registry:
        return list(events)
    out = []
    for env in events:
        try:
            out.append(c.upcast(game, env))
        except ValueError:
            out.append(env)
    return out
