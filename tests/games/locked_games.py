"""The lock tests' measure of a game's behaviour (``test_*_speed_safety.py``): seeded random
games through the public protocol, hashed, so that speed work that changes a game shows."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from games.playout import play


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode() + b"\n"


def protocol_hash(rules: Any, options: dict, prefix: str, name: str, games: int,
                  close_games: int) -> str:  # fmt: skip
    """The SHA-256 of ``games`` random games (``games.playout.play`` with
    ``random.Random(f"{prefix}-safety:{name}:{i}")``): the canonical JSON of every event,
    the final state (``dump_state``) and the outcome; then of ``close_games`` more
    (``f"{prefix}-safety-close:{name}:{i}"``), at every decision, ``pending``, each seat's
    ``legal`` (in order) and ``view``, the random command, and each event with the state
    after it."""
    h = hashlib.sha256()
    for i in range(games):
        game = play(rules, options, random.Random(f"{prefix}-safety:{name}:{i}"))
        for event in game.events:
            h.update(canonical(event))
        h.update(rules.dump_state(game.state).encode())
        h.update(canonical(game.outcome))
    for i in range(close_games):  # everything the protocol tells, at every decision
        rng = random.Random(f"{prefix}-safety-close:{name}:{i}")
        st = rules.fold(rules.setup(options, rng))
        while due := rules.pending(st):
            h.update(canonical(due))
            for seat in rules.seats:
                h.update(canonical(rules.legal(st, seat)))
                h.update(canonical(rules.view(st, seat)))
            seat = next(iter(due))
            command = rules.random_command(st, seat, rng)
            h.update(canonical(command))
            for event in rules.decide(st, seat, command, rng):
                h.update(canonical(event))
                st = rules.evolve(st, event)
                h.update(rules.dump_state(st).encode())
        h.update(canonical(rules.outcome(st)))
    return h.hexdigest()
