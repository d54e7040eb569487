"""AI opponents as pure functions: a position and a random stream go in, a command comes out.

Nothing here touches Redis, Celery or a clock. The task in `workers.tasks` loads the game,
calls `choose_command` and submits the result through the ordinary write path. Stronger
levels are added to `LEVELS`.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

from events.envelope import canonical

Chooser = Callable[[Any, Any, str, random.Random], dict[str, Any] | None]


def _random(rules: Any, state: Any, seat: str, rng: random.Random) -> dict[str, Any] | None:
    """A uniformly random answer to whatever the seat owes (the rules define "random")."""
    return rules.random_command(state, seat, rng)


LEVELS: dict[str, Chooser] = {"random": _random}


def choose_command(
    rules: Any, state: Any, seat: str, level: str, rng: random.Random
) -> dict[str, Any] | None:
    """The command an AI of `level` plays for `seat` in `state`. It is None when the seat owes
    nothing. An unknown level raises `ValueError`."""
    try:
        chooser = LEVELS[level]
    except KeyError:
        known = ", ".join(sorted(LEVELS))
        raise ValueError(f"there is no AI level {level!r}; the levels are: {known}") from None
    return chooser(rules, state, seat, rng)


def move_rng(game_id: str, version: int, seat: str, secret: str | None) -> random.Random:
    """The AI's random stream for one decision. It is the same every time it is asked, so a
    task that is delivered again plays the same move.

    The game's secret seed is mixed in. Otherwise an opponent who knows the game id could
    predict a random AI's choices. After the seed is revealed at the end, anyone can re-derive
    them. The label keeps this stream separate from the game's own chance
    (`events.fairness.rng_for`).
    """
    material = canonical(
        {"ai": "move", "game": game_id, "version": version, "seat": seat, "secret": secret or ""}
    )
    return random.Random(int.from_bytes(hashlib.sha256(material).digest(), "big"))
