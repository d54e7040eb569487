"""Verifiable chance: the seed commitment and the random stream every shuffle comes from.

The server draws a secret seed and publishes only ``sha256(seed)``; each seat may add a
nonce (published as its sha256 when the seat is taken). Every ``rng`` handed to a game's
``setup`` or ``decide`` is ``rng_for(seed, nonces, position, generator)``, where
``position`` is the stream version the resulting events will start at. When the game ends
the seed and the nonces are revealed, so anyone holding the archive re-derives every
shuffle and die.

``generator`` is the one the game names in ``game_created.rng`` (``generator_of``): ours,
``bingfa-sha256-ctr-1`` (``events.rng``), for every game made now; games made before named
none and keep ``cpython-random``, the ``random.Random`` they were dealt with, so that they
go on and verify as they were played. Both are defined in ``docs/rng.md``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from typing import Any

from events.envelope import canonical
from events.rng import NAME as CURRENT
from events.rng import HashRng
from games.i18n import said

LEGACY = "cpython-random"  # what a game that names no generator was dealt with
GENERATORS = (CURRENT, LEGACY)


class UnknownGenerator(ValueError):
    """A generator name this server does not know (from a record, or a game made elsewhere)."""

    def __init__(self, name: Any) -> None:
        known = " and ".join(GENERATORS)
        super().__init__(said("there is no random generator called {name!r} here (there are "
                              "{known}), so its cards and dice cannot be derived",
                              name=name, known=known))  # fmt: skip
        self.name = name


def commitment(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def generator_of(created: Mapping[str, Any]) -> Any:
    """The generator a game's ``game_created`` payload names (``LEGACY`` when it names none)."""
    return created.get("rng", LEGACY)


def rng_for(
    seed: str, nonces: Mapping[str, str], position: int, generator: str = CURRENT
) -> HashRng | random.Random:
    """The random stream for the events that start at stream version ``position``, from
    ``generator`` (a game's own: ``generator_of``; new games: ``CURRENT``)."""
    if generator == CURRENT:
        return HashRng.of(seed, nonces, position)
    if generator == LEGACY:
        material = canonical({"seed": seed, "nonces": dict(sorted(nonces.items())), "at": position})
        return random.Random(int.from_bytes(hashlib.sha256(material).digest(), "big"))
    raise UnknownGenerator(generator)
