"""Verifiable chance: the seed commitment and the random stream every shuffle comes from.

The server draws a secret seed and publishes only ``sha256(seed)``; each seat may add a
nonce (published as its sha256 when the seat is taken). Every ``rng`` handed to a game's
``setup`` or ``decide`` is ``rng_for(seed, nonces, position)``, where ``position`` is the
stream version the resulting events will start at. When the game ends the seed and the
nonces are revealed, so anyone holding the archive re-derives every shuffle and die.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping

from events.envelope import canonical


def commitment(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def rng_for(seed: str, nonces: Mapping[str, str], position: int) -> random.Random:
    """The random stream for the events that start at stream version ``position``."""
    material = canonical({"seed": seed, "nonces": dict(sorted(nonces.items())), "at": position})
    return random.Random(int.from_bytes(hashlib.sha256(material).digest(), "big"))
