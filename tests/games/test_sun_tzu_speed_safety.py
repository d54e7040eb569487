"""Speed work must not change behaviour: seeded random Sun Tzu games give the same events.

The hashes below were recorded from the engine before the speed work (commit a1e786d): for
each set of options, 150 random legal games through the public protocol
(``games.playout.play`` with ``random.Random(f"st-safety:{name}:{i}")``): the SHA-256 of the
canonical JSON of every event of every game, in order, of the final state
(``dump_state``) and the outcome; and for one more game, at every decision, ``pending``,
``legal`` (its order too), each seat's ``view``, the random command and the state after
each event, beside the events. Any change to the rules (not to their speed) changes them:
then re-record with ``python -m tests.games.test_sun_tzu_speed_safety`` and say why in
the commit.
"""

from __future__ import annotations

import pytest

from games.sun_tzu import RULES
from tests.games.locked_games import protocol_hash

GAMES = 150
CLOSE_GAMES = 1
OPTIONS = {
    "standard": {"variant": "standard", "events": False},
    "standard_events": {"variant": "standard", "events": True},
    "beginner": {"variant": "beginner", "events": False},
    "beginner_events": {"variant": "beginner", "events": True},
}
RECORDED = {
    "beginner": "2f86ebfe864551fcc1812568627acd482fead141bc019329fe1f52db200f70e3",
    "beginner_events": "0f4de07397a7eafaf6ecc399efe83533ec682a01226a22d27ea1d98f72871b11",
    "standard": "389df4d1d0b43c8c46ea60a293a4eefd410b223a11fa79de9f735e8f0d64f77f",
    "standard_events": "af6f0f68075f1897876c6e284026d85b1fdd701769e4882089c84f09f4412554",
}


def event_hash(name: str) -> str:
    return protocol_hash(RULES, OPTIONS[name], "st", name, GAMES, CLOSE_GAMES)


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_seeded_random_games_give_the_recorded_events(name):
    assert event_hash(name) == RECORDED[name]


if __name__ == "__main__":
    for name in sorted(OPTIONS):
        print(f'    "{name}": "{event_hash(name)}",')
