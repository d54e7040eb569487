"""Pure game rules, one package per game, listed explicitly in ``REGISTRY``.

Game keys are stored in events and never renamed.
"""

from __future__ import annotations

from games import commander, sun_tzu, warring_states
from games.base import Command, Event, Rules, RulesError, Seat

REGISTRY: dict[str, Rules] = {
    sun_tzu.RULES.key: sun_tzu.RULES,
    warring_states.RULES.key: warring_states.RULES,
    commander.RULES.key: commander.RULES,
}


def get(key: str) -> Rules:
    """The rules of the game called ``key``; a ``KeyError`` names the games we have."""
    try:
        return REGISTRY[key]
    except KeyError:
        known = ", ".join(sorted(REGISTRY))
        raise KeyError(f"there is no game called {key!r}; the games are: {known}") from None


__all__ = ["REGISTRY", "Command", "Event", "Rules", "RulesError", "Seat", "get"]
