"""The state the last decision left, kept for the fold that follows it (any game).

``decide`` computes the state after its events anyway (it must, to know what comes next),
and its caller then usually applies those very events to that very state (``evolve_all``,
as ``games.playout`` and the service do). Remembering it lets that fold hand back the
state already computed instead of applying the events a second time. Identity (``is``),
not equality, is checked: only the state object ``decide`` was given and the event objects
it made are known; anything else is applied as usual. The record is replaced whole (a
reader in another thread sees one decision's or another's) and handed out once, so every
fold gives a state object of its own. The state kept is one nobody changes any more.
"""

from __future__ import annotations

from operator import is_
from typing import Any

SETUP = object()  # the start of a game's first events (``setup``): from nothing
_NOTHING: tuple[Any, tuple, Any] = (None, (), None)  # (start, events, final)


class Remembered:
    """One game's record of the state its last decision (or setup) left."""

    __slots__ = ("passed",)

    def __init__(self) -> None:
        self.passed = _NOTHING

    def keep(self, start: Any, events: Any, final: Any) -> None:
        """``events`` lead from ``start`` (``SETUP``: from nothing) to ``final``."""
        self.passed = (start, tuple(events), final)

    def start(self) -> Any:
        """The state the record starts from (to ask cheaply before ``take``)."""
        return self.passed[0]

    def take(self, start: Any, events: Any) -> Any | None:
        """The state ``events`` (a list or tuple) lead to from ``start``, handed out once;
        None when these are not the very events remembered from that very state."""
        known_start, known_events, final = self.passed
        if (
            start is not known_start
            or len(events) != len(known_events)
            or not all(map(is_, events, known_events))
        ):
            return None
        self.passed = _NOTHING
        return final
