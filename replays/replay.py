"""Replaying a record: the state after any number of its events, and views of it.

    state_at(record, n) -> state               the game's state after the first n events
    view_at(record, n, perspective) -> dict    that state as a perspective sees it:
        a seat (one of the game's seats): ``rules.view(state, seat)``, what the seat saw then;
        "spectator": ``rules.view(state, None)``;
        "full": everything (the game is over: nothing is secret any more), as the game's
        knowledge documents it: ``rules.knowledge.full_view(state)``.
    replay_of(record) -> Replay                the folded record (cached; see below)

``n`` runs from 0 (nothing has happened) to ``len(record.events)`` (the end). System
events (game_created, seat_joined, command_given, …) are counted in ``n`` but change
nothing in the game's state, except a continued game's ``position_set``, which sets it.
Events are upcast to the current schema before folding.

Fast for any ``n``: a record is folded once and a state kept every ``CHECKPOINT_EVERY``
events (states are immutable values, ``evolve`` returns a new one), so a lookup folds at
most ``CHECKPOINT_EVERY - 1`` events. Folded records are kept in a small LRU keyed by
(id, head hash), so asking for step after step of one replay folds it once.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from typing import Any

import games
from events.projector import Lru
from events.schemas import SYSTEM_FIELDS
from games.i18n import said
from replays.codec import upcast_all
from replays.record import Record, RecordError

CHECKPOINT_EVERY = 8
CACHE_SIZE = 128
SPECTATOR = "spectator"
FULL = "full"
POSITION = "position_set"  # a continued game's declared start (see events.writepath)

_cache = Lru(CACHE_SIZE)


class BadStep(ValueError):
    """A step or a perspective the record does not have (the message says which it has)."""


class Replay:
    """A record folded once: ``state_at(n)`` and ``view_at(n, perspective)``."""

    def __init__(self, record: Record, registry: Mapping[str, Any] | None = None,
                 every: int = CHECKPOINT_EVERY) -> None:  # fmt: skip
        key = record.header.get("game")
        rules = (registry or games.REGISTRY).get(key)
        if rules is None:
            raise RecordError(said("there is no game called {key!r}", key=key))
        self.record = record
        self.rules = rules
        self.every = every
        # the game-level events, upcast, with the step (1-based seq) each comes at
        upcast = upcast_all(key, record.events)
        # (a continued game's position_set counts as one: it replaces the state)
        self._events = [(i + 1, e.event()) for i, e in enumerate(upcast)
                        if e.type not in SYSTEM_FIELDS or e.type == POSITION]  # fmt: skip
        self._steps = [step for step, _ in self._events]
        self._checkpoints = [rules.initial()]  # state after the first k * every game events
        state = self._checkpoints[0]
        for k, (_, event) in enumerate(self._events, start=1):
            state = self._evolve(state, event)
            if k % every == 0:
                self._checkpoints.append(state)
        self.final = state

    @property
    def length(self) -> int:
        return len(self.record.events)

    @property
    def perspectives(self) -> tuple[str, ...]:
        """The seats, a spectator, and everything (when the game's package says what that
        is: its ``knowledge.full_view``)."""
        full = (FULL,) if getattr(self.rules, "knowledge", None) is not None else ()
        return (*self.rules.seats, SPECTATOR, *full)

    def state_at(self, n: int) -> Any:
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= self.length:
            raise BadStep(
                said(
                    "step {n!r} is not in this replay: it has steps 0 to {length}",
                    n=n,
                    length=self.length,
                )
            )
        done = bisect.bisect_right(self._steps, n)  # game events among the first n
        k = done // self.every
        state = self._checkpoints[k]
        for _, event in self._events[k * self.every : done]:
            state = self._evolve(state, event)
        return state

    def _evolve(self, state: Any, event: dict[str, Any]) -> Any:
        if event["type"] == POSITION:
            return self.rules.load_state(event["state"])
        return self.rules.evolve(state, event)

    def view_at(self, n: int, perspective: str = SPECTATOR) -> dict[str, Any]:
        if perspective not in self.perspectives:
            known = ", ".join(self.perspectives)
            raise BadStep(
                said(
                    "there is no perspective {perspective!r}; use one of {known}",
                    perspective=perspective,
                    known=known,
                )
            )
        state = self.state_at(n)
        if perspective == SPECTATOR:
            return self.rules.view(state, None)
        if perspective == FULL:
            return self.rules.knowledge.full_view(state)
        return self.rules.view(state, perspective)


def replay_of(record: Record, registry: Mapping[str, Any] | None = None) -> Replay:
    """The folded record, from the cache when it was folded lately."""
    if registry is not None:
        return Replay(record, registry)
    key = (record.header.get("id"), record.header.get("head"), len(record.events))
    found = _cache.get(key)
    if found is None or found.record.events != record.events:
        found = Replay(record)
        _cache.put(key, found)
    return found


def state_at(record: Record, n: int) -> Any:
    """The game's state after the first ``n`` events of ``record`` (0 ≤ n ≤ events)."""
    return replay_of(record).state_at(n)


def view_at(record: Record, n: int, perspective: str = SPECTATOR) -> dict[str, Any]:
    """The state after ``n`` events as ``perspective`` (a seat, "spectator" or "full")
    sees it. ``BadStep`` for a step or perspective the record does not have."""
    return replay_of(record).view_at(n, perspective)
