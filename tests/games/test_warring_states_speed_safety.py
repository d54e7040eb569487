"""Speed work must not change behaviour: seeded random games give the same events.

The hashes below were recorded from the engine before the speed work (commit de0f2cc),
then again after the rules review's fixes and the notation (the merge's first parent; the
sped-up engine gave the same hashes), and once more when the board came to be laid out
with sorted keys, as the store gives events back (random play draws from options in that
order), and once more when events came to carry the public fields the log tells each
reader by (``sides``, ``factions``: the hashes without them were unchanged):
for each scenario, 30 random legal games through the public protocol
(``games.playout.play`` with ``random.Random(f"ws-safety:{scenario}:{i}")``): the SHA-256
of the canonical JSON of every event of every game, in order, of the final state and the
outcome; and for 4 more games, ``legal`` at every decision (its order too: random play
draws from it) beside the events. Any change to the rules (not to their speed) changes
them: then re-record with ``python -m tests.games.test_warring_states_speed_safety`` and
say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from games.playout import play
from games.warring_states import RULES

GAMES = 30
LEGAL_GAMES = 4
RECORDED = {
    "FIVE_KINGDOMS": "725c94193d433f0303ec9021ed4a207dde5b7a73b26a16c0037ddc05d3610687",
    "QIN_DOMINATES": "fb822e289273e12a9be9e9e155637a2677af794c21314e9c4c1a9243202e2f41",
}


def canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode() + b"\n"


def event_hash(scenario: str) -> str:
    h = hashlib.sha256()
    for i in range(GAMES):
        game = play(RULES, {"scenario": scenario}, random.Random(f"ws-safety:{scenario}:{i}"))
        for event in game.events:
            h.update(canonical(event))
        h.update(RULES.dump_state(game.state).encode())
        h.update(canonical(game.outcome))
    for i in range(LEGAL_GAMES):  # legal at every decision, in order
        rng = random.Random(f"ws-safety-legal:{scenario}:{i}")
        st = RULES.fold(RULES.setup({"scenario": scenario}, rng))
        while due := RULES.pending(st):
            seat = next(iter(due))
            h.update(canonical(RULES.legal(st, seat)))
            command = RULES.random_command(st, seat, rng)
            for event in RULES.decide(st, seat, command, rng):
                h.update(canonical(event))
                st = RULES.evolve(st, event)
        h.update(RULES.dump_state(st).encode())
    return h.hexdigest()


@pytest.mark.parametrize("scenario", sorted(RECORDED))
def test_seeded_random_games_give_the_recorded_events(scenario):
    assert event_hash(scenario) == RECORDED[scenario]


if __name__ == "__main__":
    for name in sorted(RECORDED):
        print(f'    "{name}": "{event_hash(name)}",')
