"""Speed work must not change behaviour: seeded random Commander games give the same events.

The hashes below were recorded from the engine before the speed work (commit 002cf50): for
each set of options (both setups, both settings of the soldier's dagger, both goals), 100
random legal games through the public protocol (``games.playout.play`` with
``random.Random(f"cmd-safety:{name}:{i}")``): the SHA-256 of the canonical JSON of every
event of every game, in order, of the final state (``dump_state``) and the outcome; and for
two more games, at every decision, ``pending``, ``legal`` (its order too), each seat's
``view``, the random command and the state after each event, beside the events. Any change
to the rules (not to their speed) changes them: then re-record with
``python -m tests.games.test_commander_speed_safety`` and say why in the commit.
"""

from __future__ import annotations

import itertools

import pytest

from games.commander import RULES
from tests.games.locked_games import protocol_hash

GAMES = 100
CLOSE_GAMES = 2
OPTIONS = {
    f"{setup}_{'dagger' if takes else 'rank'}_{goal.split('_')[0]}": {
        "setup": setup,
        "soldier_takes_commander": takes,
        "commander_goal": goal,
    }
    for setup, takes, goal in itertools.product(
        ("secret", "standard"), (True, False), ("back_rank", "enemy_side")
    )
}
RECORDED = {
    "secret_dagger_back": "adc4c49001592921b69f3433c3fa8f992a2af4ace8e7de015e6f27ecb0a50c20",
    "secret_dagger_enemy": "eec07cd5c814ec71b35ecfcb52f9f3d3d314bd2acb44f5ab5cbfb7dad284e2b6",
    "secret_rank_back": "86b3c5628926d21a153d2b29704ebf617509dad4ab0f946940c024e98491e1a7",
    "secret_rank_enemy": "b0a728d7deb1f340bd0448d5b78d522910d39c1b31593251eedf103aa314ca31",
    "standard_dagger_back": "60a73a1386d58b291d7734312d1f3788dba82d7cc517ed63a9d2796ce158900d",
    "standard_dagger_enemy": "dbc334478442caaf94ce360fa978a23c32fb3cda03e77931b22f293391ebc54c",
    "standard_rank_back": "c826cac03238bd4bccc78747881ae766dfac9bb2fe00104791ecdcb6fde90c20",
    "standard_rank_enemy": "833309a517f3b3f50022582934115b2031ab337907daf83805055f158d22738d",
}


def event_hash(name: str) -> str:
    return protocol_hash(RULES, OPTIONS[name], "cmd", name, GAMES, CLOSE_GAMES)


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_seeded_random_games_give_the_recorded_events(name):
    assert event_hash(name) == RECORDED[name]


if __name__ == "__main__":
    for name in sorted(OPTIONS):
        print(f'    "{name}": "{event_hash(name)}",')
