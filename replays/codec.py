"""Upcasting recorded events to the current schema versions, with one shared ``Codec`` per
registry of games (built on first use: its schemas take a moment to make; a game
registered later, as a test does, gets a codec that knows it)."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

import games
from events.codec import Codec
from events.envelope import Envelope

_lock = threading.Lock()
_codecs: dict[tuple[tuple[str, int], ...], Codec] = {}


def codec(registry: Mapping[str, Any] | None = None) -> Codec:
    """The codec of ``registry`` (the games registry when None)."""
    registry = games.REGISTRY if registry is None else registry
    key = tuple(sorted((k, id(rules)) for k, rules in registry.items()))
    with _lock:
        found = _codecs.get(key)
        if found is None:
            found = _codecs[key] = Codec(dict(registry))
        return found


def upcast_all(game: str, events: Sequence[Envelope], c: Codec | None = None) -> list[Envelope]:
    """The events at the current schema versions (an event of an unknown game or type is
    left as it is: the re-run reports it)."""
    c = c or codec()
    if game not in c.registry:
        return list(events)
    out = []
    for env in events:
        try:
            out.append(c.upcast(game, env))
        except ValueError:
            out.append(env)
    return out
